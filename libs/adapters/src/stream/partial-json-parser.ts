import { setOwnProperty } from '@toolgate/toolir';
import { IncompleteJsonError, InvalidJsonError } from './partial-json-errors';

// Design: one state machine over char codes that keeps its state between chunks, so each character
// is looked at once whatever the chunking (linear in the document). String content is taken as
// slices of the chunk between escapes, and values are written into the containers as they finish,
// so a push costs only what it consumed plus one write for an open string, never a copy of the tree.

/**
 * What the parser knows after a chunk. Without `snapshots` this is one object that every push
 * updates, like the value it holds: read `completePaths` and `done` before the next push (copy the
 * paths to keep them). With `snapshots` every push returns a new, unchanging one.
 */
export interface PartialJson {
  /**
   * The value so far: finished members, open containers, the prefix of an open string; `undefined`
   * before the first value starts. Without `snapshots` this is the same live object on every push.
   */
  readonly value: unknown;
  /**
   * JSON Pointers (RFC 6901) of the values that became complete during this push, innermost first,
   * in document order; `""` is the whole document. Materialized on first read, so an unread list costs
   * nothing and a read one costs only what this push completed (never the whole document).
   */
  readonly completePaths: readonly string[];
  /** The top-level value is complete; only whitespace may follow. */
  readonly done: boolean;
}

/** How the partial value is built and how an early end is reported. */
export interface PartialJsonParserOptions {
  /**
   * Return a new value (and `PartialJson`) on every push that shares each untouched subtree with the
   * previous one (path copying), so UIs can compare references; default `false` (one value, and one
   * `PartialJson`, updated in place). A push then also costs a shallow copy of each open container it
   * changes, i.e. their width.
   */
  snapshots?: boolean;
  /** Show an open string with the prefix received so far; default `true`. */
  partialStrings?: boolean;
  /** What `end()` does with an unfinished document: throw `IncompleteJsonError` (default) or return the partial value. */
  incomplete?: 'throw' | 'partial';
}

/** An incremental JSON parser: linear in the document, whatever the chunking. */
export interface PartialJsonParser {
  /** Consumes the next chunk; throws `InvalidJsonError` at the chunk where the document becomes invalid. */
  push(chunk: string): PartialJson;
  /** Declares the document finished and returns its value; see `PartialJsonParserOptions.incomplete`. */
  end(): unknown;
  /**
   * Where the document stopped, once `end()` returned a partial value (`incomplete: 'partial'`);
   * undefined before that and for a complete document.
   */
  cut(): JsonCut | undefined;
}

/** A slot in a container: an object key or an array index. */
export type JsonSlot = string | number;

/** One container left open by the end of the document. */
export interface OpenJsonContainer {
  readonly kind: 'object' | 'array';
  /** Its slot in the container before it in `JsonCut.open`; undefined for the root. */
  readonly slot: JsonSlot | undefined;
  /** For an array: how many elements were complete before the end. */
  readonly complete: number;
}

/**
 * What the innermost open container was in the middle of when the document ended: `member_name`
 * (after `{` or `,`, inside a key, or before its `:`; `key` once the key is complete), `value_start`
 * (after `:`, `[` or `,`, before any value), a `string`, `number` or `literal` that began at `slot`,
 * or `between` (after a complete value).
 */
export type JsonCutPoint =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'member_name'; readonly key?: string }
  | { readonly kind: 'between' }
  | { readonly kind: 'value_start'; readonly slot: JsonSlot }
  | { readonly kind: 'string'; readonly slot: JsonSlot | undefined }
  | { readonly kind: 'number'; readonly slot: JsonSlot | undefined }
  | {
      readonly kind: 'literal';
      readonly slot: JsonSlot | undefined;
      /** The one literal its first letters can begin. */
      readonly literal: 'true' | 'false' | 'null';
    };

/** Where an unfinished document stopped: the open containers (outermost first) and the token cut. */
export interface JsonCut {
  readonly open: readonly OpenJsonContainer[];
  readonly at: JsonCutPoint;
}

/** Creates an incremental parser that yields a partial value after every chunk (see `PartialJson`). */
export function createPartialJsonParser(options: PartialJsonParserOptions = {}): PartialJsonParser {
  return new IncrementalJsonParser(options);
}

type Container = Record<string, unknown> | unknown[];
type CompletionLog = (Frame | string | number | null)[];

// Parser states and number phases as const enums: their members compile to literals, so the
// dispatch is a jump table also where a bundler turns module-level constants into variables
// (esbuild does, for the published SDK), which V8 then loads and compares one by one.
const enum State {
  /** A value must start (top level, after ':' or after ',' in an array). */
  Value,
  /** After '[': a value or ']'. */
  ArrayFirst,
  /** After '{': a key or '}'. */
  ObjectFirst,
  /** After ',' in an object: a key. */
  Key,
  /** After a key. */
  Colon,
  /** After a member: ',' or the closing bracket. */
  AfterValue,
  /** The top-level value is complete. */
  Done,
  // From here on, states inside a token, which a chunk boundary can cut (see `carry`).
  String,
  Escape,
  Unicode,
  Number,
  Literal,
  /** An object key: like String, and hashed for the key cache. */
  KeyString,
}

/**
 * Number phases, after the JSON number grammar (RFC 8259 section 6). Ordered so that ranges test
 * phases: up to Int the integer part, then the fraction, then the exponent.
 */
const enum Phase {
  Minus,
  Zero,
  Int,
  Dot,
  Frac,
  Exp,
  ExpSign,
  ExpDigits,
}

