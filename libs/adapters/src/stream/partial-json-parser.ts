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
}

/** Creates an incremental parser that yields a partial value after every chunk (see `PartialJson`). */
export function createPartialJsonParser(options: PartialJsonParserOptions = {}): PartialJsonParser {
  return new IncrementalJsonParser(options);
}

type Container = Record<string, unknown> | unknown[];
type CompletionLog = (Frame | string | number | null)[];

// Parser states. Numeric constants keep the dispatch a jump table.
const S_VALUE = 0; // a value must start (top level, after ':' or after ',' in an array)
const S_ARRAY_FIRST = 1; // after '[': a value or ']'
const S_OBJECT_FIRST = 2; // after '{': a key or '}'
const S_KEY = 3; // after ',' in an object: a key
const S_COLON = 4; // after a key
const S_AFTER_VALUE = 5; // after a member: ',' or the closing bracket
const S_DONE = 6; // the top-level value is complete
const S_STRING = 7;
const S_ESCAPE = 8;
const S_UNICODE = 9;
const S_NUMBER = 10;
const S_LITERAL = 11;

// Number sub-states, after the JSON number grammar (RFC 8259 section 6).
const N_MINUS = 0;
const N_ZERO = 1;
const N_INT = 2;
const N_DOT = 3;
const N_FRAC = 4;
const N_EXP = 5;
const N_EXP_SIGN = 6;
const N_EXP_DIGITS = 7;

const NO_PATHS: readonly string[] = Object.freeze([]);

/** One open container: the stack is the chain of `parent` links. */
class Frame {
  /** The key of the member being parsed (objects). */
  key = '';
  /** The index of the element being parsed (arrays). */
  index = 0;
  /** JSON Pointer of this container, computed on first need. */
  pointer: string | undefined = undefined;

  /** The slot of this container in its parent (key or index); unused at the root. */
  slot: string | number = '';
  /** The snapshot epoch in which `container` was created or copied; older ones are shared and frozen by contract. */
  owned = 0;

  constructor(
    readonly isArray: boolean,
    public container: Container,
    readonly parent: Frame | null,
  ) {}
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

  private state = S_VALUE;
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
  /** Length of the open string's prefix last written into the value; -1 before the first write. */
  private placedLength = -1;
  private hexCount = 0;
  private hexValue = 0;
  private numberText = '';
  private numberState = N_MINUS;
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

  constructor(options: PartialJsonParserOptions) {
    this.snapshots = options.snapshots ?? false;
    this.partialStrings = options.partialStrings ?? true;
    this.returnPartial = options.incomplete === 'partial';
    this.live = new PartialJsonResult(undefined, false, this.log);
  }