const NO_PATHS: readonly string[] = Object.freeze([]);
const PROTO_KEY = '__proto__';

/**
 * One open container: the stack is the chain of `parent` links. Made as one object literal (one
 * shape, allocated inline in the parser loop, where a class constructor was a call).
 */
interface Frame {
  readonly isArray: boolean;
  container: Container;
  readonly parent: Frame | null;
  /** The slot of this container in its parent (key or index); unused at the root. */
  readonly slot: string | number;
  /** The snapshot epoch in which `container` was created or copied; older ones are shared and frozen by contract. */
  owned: number;
  /** The key of the member being parsed (objects). */
  key: string;
  /** `key` is `__proto__`, which must be defined rather than assigned (decided once per key). */
  protoKey: boolean;
  /** The index of the element being parsed (arrays). */
  index: number;
  /** JSON Pointer of this container, computed on first need. */
  pointer: string | undefined;
}

class PartialJsonResult implements PartialJson {
  paths: readonly string[] | undefined = undefined;

  /** This push's completions are `log[from, to)`. */
  from = 0;
  to = 0;

  constructor(
    public value: unknown,
    public done: boolean,
    private readonly log: CompletionLog,
  ) {}

  get completePaths(): readonly string[] {
    if (this.paths === undefined)
      this.paths =
        this.from === this.to ? NO_PATHS : materializePaths(this.log, this.from, this.to);
    return this.paths;
  }
}

class IncrementalJsonParser implements PartialJsonParser {
  private readonly snapshots: boolean;
  private readonly partialStrings: boolean;
  private readonly returnPartial: boolean;

  private state: State = State.Value;
  private top: Frame | null = null;
  private root: unknown = undefined;
  private done = false;
  private ended = false;
  private failure: Error | null = null;
  /** Characters consumed by earlier chunks, for error positions in the whole document. */
  private offset = 0;
  private epoch = 0;
  /**
   * Completions as (parent frame, slot) pairs; a push's result keeps its range and turns it into
   * pointers only if read. In place, the one result describes the latest push, so the array is
   * reused from the start at every push (memory stays at the most one push completed); with
   * snapshots, every result stays readable, so entries are appended and never rewritten.
   */
  private readonly log: CompletionLog = [];
  /** Entries of `log` in use. */
  private logLength = 0;
  /** The in-place mode's one result, updated by every push like the value itself. */
  private readonly live: PartialJsonResult;

  /** String content before the current chunk's segment (a rope; never re-read by the parser). */
  private text = '';
  /** A high surrogate held back from the partial view until its pair arrives. */
  private held = '';
  private inKey = false;
  /** The open key's hash and raw length over earlier chunks, and whether it is free of escapes. */
  private keyHash = 0;
  private keyLength = 0;
  private keyPlain = true;
  /**
   * The chunk holding the open key's latest piece, from `keyPieceFrom` to its end ('' when none): a
   * key cut by a chunk boundary is kept as a reference, so a key cut once (most are) is compared with
   * the key cache in place, with no slice or concatenation. Earlier pieces are in `text`.
   */
  private keyPiece = '';
  private keyPieceFrom = 0;
  /**
   * The open string's text changed since it was last written into the value (true when it opens).
   * A flag rather than a length comparison: the text is a cons, sliced or flat string by turns, and
   * reading `length` across that many string shapes is a megamorphic load at every push.
   */
  private textChanged = false;
  private hexCount = 0;
  private hexValue = 0;
  /**
   * The number's text from earlier chunks, needed only when it is not decoded from its digits: the
   * chunk holding its latest piece (from `numberPieceFrom`; '' when none) and the pieces before it.
   * Kept as a reference, so a number cut by a chunk boundary costs no slice unless its text is read.
   */
  private numberText = '';
  private numberPiece = '';
  private numberPieceFrom = 0;
  private numberState: Phase = Phase.Minus;
  private negative = false;
  /** The number's digits as an integer (exact while at most 15 digits), its decimal scale and exponent. */
  private mantissa = 0;
  private digits = 0;
  private scale = 0;
  private exponent = 0;
  private negativeExponent = false;
  private literal = '';
  private literalValue: boolean | null = null;
  private literalIndex = 0;
  /** Where in the last chunk the unfinished string or number begins (set by `scan`). */
  private tailStart = 0;
  private cutAt: JsonCut | undefined = undefined;

  constructor(options: PartialJsonParserOptions) {
    this.snapshots = options.snapshots ?? false;
    this.partialStrings = options.partialStrings ?? true;
    this.returnPartial = options.incomplete === 'partial';
    this.live = new PartialJsonResult(undefined, false, this.log);
  }

  push(chunk: string): PartialJson {
    // The per-chunk path is kept small (rare work in helpers) so that a caller's loop can inline it.
    if (this.failure !== null || this.ended) throw this.refusal(chunk);
    const snapshots = this.snapshots;
    if (!snapshots) this.logLength = 0;
    const logStart = this.logLength;
    const state = this.scan(chunk);
    this.state = state;
    if (state >= State.String) this.carry(chunk, state);
    this.offset += chunk.length;
    if (snapshots) return this.snapshot(logStart);
    const live = this.live;
    live.value = this.root;
    live.done = this.done;
    live.to = this.logLength;
    live.paths = undefined;
    return live;
  }

  /** The error for a push after a failure or after `end()`. */
  private refusal(chunk: string): Error {
    if (this.failure !== null) return this.failure;
    return new InvalidJsonError({
      position: this.offset,
      found: chunk.slice(0, 1),
      expected: ['end of input'],
    });
  }

  /**
   * Carries the unfinished token over to the next chunk (from `tailStart`) and shows an open
   * string's new prefix in the value.
   */
  private carry(chunk: string, state: State): void {
    if (state === State.KeyString) {
      this.carryKey(chunk, this.tailStart);
      return;
    }
    if (state === State.Number) {
      if (this.numberPiece !== '') this.numberText += this.numberPiece.slice(this.numberPieceFrom);
      this.numberPiece = chunk;
      this.numberPieceFrom = this.tailStart;
      return;
    }
    if (state === State.String) this.appendTail(chunk, this.tailStart);
    // A literal has nothing to carry; an escape inside a key shows nothing.
    else if (state === State.Literal || this.inKey) return;
    if (this.textChanged && this.partialStrings) {
      this.textChanged = false;
      this.place(this.text);
    }
  }

  private snapshot(logStart: number): PartialJson {
    const result = new PartialJsonResult(this.root, this.done, this.log);
    result.from = logStart;
    result.to = this.logLength;
    // Everything reachable from `root` now belongs to a returned snapshot: the next write copies it.
    this.epoch++;
    return result;
  }

  /**
   * The state machine over one chunk; returns the state at its end and leaves in `tailStart` where
   * the unfinished string or number begins. Kept apart from the per-push bookkeeping on purpose: a
   * long chunk gets this loop compiled on-stack, and that code must not contain the rarely run
   * chunk-boundary paths (V8 would leave the loop on them at every later push).
   *
   * The work of every member (placing the value, logging its completion, opening and closing
   * containers, decoding a number) is written out here rather than in helper methods: this function
   * is too large for V8 to inline all of its callees, and the helpers it did not inline (the store,
   * the log, open, close, the number's start and value) were a call per member. The rare paths
   * (escapes, errors, snapshots, long numbers) stay in helpers.
   */
  private scan(chunk: string): State {
    const length = chunk.length;
    const log = this.log;
    const snapshots = this.snapshots;
    const epoch = this.epoch;
    let logLength = this.logLength;
    let top = this.top;
    let state = this.state;
    let index = 0;
    // Start of the not yet accumulated part of the current string or number in this chunk.
    let segment = 0;

    while (index < length) {
      // A case either `continue`s (no value finished) or leaves `complete` with the finished value.
      let value: unknown;
      complete: {
        switch (state) {
          case State.String: {
            let code = 0;
            while (index < length) {
              code = chunk.charCodeAt(index);
              if (code === 34 || code === 92 || code < 32) break;
              index++;
            }
            if (index === length) continue;
            if (code === 34) {
              value =
                this.text === '' && this.held === ''
                  ? chunk.slice(segment, index)
                  : this.takeString(chunk, segment, index);
              index++;
              break complete;
            }
            if (code !== 92) throw this.fail(chunk, index, ['string character', '"']);
            // The escapes whole in this chunk, and the text between them, in one call rather than
            // on turns of this loop (escape-dense strings); a cut or invalid one goes letter by letter.
            const next = this.decodeEscapes(chunk, segment, index);
            segment = next;
            if (next !== index) index = next;
            else {
              index++;
              state = State.Escape;
            }
            continue;
          }
          case State.KeyString: {
            let code = 0;
            let hash = this.keyHash;
            while (index < length) {
              code = chunk.charCodeAt(index);
              if (code === 34 || code === 92 || code < 32) break;
              hash = (Math.imul(hash, 31) + code) | 0;
              index++;
            }
            this.keyHash = hash;
            if (index === length) continue;
            if (code === 34) {
              const frame = top as Frame;
              this.keyLength += index - segment;
              const key =
                this.text === '' && this.held === ''
                  ? this.keyPiece === ''
                    ? this.keyFromChunk(chunk, segment, index)
                    : this.takeCutKey(chunk, segment, index)
                  : this.takeKey(chunk, segment, index);
              frame.key = key;
              // Only a 9-unit key, or one with escapes, can be `__proto__`: most keys skip the comparison.
              frame.protoKey = (this.keyLength === 9 || !this.keyPlain) && key === PROTO_KEY;
              index++;
              // Compact JSON puts the ':' right after the key, often followed by a string: take them
              // here rather than on more turns of the loop.
              if (index < length && chunk.charCodeAt(index) === 58) {
                index++;
                if (index < length && chunk.charCodeAt(index) === 34) {
                  this.openString();
                  index++;
                  segment = index;
                  state = State.String;
                } else state = State.Value;
              } else state = State.Colon;
              continue;
            }
            if (code !== 92) throw this.fail(chunk, index, ['string character', '"']);
            // A key with escapes is not cached (see the key cache): from here its hash is unused.
            this.keyPlain = false;
            if (this.keyPiece !== '') this.flushKeyPiece();
            const next = this.decodeEscapes(chunk, segment, index);
            segment = next;
            if (next !== index) index = next;
            else {
              index++;
              state = State.Escape;
            }
            continue;
          }
          case State.Escape: {
            const code = chunk.charCodeAt(index);
            const unit = code < 128 ? (ESCAPED_UNITS[code] as number) : -1;
            if (unit === -1) throw this.fail(chunk, index, ['escape character']);
            index++;
            if (unit === -2) {
              this.hexCount = 0;
              this.hexValue = 0;
              state = State.Unicode;
            } else {
              this.appendUnit(unit);
              segment = index;
              state = this.inKey ? State.KeyString : State.String;
            }
            continue;
          }
          case State.Unicode: {
            // All four digits in one go when the chunk has them (one trip through the dispatch).
            let hexValue = this.hexValue;
            let hexCount = this.hexCount;
            while (index < length) {
              const code = chunk.charCodeAt(index);
              const digit = code < 128 ? (HEX_VALUES[code] as number) : -1;
              if (digit === -1) throw this.fail(chunk, index, ['hex digit']);
              index++;
              hexValue = hexValue * 16 + digit;
              if (++hexCount === 4) break;
            }
            if (hexCount < 4) {
              this.hexValue = hexValue;
              this.hexCount = hexCount;
              continue;
            }
            this.appendUnit(hexValue);
            segment = index;
            state = this.inKey ? State.KeyString : State.String;
            continue;
          }
          case State.Number: {
            let numberState = this.numberState;
            let mantissa = this.mantissa;
            let digits = this.digits;
            let scale = this.scale;
            let exponent = this.exponent;
            let finished = false;
            while (index < length) {
              const code = chunk.charCodeAt(index);
              const digit = code - 48;
              if (digit >= 0 && digit <= 9) {
                if (numberState <= Phase.Int) {
                  if (numberState === Phase.Zero) {
                    finished = true;
                    break;
                  }
                  if (numberState === Phase.Minus)
                    numberState = digit === 0 ? Phase.Zero : Phase.Int;
                  mantissa = mantissa * 10 + digit;
                  digits++;
                } else if (numberState <= Phase.Frac) {
                  numberState = Phase.Frac;
                  mantissa = mantissa * 10 + digit;
                  digits++;
                  scale--;
                } else {
                  numberState = Phase.ExpDigits;
                  if (exponent < 10000) exponent = exponent * 10 + digit;
                }
                index++;
              } else if (code === 46 && (numberState === Phase.Zero || numberState === Phase.Int)) {
                numberState = Phase.Dot;
                index++;
              } else if (
                (code === 101 || code === 69) &&
                (numberState === Phase.Zero ||
                  numberState === Phase.Int ||
                  numberState === Phase.Frac)
              ) {
                numberState = Phase.Exp;
                index++;
              } else if ((code === 43 || code === 45) && numberState === Phase.Exp) {
                numberState = Phase.ExpSign;
                if (code === 45) this.negativeExponent = true;
                index++;
              } else {
                finished = true;
                break;
              }
            }
            this.numberState = numberState;
            if (!finished) {
              this.mantissa = mantissa;
              this.digits = digits;
              this.scale = scale;
              this.exponent = exponent;
              continue;
            }
            if (
              numberState === Phase.Minus ||
              numberState === Phase.Dot ||
              numberState === Phase.Exp ||
              numberState === Phase.ExpSign
            ) {
              throw this.fail(chunk, index, ['digit']);
            }
            // Clinger's fast path (see `numberValue`), written out for the common short number.
            const power = scale + (this.negativeExponent ? -exponent : exponent);
            if (digits <= 15 && power >= -22 && power <= 22) {
              const magnitude =
                power === 0
                  ? mantissa
                  : power > 0
                    ? mantissa * (EXACT_POWERS_OF_TEN[power] as number)
                    : mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
              value = this.negative ? -magnitude : magnitude;
            } else {
              this.mantissa = mantissa;
              this.digits = digits;
              this.scale = scale;
              this.exponent = exponent;
              value = this.numberValue(chunk, segment, index);
            }
            // The delimiter is not consumed: the next state checks it.
            break complete;
          }
          case State.Literal: {
            const literal = this.literal;
            while (index < length && this.literalIndex < literal.length) {
              if (chunk.charCodeAt(index) !== literal.charCodeAt(this.literalIndex)) {
                throw this.fail(chunk, index, [literal.charAt(this.literalIndex)]);
              }
              index++;
              this.literalIndex++;
            }
            if (this.literalIndex < literal.length) continue;
            value = this.literalValue;
            break complete;
          }
          case State.Value:
          case State.ArrayFirst:
          case State.ObjectFirst:
          case State.Key:
          case State.Colon:
          case State.AfterValue:
          case State.Done: {
            // Structural states: skip whitespace, then one token.
            const code = chunk.charCodeAt(index);
            if (code === 32 || code === 10 || code === 13 || code === 9) {
              index++;
              continue;
            }
            switch (state) {
              case State.AfterValue: {
                const frame = top as Frame;
                if (code === 44) {
                  state = frame.isArray ? State.Value : State.Key;
                } else if (code === (frame.isArray ? 93 : 125)) {
                  // Close: the container was placed when it opened, so only its completion is logged.
                  const parent = frame.parent;
                  top = parent;
                  this.top = parent;
                  if (parent === null) {
                    log[logLength] = null;
                    log[logLength + 1] = '';
                    logLength += 2;
                    this.done = true;
                    state = State.Done;
                  } else {
                    log[logLength] = parent;
                    log[logLength + 1] = frame.slot;
                    logLength += 2;
                    if (parent.isArray) parent.index++;
                    state = State.AfterValue;
                  }
                } else {
                  throw this.fail(chunk, index, frame.isArray ? [',', ']'] : [',', '}']);
                }
                index++;
                continue;
              }
              case State.ObjectFirst:
              case State.Key: {
                if (code === 34) {
                  this.openKey();
                  segment = index + 1;
                  state = State.KeyString;
                } else if (code === 125 && state === State.ObjectFirst) {
                  // An empty object: State.AfterValue closes it (one place for the close).
                  state = State.AfterValue;
                  continue;
                } else {
                  throw this.fail(chunk, index, state === State.Key ? ['"'] : ['"', '}']);
                }
                index++;
                continue;
              }
              case State.Colon: {
                if (code !== 58) throw this.fail(chunk, index, [':']);
                state = State.Value;
                index++;
                continue;
              }
              case State.Done:
                throw this.fail(chunk, index, ['end of input']);
              case State.Value:
              case State.ArrayFirst: {
                index++;
                if (code === 34) {
                  this.openString();
                  segment = index;
                  state = State.String;
                } else if (code === 123 || code === 91) {
                  const isArray = code === 91;
                  const container: Container = isArray ? [] : {};
                  let slot: string | number = '';
                  if (top === null) {
                    this.root = container;
                  } else {
                    if (snapshots && top.owned !== epoch) this.own(top);
                    if (top.isArray) {
                      slot = top.index;
                      (top.container as unknown[])[slot] = container;
                    } else {
                      slot = top.key;
                      if (top.protoKey) defineOwn(top.container, slot, container);
                      else (top.container as Record<string, unknown>)[slot] = container;
                    }
                  }
                  top = {
                    isArray,
                    container,
                    parent: top,
                    slot,
                    owned: epoch,
                    key: '',
                    protoKey: false,
                    index: 0,
                    pointer: undefined,
                  };
                  this.top = top;
                  state = isArray ? State.ArrayFirst : State.ObjectFirst;
                } else if ((code >= 48 && code <= 57) || code === 45) {
                  const digit = code !== 45;
                  this.numberState = digit ? (code === 48 ? Phase.Zero : Phase.Int) : Phase.Minus;
                  this.negative = !digit;
                  this.numberText = '';
                  this.numberPiece = '';
                  this.mantissa = digit ? code - 48 : 0;
                  this.digits = digit ? 1 : 0;
                  this.scale = 0;
                  this.exponent = 0;
                  this.negativeExponent = false;
                  segment = index - 1;
                  state = State.Number;
                } else if (code === 116) {
                  this.startLiteral('true', true);
                  state = State.Literal;
                } else if (code === 102) {
                  this.startLiteral('false', false);
                  state = State.Literal;
                } else if (code === 110) {
                  this.startLiteral('null', null);
                  state = State.Literal;
                } else if (code === 93 && state === State.ArrayFirst) {
                  // An empty array: State.AfterValue closes it (one place for the close).
                  index--;
                  state = State.AfterValue;
                } else {
                  throw this.fail(
                    chunk,
                    index - 1,
                    state === State.ArrayFirst ? ['value', ']'] : ['value'],
                  );
                }
                continue;
              }
            }
          }
        }
      }

      // A value finished: place it in its slot and log its completion.
      if (top === null) {
        this.root = value;
        log[logLength] = null;
        log[logLength + 1] = '';
        logLength += 2;
        this.done = true;
        state = State.Done;
        continue;
      }
      if (snapshots && top.owned !== epoch) this.own(top);
      if (top.isArray) {
        const slot = top.index;
        (top.container as unknown[])[slot] = value;
        log[logLength] = top;
        log[logLength + 1] = slot;
        top.index = slot + 1;
      } else {
        const slot = top.key;
        if (top.protoKey) defineOwn(top.container, slot, value);
        else (top.container as Record<string, unknown>)[slot] = value;
        log[logLength] = top;
        log[logLength + 1] = slot;
      }
      logLength += 2;
      // Likewise the ',' after a member, and the next key's quote.
      if (index < length && chunk.charCodeAt(index) === 44) {
        index++;
        if (top.isArray) state = State.Value;
        else if (index < length && chunk.charCodeAt(index) === 34) {
          this.openKey();
          index++;
          segment = index;
          state = State.KeyString;
        } else state = State.Key;
      } else state = State.AfterValue;
    }

    this.logLength = logLength;
    this.tailStart = segment;
    return state;
  }