  push(chunk: string): PartialJson {
    if (this.failure !== null) throw this.failure;
    if (this.ended)
      throw new InvalidJsonError({
        position: this.offset,
        found: chunk.slice(0, 1),
        expected: ['end of input'],
      });
    if (!this.snapshots) this.logLength = 0;
    const logStart = this.logLength;
    const state = this.scan(chunk);
    // Carry the unfinished token over to the next chunk.
    if (state === S_STRING) this.appendTail(chunk, this.tailStart);
    else if (state === S_NUMBER) this.numberText += chunk.slice(this.tailStart);
    this.state = state;
    this.offset += chunk.length;
    if (
      this.partialStrings &&
      !this.inKey &&
      isInString(state) &&
      this.text.length !== this.placedLength
    ) {
      this.placedLength = this.text.length;
      this.place(this.text);
    }
    if (!this.snapshots) {
      const live = this.live;
      live.value = this.root;
      live.done = this.done;
      live.to = this.logLength;
      live.paths = undefined;
      return live;
    }
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
   */
  private scan(chunk: string): number {
    const length = chunk.length;
    let state = this.state;
    let index = 0;
    // Start of the not yet accumulated part of the current string or number in this chunk.
    let segment = 0;

    while (index < length) {
      switch (state) {
        case S_STRING: {
          let code = 0;
          while (index < length) {
            code = chunk.charCodeAt(index);
            if (code === 34 || code === 92 || code < 32) break;
            index++;
          }
          if (index === length) break;
          if (code === 34) {
            const value = this.takeString(chunk, segment, index);
            index++;
            if (this.inKey) {
              (this.top as Frame).key = value;
              state = S_COLON;
            } else {
              state = this.emit(value);
            }
          } else if (code === 92) {
            this.appendSegment(chunk, segment, index);
            index++;
            state = S_ESCAPE;
          } else {
            throw this.fail(chunk, index, ['string character', '"']);
          }
          break;
        }
        case S_ESCAPE: {
          const unit = escapedUnit(chunk.charCodeAt(index));
          if (unit === -1) throw this.fail(chunk, index, ['escape character']);
          index++;
          if (unit === -2) {
            this.hexCount = 0;
            this.hexValue = 0;
            state = S_UNICODE;
          } else {
            this.appendUnit(unit);
            segment = index;
            state = S_STRING;
          }
          break;
        }
        case S_UNICODE: {
          const digit = hexDigit(chunk.charCodeAt(index));
          if (digit === -1) throw this.fail(chunk, index, ['hex digit']);
          index++;
          this.hexValue = this.hexValue * 16 + digit;
          if (++this.hexCount === 4) {
            this.appendUnit(this.hexValue);
            segment = index;
            state = S_STRING;
          }
          break;
        }
        case S_NUMBER: {
          let numberState = this.numberState;
          let finished = false;
          let mantissa = this.mantissa;
          let digits = this.digits;
          let scale = this.scale;
          let exponent = this.exponent;
          while (index < length) {
            const code = chunk.charCodeAt(index);
            const isDigit = code >= 48 && code <= 57;
            if (isDigit) {
              if (numberState === N_ZERO) {
                finished = true;
                break;
              }
              if (numberState === N_MINUS) numberState = code === 48 ? N_ZERO : N_INT;
              else if (numberState === N_DOT) numberState = N_FRAC;
              else if (numberState === N_EXP || numberState === N_EXP_SIGN)
                numberState = N_EXP_DIGITS;
              if (numberState === N_EXP_DIGITS) {
                if (exponent < 10000) exponent = exponent * 10 + (code - 48);
              } else {
                mantissa = mantissa * 10 + (code - 48);
                digits++;
                if (numberState === N_FRAC) scale--;
              }
              index++;
            } else if (code === 46 && (numberState === N_ZERO || numberState === N_INT)) {
              numberState = N_DOT;
              index++;
            } else if (
              (code === 101 || code === 69) &&
              (numberState === N_ZERO || numberState === N_INT || numberState === N_FRAC)
            ) {
              numberState = N_EXP;
              index++;
            } else if ((code === 43 || code === 45) && numberState === N_EXP) {
              numberState = N_EXP_SIGN;
              if (code === 45) this.negativeExponent = true;
              index++;
            } else {
              finished = true;
              break;
            }
          }
          this.numberState = numberState;
          this.mantissa = mantissa;
          this.digits = digits;
          this.scale = scale;
          this.exponent = exponent;
          if (!finished) break;
          if (
            numberState === N_MINUS ||
            numberState === N_DOT ||
            numberState === N_EXP ||
            numberState === N_EXP_SIGN
          ) {
            throw this.fail(chunk, index, ['digit']);
          }
          // The delimiter is not consumed: the next state checks it.
          state = this.emit(this.numberValue(chunk, segment, index));
          break;
        }
        case S_LITERAL: {
          const literal = this.literal;
          while (index < length && this.literalIndex < literal.length) {
            if (chunk.charCodeAt(index) !== literal.charCodeAt(this.literalIndex)) {
              throw this.fail(chunk, index, [literal.charAt(this.literalIndex)]);
            }
            index++;
            this.literalIndex++;
          }
          if (this.literalIndex === literal.length) state = this.emit(this.literalValue);
          break;
        }
        default: {
          // Structural states: skip whitespace, then one token.
          const code = chunk.charCodeAt(index);
          if (code === 32 || code === 10 || code === 13 || code === 9) {
            index++;
            break;
          }
          switch (state) {
            case S_AFTER_VALUE: {
              const frame = this.top as Frame;
              if (code === 44) {
                state = frame.isArray ? S_VALUE : S_KEY;
              } else if (code === (frame.isArray ? 93 : 125)) {
                state = this.close();
              } else {
                throw this.fail(chunk, index, frame.isArray ? [',', ']'] : [',', '}']);
              }
              index++;
              break;
            }
            case S_OBJECT_FIRST:
            case S_KEY: {
              if (code === 34) {
                this.inKey = true;
                this.text = '';
                segment = index + 1;
                state = S_STRING;
              } else if (code === 125 && state === S_OBJECT_FIRST) {
                state = this.close();
              } else {
                throw this.fail(chunk, index, state === S_KEY ? ['"'] : ['"', '}']);
              }
              index++;
              break;
            }
            case S_COLON: {
              if (code !== 58) throw this.fail(chunk, index, [':']);
              state = S_VALUE;
              index++;
              break;
            }
            case S_DONE:
              throw this.fail(chunk, index, ['end of input']);
            default: {
              // S_VALUE or S_ARRAY_FIRST
              if (code === 34) {
                this.inKey = false;
                this.text = '';
                this.placedLength = -1;
                segment = index + 1;
                state = S_STRING;
              } else if (code === 123) {
                this.open(false);
                state = S_OBJECT_FIRST;
              } else if (code === 91) {
                this.open(true);
                state = S_ARRAY_FIRST;
              } else if ((code >= 48 && code <= 57) || code === 45) {
                this.startNumber(code);
                segment = index;
                state = S_NUMBER;
              } else if (code === 116) {
                this.startLiteral('true', true);
                state = S_LITERAL;
              } else if (code === 102) {
                this.startLiteral('false', false);
                state = S_LITERAL;
              } else if (code === 110) {
                this.startLiteral('null', null);
                state = S_LITERAL;
              } else if (code === 93 && state === S_ARRAY_FIRST) {
                state = this.close();
              } else {
                throw this.fail(chunk, index, state === S_ARRAY_FIRST ? ['value', ']'] : ['value']);
              }
              index++;
              break;
            }
          }
        }
      }
    }

    this.tailStart = segment;
    return state;
  }

  end(): unknown {
    if (this.failure !== null) throw this.failure;
    if (!this.ended) {
      this.ended = true;
      if (this.state === S_NUMBER) this.endNumber();
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

  private endNumber(): void {
    const state = this.numberState;
    if (state === N_ZERO || state === N_INT || state === N_FRAC || state === N_EXP_DIGITS)
      this.state = this.emit(this.numberValue('', 0, 0));
  }

  /**
   * The finished number, the double JSON.parse gives. With at most 15 digits and a decimal exponent
   * within ±22 the digits and the power of ten are both exact doubles, so one multiplication or
   * division rounds correctly (Clinger's fast path) and no text is needed; otherwise Number() of
   * the text, which for anything but an integer is a call into the runtime.
   */
  private numberValue(chunk: string, from: number, to: number): number {
    const text = this.numberText;
    this.numberText = '';
    const power = this.scale + (this.negativeExponent ? -this.exponent : this.exponent);
    if (this.digits <= 15 && power >= -22 && power <= 22) {
      const magnitude =
        power === 0
          ? this.mantissa
          : power > 0
            ? this.mantissa * (EXACT_POWERS_OF_TEN[power] as number)
            : this.mantissa / (EXACT_POWERS_OF_TEN[-power] as number);
      const negative = (text === '' ? chunk.charCodeAt(from) : text.charCodeAt(0)) === 45;
      return negative ? -magnitude : magnitude;
    }
    return Number(text + chunk.slice(from, to));
  }

  /** A number starts with `code`, a digit or '-'. */
  private startNumber(code: number): void {
    const digit = code !== 45;
    this.numberState = digit ? (code === 48 ? N_ZERO : N_INT) : N_MINUS;
    this.numberText = '';
    this.mantissa = digit ? code - 48 : 0;
    this.digits = digit ? 1 : 0;
    this.scale = 0;
    this.exponent = 0;
    this.negativeExponent = false;
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
    this.text += chunk.slice(from, to);
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
  }

  private hold(character: string): void {
    if (this.held !== '') this.text += this.held;
    this.held = character;
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
    else setOwnProperty(frame.container as Record<string, unknown>, frame.key, value);
  }

  /** Places a finished value and records its path; returns the state that follows a value. */
  private emit(value: unknown): number {
    const frame = this.top;
    if (frame === null) {
      this.root = value;
      this.record(null, '');
      this.done = true;
      return S_DONE;
    }
    if (this.snapshots && frame.owned !== this.epoch) this.own(frame);
    // The hot path of every member: the same work as `place` plus the record, written out once.
    if (frame.isArray) {
      (frame.container as unknown[])[frame.index] = value;
      this.record(frame, frame.index);
      frame.index++;
    } else {
      setOwnProperty(frame.container as Record<string, unknown>, frame.key, value);
      this.record(frame, frame.key);
    }
    return S_AFTER_VALUE;
  }

  /** Notes that the value at `slot` of `frame` (the root when null) is complete. */
  private record(frame: Frame | null, slot: string | number): void {
    const at = this.logLength;
    this.log[at] = frame;
    this.log[at + 1] = slot;
    this.logLength = at + 2;
  }

  private open(isArray: boolean): void {
    const container: Container = isArray ? [] : {};
    this.place(container);
    const parent = this.top;
    const slot = parent === null ? '' : parent.isArray ? parent.index : parent.key;
    const frame = new Frame(isArray, container, parent);
    frame.slot = slot;
    frame.owned = this.epoch;
    this.top = frame;
  }

  private close(): number {
    const frame = this.top as Frame;
    const parent = frame.parent;
    this.top = parent;
    if (parent === null) {
      this.record(null, '');
      this.done = true;
      return S_DONE;
    }
    this.record(parent, frame.slot);
    if (parent.isArray) parent.index++;
    return S_AFTER_VALUE;
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
      else
        setOwnProperty(parent.container as Record<string, unknown>, current.slot as string, copy);
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

/** The code unit an escape stands for; -2 for `\u`, -1 for an invalid escape. */
function escapedUnit(code: number): number {
  switch (code) {
    case 34:
    case 92:
    case 47:
      return code;
    case 98:
      return 8;
    case 102:
      return 12;
    case 110:
      return 10;
    case 114:
      return 13;
    case 116:
      return 9;
    case 117:
      return -2;
    default:
      return -1;
  }
}

function isInString(state: number): boolean {
  return state === S_STRING || state === S_ESCAPE || state === S_UNICODE;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

function expectedAtEnd(state: number, top: Frame | null): readonly string[] {
  switch (state) {
    case S_STRING:
    case S_ESCAPE:
    case S_UNICODE:
      return ['"'];
    case S_NUMBER:
      return ['digit'];
    case S_LITERAL:
      return ['literal'];
    case S_COLON:
      return [':'];
    case S_KEY:
      return ['"'];
    case S_OBJECT_FIRST:
      return ['"', '}'];
    case S_ARRAY_FIRST:
      return ['value', ']'];
    case S_AFTER_VALUE:
      return top?.isArray === true ? [',', ']'] : [',', '}'];
    default:
      return ['value'];
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

/** Powers of ten that a double holds exactly (10^0 .. 10^22). */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);