  end(): unknown {
    if (this.failure !== null) throw this.failure;
    if (!this.ended) {
      this.ended = true;
      // Described before `endNumber` finishes a number the end may have cut.
      if (!this.done && this.returnPartial)
        this.cutAt = describeCut(this.state, this.top, {
          literal: this.literal,
          inKey: this.inKey,
        });
      if (this.state === State.Number) this.endNumber();
      if (!this.done && this.returnPartial && !this.inKey && isInString(this.state)) {
        // The partial view withheld a lone high surrogate; the final partial value keeps every unit.
        this.place(this.text + this.held);
      }
    }
    if (this.done || this.returnPartial) return this.root;
    throw new IncompleteJsonError({
      position: this.offset,
      expected: expectedAtEnd(this.state, this.top),
    });
  }

  cut(): JsonCut | undefined {
    return this.cutAt;
  }

  private endNumber(): void {
    const state = this.numberState;
    if (
      state === Phase.Zero ||
      state === Phase.Int ||
      state === Phase.Frac ||
      state === Phase.ExpDigits
    )
      this.state = this.emit(this.numberValue('', 0, 0));
  }

  /**
   * The finished number, the double JSON.parse gives. With at most 15 digits and a decimal exponent
   * within ±22 the digits and the power of ten are both exact doubles, so one multiplication or
   * division rounds correctly (Clinger's fast path) and no text is needed; otherwise Number() of
   * the text, which for anything but an integer is a call into the runtime.
   */
  private numberValue(chunk: string, from: number, to: number): number {
    let text = this.numberText;
    if (this.numberPiece !== '') text += this.numberPiece.slice(this.numberPieceFrom);
    this.numberText = '';
    this.numberPiece = '';
    const power = this.scale + (this.negativeExponent ? -this.exponent : this.exponent);
    if (this.digits <= 15 && power >= -22 && power <= 22) {
      const magnitude =
        power === 0
          ? this.mantissa
          : power > 0
            ? this.mantissa * (EXACT_POWERS_OF_TEN[power] as number)
            : this.mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
      return this.negative ? -magnitude : magnitude;
    }
    return Number(text + chunk.slice(from, to));
  }

  /** Opens an object key; the caller sets `segment` to its first unit. */
  private openKey(): void {
    this.inKey = true;
    this.text = '';
    this.keyHash = 0;
    this.keyLength = 0;
    this.keyPlain = true;
  }

  /** Opens a string value; the caller sets `segment` to its first unit. */
  private openString(): void {
    this.inKey = false;
    this.text = '';
    this.textChanged = true;
  }

  private startLiteral(literal: string, value: boolean | null): void {
    this.literal = literal;
    this.literalValue = value;
    this.literalIndex = 1;
  }

  /** Appends `chunk[from, to)` to the open string. */
  private appendSegment(chunk: string, from: number, to: number): void {
    if (to === from) return;
    if (this.held !== '') {
      this.text += this.held;
      this.held = '';
    }
    this.text += from === 0 && to === chunk.length ? chunk : chunk.slice(from, to);
    this.textChanged = true;
  }

  /** Appends the rest of the chunk, holding back a trailing high surrogate whose pair is in the next chunk. */
  private appendTail(chunk: string, from: number): void {
    const length = chunk.length;
    if (from === length) return;
    const last = chunk.charCodeAt(length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.appendSegment(chunk, from, length - 1);
      this.hold(chunk[length - 1] as string);
    } else {
      this.appendSegment(chunk, from, length);
    }
  }

  /**
   * From the backslash at `index`: appends `chunk[from, index)`, then each escape that is whole in
   * this chunk and the text after it, up to the closing quote, a control character, an escape the
   * chunk cuts or an invalid one, or the chunk's end; returns where it stopped, everything before it
   * appended. It returns `index` itself when the first escape is cut or invalid: the Escape and
   * Unicode states then take it letter by letter (and report the error where it is).
   */
  private decodeEscapes(chunk: string, from: number, index: number): number {
    const length = chunk.length;
    this.appendSegment(chunk, from, index);
    for (;;) {
      if (index + 1 >= length) return index;
      const letter = chunk.charCodeAt(index + 1);
      const unit = letter < 128 ? (ESCAPED_UNITS[letter] as number) : -1;
      if (unit >= 0) {
        this.appendUnit(unit);
        index += 2;
      } else {
        if (unit === -1 || index + 5 >= length) return index;
        const hex = hexUnit(chunk, index + 2);
        if (hex === -1) return index;
        this.appendUnit(hex);
        index += 6;
      }
      let end = index;
      let code = 0;
      while (end < length) {
        code = chunk.charCodeAt(end);
        if (code === 34 || code === 92 || code < 32) break;
        end++;
      }
      this.appendSegment(chunk, index, end);
      index = end;
      if (end === length || code !== 92) return index;
    }
  }

  private appendUnit(unit: number): void {
    const character = String.fromCharCode(unit);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.hold(character);
      return;
    }
    if (this.held !== '') {
      this.text += this.held;
      this.held = '';
    }
    this.text += character;
    this.textChanged = true;
  }

  private hold(character: string): void {
    if (this.held !== '') {
      this.text += this.held;
      this.textChanged = true;
    }
    this.held = character;
  }

  /** Carries the open key's part of this chunk over to the next one (see `keyPiece`). */
  private carryKey(chunk: string, from: number): void {
    const length = chunk.length;
    if (from === length) return;
    this.keyLength += length - from;
    if (this.keyPiece !== '') this.flushKeyPiece();
    this.keyPiece = chunk;
    this.keyPieceFrom = from;
  }

  private flushKeyPiece(): void {
    const piece = this.keyPiece;
    this.keyPiece = '';
    this.appendSegment(piece, this.keyPieceFrom, piece.length);
  }

  /**
   * The finished key that began in the previous chunk (`keyPiece`) and ends at `chunk[from, to)`,
   * without escapes: the cached string when its units match both pieces, else their concatenation.
   */
  private takeCutKey(chunk: string, from: number, to: number): string {
    const piece = this.keyPiece;
    const pieceFrom = this.keyPieceFrom;
    this.keyPiece = '';
    const length = this.keyLength;
    const pieceLength = piece.length - pieceFrom;
    if (length > KEY_CACHE_MAX_LENGTH) return joinCutKey(piece, pieceFrom, chunk.slice(from, to));
    const slot = keySlot(this.keyHash, length);
    if (KEY_LENGTHS[slot] === length) {
      const cached = KEY_STRINGS[slot] as string;
      let same = true;
      for (let unit = 0; same && unit < pieceLength; unit++)
        same = cached.charCodeAt(unit) === piece.charCodeAt(pieceFrom + unit);
      for (let unit = 0; same && unit < to - from; unit++)
        same = cached.charCodeAt(pieceLength + unit) === chunk.charCodeAt(from + unit);
      if (same) return cached;
    }
    const key = joinCutKey(piece, pieceFrom, chunk.slice(from, to));
    rememberKey(slot, key, length);
    return key;
  }

  /** The finished key `chunk[from, to)`, without escapes and all in this chunk (see the key cache). */
  private keyFromChunk(chunk: string, from: number, to: number): string {
    const length = to - from;
    if (length > KEY_CACHE_MAX_LENGTH) return chunk.slice(from, to);
    const slot = keySlot(this.keyHash, length);
    if (KEY_LENGTHS[slot] === length) {
      const cached = KEY_STRINGS[slot] as string;
      if (chunk.startsWith(cached, from)) return cached;
    }
    const key = chunk.slice(from, to);
    rememberKey(slot, key, length);
    return key;
  }

  /**
   * The finished key that began in an earlier chunk or has escapes: the cached string when it is a
   * known one (compared whole, as it is a new string anyway).
   */
  private takeKey(chunk: string, from: number, to: number): string {
    if (this.keyPiece !== '') this.flushKeyPiece();
    const key = this.takeString(chunk, from, to);
    const length = this.keyLength;
    if (!this.keyPlain || length > KEY_CACHE_MAX_LENGTH) return key;
    const slot = keySlot(this.keyHash, length);
    const cached = KEY_STRINGS[slot] as string;
    if (KEY_LENGTHS[slot] === length && cached === key) return cached;
    rememberKey(slot, key, length);
    return key;
  }

  private takeString(chunk: string, from: number, to: number): string {
    if (this.text === '' && this.held === '') return chunk.slice(from, to);
    this.appendSegment(chunk, from, to);
    const value = this.text + this.held;
    this.text = '';
    this.held = '';
    return value;
  }

  /** Writes a value into the current slot (root, object key or array index) without completing it. */
  private place(value: unknown): void {
    const frame = this.top;
    if (frame === null) {
      this.root = value;
      return;
    }
    if (this.snapshots && frame.owned !== this.epoch) this.own(frame);
    if (frame.isArray) (frame.container as unknown[])[frame.index] = value;
    else if (frame.protoKey) defineOwn(frame.container, frame.key, value);
    else (frame.container as Record<string, unknown>)[frame.key] = value;
  }

  /**
   * Places a value finished outside `scan` (a number that only `end()` can finish) and records its
   * path; returns the state that follows a value.
   */
  private emit(value: unknown): State {
    const frame = this.top;
    const at = this.logLength;
    this.logLength = at + 2;
    if (frame === null) {
      this.root = value;
      this.log[at] = null;
      this.log[at + 1] = '';
      this.done = true;
      return State.Done;
    }
    this.place(value);
    this.log[at] = frame;
    this.log[at + 1] = frame.isArray ? frame.index++ : frame.key;
    return State.AfterValue;
  }

  /**
   * Path copying: replaces a shared container, and each shared ancestor up to the first one this
   * push already copied, by a shallow copy. Iterative, so deep documents cannot overflow the stack.
   */
  private own(frame: Frame): void {
    const path: Frame[] = [];
    for (
      let current: Frame | null = frame;
      current !== null && current.owned !== this.epoch;
      current = current.parent
    )
      path.push(current);
    for (let index = path.length - 1; index >= 0; index--) {
      const current = path[index] as Frame;
      const copy: Container = current.isArray
        ? (current.container as unknown[]).slice()
        : { ...current.container };
      current.container = copy;
      current.owned = this.epoch;
      const parent = current.parent;
      if (parent === null) this.root = copy;
      else if (parent.isArray) (parent.container as unknown[])[current.slot as number] = copy;
      else defineOwn(parent.container, current.slot as string, copy);
    }
  }

  private fail(chunk: string, index: number, expected: readonly string[]): InvalidJsonError {
    const error = new InvalidJsonError({
      position: this.offset + index,
      found: chunk.charAt(index),
      expected,
    });
    this.failure = error;
    return error;
  }
}

/** `__proto__` as an own data property, as JSON.parse makes it (an assignment would set the prototype). */
function defineOwn(container: Container, key: string, value: unknown): void {
  setOwnProperty(container as Record<string, unknown>, key, value);
}

function isInString(state: State): boolean {
  return (
    state === State.String ||
    state === State.Escape ||
    state === State.Unicode ||
    state === State.KeyString
  );
}

// Key cache. A key sliced from a chunk is a new string, and every property store with a new string
// key first looks it up in V8's string table (hashing and comparing it); that was the largest single
// cost of building the value. Keys repeat (schema keys, across documents too), so the parser hashes a
// key while scanning it and, when the slot holds the same characters, uses the string it stored
// there, which V8 has already internalized: no slice, no lookup. Direct-mapped and shared by all
// parsers; a collision only costs the slice the cache would have saved. Keys with escapes or longer
// than KEY_CACHE_MAX_LENGTH are not cached. The check is one `startsWith` on the chunk: a compare in
// a builtin, with no string method called on the cached strings, whose representations vary.
const KEY_CACHE_BITS = 9;
const KEY_CACHE_MAX_LENGTH = 32;
const KEY_STRINGS: string[] = new Array<string>(1 << KEY_CACHE_BITS).fill('');
const KEY_LENGTHS = new Int32Array(1 << KEY_CACHE_BITS).fill(-1);

/**
 * The key `piece[pieceFrom..] + rest`, never the caller's chunk itself. A key is
 * internalized when it is stored, which turns the string into an internalized or thin one in
 * place: had it been a whole chunk (a key that filled one chunk and closed at the next one's first
 * character), the caller's chunk would change representation under it, and a stream whose chunks
 * come in more representations than the parser's property loads keep apart (four) makes every
 * `chunk.length` and `charCodeAt` in the parser a generic lookup from then on (measured: up to 1.5x
 * slower over the whole process).
 */
function joinCutKey(piece: string, pieceFrom: number, rest: string): string {
  if (rest !== '') return piece.slice(pieceFrom) + rest;
  if (pieceFrom > 0) return piece.slice(pieceFrom);
  // slice(0) and `+ ''` return the same string: build a new one.
  return piece.length === 1
    ? String.fromCharCode(piece.charCodeAt(0))
    : piece.charAt(0) + piece.slice(1);
}

function keySlot(hash: number, length: number): number {
  return Math.imul(hash ^ length, 0x9e3779b1) >>> (32 - KEY_CACHE_BITS);
}

function rememberKey(slot: number, key: string, length: number): void {
  KEY_LENGTHS[slot] = length;
  KEY_STRINGS[slot] = key;
}

/** The code unit an escape letter stands for; -2 for `u`, -1 for an invalid escape (ASCII codes). */
const ESCAPED_UNITS = new Int8Array(128).fill(-1);
for (const [letter, unit] of [
  ['"', 34],
  ['\\', 92],
  ['/', 47],
  ['b', 8],
  ['f', 12],
  ['n', 10],
  ['r', 13],
  ['t', 9],
  ['u', -2],
] as const)
  ESCAPED_UNITS[letter.charCodeAt(0)] = unit;

/** The value of a hex digit, -1 for any other ASCII code. */
const HEX_VALUES = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUES[digit.toString(16).charCodeAt(0)] = digit;
  HEX_VALUES[digit.toString(16).toUpperCase().charCodeAt(0)] = digit;
}

function expectedAtEnd(state: State, top: Frame | null): readonly string[] {
  switch (state) {
    case State.String:
    case State.KeyString:
    case State.Escape:
    case State.Unicode:
      return ['"'];
    case State.Number:
      return ['digit'];
    case State.Literal:
      return ['literal'];
    case State.Colon:
      return [':'];
    case State.Key:
      return ['"'];
    case State.ObjectFirst:
      return ['"', '}'];
    case State.ArrayFirst:
      return ['value', ']'];
    case State.AfterValue:
      return top?.isArray === true ? [',', ']'] : [',', '}'];
    case State.Value:
    case State.Done:
      return ['value'];
  }
}

function describeCut(
  state: State,
  top: Frame | null,
  token: { literal: string; inKey: boolean },
): JsonCut {
  // Linear in the depth: a cut document may be nested as deep as its length.
  const open: OpenJsonContainer[] = [];
  for (let frame = top; frame !== null; frame = frame.parent) {
    open.push({
      kind: frame.isArray ? 'array' : 'object',
      slot: frame.parent === null ? undefined : frame.slot,
      complete: frame.isArray ? frame.index : 0,
    });
  }
  open.reverse();
  const slot: JsonSlot | undefined = top === null ? undefined : top.isArray ? top.index : top.key;
  const { literal, inKey } = token;
  switch (state) {
    case State.Value:
      return { open, at: slot === undefined ? { kind: 'nothing' } : { kind: 'value_start', slot } };
    case State.ArrayFirst:
      return { open, at: { kind: 'value_start', slot: 0 } };
    case State.Colon:
      return { open, at: { kind: 'member_name', key: top?.key ?? '' } };
    case State.ObjectFirst:
    case State.Key:
    case State.KeyString:
      return { open, at: { kind: 'member_name' } };
    case State.String:
    case State.Escape:
    case State.Unicode:
      return { open, at: inKey ? { kind: 'member_name' } : { kind: 'string', slot } };
    case State.Number:
      return { open, at: { kind: 'number', slot } };
    case State.Literal:
      return {
        open,
        at: { kind: 'literal', slot, literal: literal as 'true' | 'false' | 'null' },
      };
    case State.AfterValue:
    case State.Done:
      return { open, at: { kind: 'between' } };
  }
}

function pointerOf(frame: Frame): string {
  if (frame.pointer !== undefined) return frame.pointer;
  // Iterative: walk up to the nearest frame whose pointer is known, then fill the pointers back down.
  const path: Frame[] = [];
  let current: Frame | null = frame;
  while (current !== null && current.pointer === undefined) {
    path.push(current);
    current = current.parent;
  }
  let pointer = current === null ? '' : (current.pointer as string);
  for (let index = path.length - 1; index >= 0; index--) {
    const node = path[index] as Frame;
    pointer = node.parent === null ? '' : `${pointer}/${escapePointerSegment(node.slot)}`;
    node.pointer = pointer;
  }
  return pointer;
}

function escapePointerSegment(slot: string | number): string {
  if (typeof slot === 'number') return String(slot);
  if (slot.indexOf('~') === -1 && slot.indexOf('/') === -1) return slot;
  return slot.replaceAll('~', '~0').replaceAll('/', '~1');
}

function materializePaths(log: CompletionLog, from: number, to: number): readonly string[] {
  const paths: string[] = [];
  for (let index = from; index < to; index += 2) {
    const frame = log[index] as Frame | null;
    const slot = log[index + 1] as string | number;
    paths.push(frame === null ? '' : `${pointerOf(frame)}/${escapePointerSegment(slot)}`);
  }
  return paths;
}

/** The code unit that four hex digits at `chunk[at, at + 4)` spell, or -1 if one is not a hex digit. */
function hexUnit(chunk: string, at: number): number {
  let unit = 0;
  for (let index = at; index < at + 4; index++) {
    const code = chunk.charCodeAt(index);
    const digit = code < 128 ? (HEX_VALUES[code] as number) : -1;
    if (digit === -1) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** Powers of ten that a double holds exactly (10^0 .. 10^22). */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);
