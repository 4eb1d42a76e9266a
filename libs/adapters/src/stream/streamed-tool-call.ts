import {
  describeArgumentErrors,
  TEXT_INPUT_PROPERTY,
  ToolgateError,
  validateArguments,
  type ToolCallIR,
  type ToolIR,
  isRecord,
} from '@toolgate/toolir';
import { buildToolNameMap, fromWireName, type ToolNameMap } from '../shared/names/tool-name-map';
import { argumentsFromWire } from '../shared/names/property-names';
import { undoStrictNulls } from '../shared/read-arguments';
import type { Provider } from '../shared/provider';
import { IncompleteJsonError } from './partial-json-errors';
import { createPartialJsonParser, type PartialJsonParser } from './partial-json-parser';

import type { ToolCallStreamError, ToolCallStreamEvent } from './tool-call-stream-event';

/** Options of every provider stream parser. */
export interface ToolCallStreamOptions {
  /**
   * The tools offered to the model: names are mapped back from the wire, and every `tool_call_end`
   * carries the validation result (`unknown_tool`, `invalid_arguments`) against the tool's schema.
   */
  tools?: readonly ToolIR[];
  /** Give every `tool_call_delta` a new `partial` value sharing untouched subtrees (see `PartialJsonParserOptions.snapshots`). */
  snapshots?: boolean;
}

/** How a call ended: on the provider's end signal, or cut off because the stream closed without one. */
export type CallEnding = 'signalled' | 'cut';

/** What the parsers of one stream share: the tool list, name mapping, and the call counter. */
export class StreamContext {
  private readonly names: ToolNameMap | undefined;
  private readonly tools: Map<string, ToolIR> | undefined;
  private readonly snapshots: boolean;
  private nextIndex = 0;

  constructor(
    readonly provider: Provider,
    options: ToolCallStreamOptions,
  ) {
    this.snapshots = options.snapshots ?? false;
    if (options.tools !== undefined) {
      this.names = buildToolNameMap(options.tools, provider);
      this.tools = new Map(options.tools.map((tool) => [tool.name, tool]));
    }
  }

  /**
   * Starts a call: emits `tool_call_start` and returns the call to feed. `text` marks a free-text
   * call (an OpenAI custom tool), whose fragments are its input rather than JSON.
   */
  startCall(
    identity: { id: string; wireName: string; text?: boolean },
    events: ToolCallStreamEvent[],
  ): StreamedToolCall {
    const name = fromWireName(identity.wireName, this.names);
    const index = this.nextIndex++;
    events.push({ type: 'tool_call_start', id: identity.id, name, index });
    return new StreamedToolCall(this, { id: identity.id, name, text: identity.text === true });
  }

  /** A parser for one call's arguments. */
  newParser(): PartialJsonParser {
    return createPartialJsonParser({ snapshots: this.snapshots });
  }

  /** `unknown_tool` when the tools are known and none has this name. */
  unknownTool(name: string): ToolCallStreamError | undefined {
    if (this.tools === undefined || this.tools.has(name)) return undefined;
    const available = [...this.tools.keys()];
    return {
      code: 'unknown_tool',
      message: `There is no tool named "${name}". Available tools: ${available.join(', ') || '(none)'}.`,
      retryable: false,
      details: { name, available },
    };
  }

  /**
   * The arguments as the tool expects them: OpenAI strict mode sends `null` for optional properties
   * the model left out, which are dropped here exactly as the non-streaming OpenAI parsers do.
   */
  finalArguments(name: string, args: Record<string, unknown>): Record<string, unknown> {
    const tool = this.tools?.get(name);
    if (this.provider === 'anthropic' || this.provider === 'gemini')
      return argumentsFromWire(args, tool, this.provider);
    if (this.provider !== 'openai-chat' && this.provider !== 'openai-responses') return args;
    return undoStrictNulls(args, tool);
  }

  /** Schema errors of finished arguments, when the tools are known. */
  validate(name: string, args: Record<string, unknown>): ToolCallStreamError | undefined {
    const tool = this.tools?.get(name);
    return tool === undefined ? undefined : validateToolArguments(tool, args);
  }
}

/** One tool call being streamed: its raw argument text, partial value and end. */
export class StreamedToolCall {
  readonly id: string;
  readonly name: string;
  /** A free-text call: the fragments are its input, shown as `{input: text so far}`. */
  private readonly isText: boolean;
  private parser: PartialJsonParser;
  private raw = '';
  private jsonError: ToolgateError | null = null;
  private ended = false;

  constructor(
    private readonly context: StreamContext,
    fields: { id: string; name: string; text: boolean },
  ) {
    this.id = fields.id;
    this.name = fields.name;
    this.isText = fields.text;
    this.parser = context.newParser();
  }

  /** The call received its end signal or was cut off. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** The argument text received so far. */
  get text(): string {
    return this.raw;
  }

  /** Appends an argument fragment; emits a `tool_call_delta` unless the text is already invalid. */
  append(fragment: string, events: ToolCallStreamEvent[]): void {
    if (fragment === '' || this.ended) return;
    this.raw += fragment;
    if (this.isText) {
      // Free text is never complete before its end: no path completes on the way.
      events.push({
        type: 'tool_call_delta',
        id: this.id,
        partial: { [TEXT_INPUT_PROPERTY]: this.raw },
        completePaths: [],
      });
      return;
    }
    if (this.jsonError !== null) return;
    try {
      const partial = this.parser.push(fragment);
      events.push({
        type: 'tool_call_delta',
        id: this.id,
        partial: partial.value,
        completePaths: partial.completePaths,
      });
    } catch (error) {
      // Keep the text: the end event reports where it went wrong, the model gets to fix it.
      this.jsonError =
        error instanceof ToolgateError ? error : new ToolgateError('invalid_json', String(error));
    }
  }

  /** Ends the call from its streamed text; `finalText` is the provider's own full text when it sends one at the end. */
  end(
    events: ToolCallStreamEvent[],
    ending: { how: CallEnding; finalText?: string | undefined },
  ): void {
    if (this.ended) return;
    if (ending.finalText !== undefined && ending.finalText !== this.raw) {
      // The provider's final text is authoritative; deltas can be lost or repeated by proxies.
      this.replaceText(ending.finalText, events);
    }
    this.ended = true;
    const outcome = this.readArguments(ending.how);
    this.emitEnd(outcome, events);
  }

  /** Ends the call with arguments that arrived whole (Gemini parts, Anthropic `input` without deltas). */
  endWith(args: unknown, events: ToolCallStreamEvent[]): void {
    if (this.ended) return;
    this.ended = true;
    this.emitEnd(isRecord(args) ? { args } : notAnObject(), events);
  }

  private replaceText(text: string, events: ToolCallStreamEvent[]): void {
    this.raw = '';
    this.jsonError = null;
    this.parser = this.context.newParser();
    this.append(text, events);
  }

  private readArguments(how: CallEnding): ArgumentsOutcome {
    if (this.isText && how === 'signalled') return { args: { [TEXT_INPUT_PROPERTY]: this.raw } };
    if (this.jsonError !== null) {
      return {
        args: {},
        error: {
          code: 'invalid_arguments',
          message: `The arguments are not valid JSON: ${this.jsonError.message}.`,
          retryable: false,
          details: this.jsonError.details,
        },
      };
    }
    if (how === 'cut') {
      return {
        args: {},
        error: {
          code: 'incomplete_arguments',
          message: 'The stream ended before the tool call was complete; send the whole call again.',
          retryable: false,
          details: { received: this.raw.length },
        },
      };
    }
    // OpenAI sends "" and Anthropic streams "" for a call without arguments: that is `{}`.
    if (this.raw.trim() === '') return { args: {} };
    let value: unknown;
    try {
      value = this.parser.end();
    } catch (error) {
      if (error instanceof IncompleteJsonError) {
        return {
          args: {},
          error: {
            code: 'incomplete_arguments',
            message: `The arguments were cut off: ${error.message}.`,
            retryable: false,
            details: error.details,
          },
        };
      }
      throw error;
    }
    return isRecord(value) ? { args: value } : notAnObject();
  }

  private emitEnd(outcome: ArgumentsOutcome, events: ToolCallStreamEvent[]): void {
    const args = this.isText ? outcome.args : this.context.finalArguments(this.name, outcome.args);
    const call: ToolCallIR = { id: this.id, name: this.name, arguments: args };
    if (this.raw !== '') call.raw_arguments = this.raw;
    if (this.isText) call.input_format = 'text';
    // Says so to the gateway, which completes the call for a tool version that opts in.
    if (outcome.error?.code === 'incomplete_arguments') call.cut = true;
    // An unknown name outranks broken arguments: fixing the arguments of a tool that does not exist helps nobody.
    const error =
      this.context.unknownTool(this.name) ??
      outcome.error ??
      this.context.validate(this.name, args);
    events.push(
      error === undefined
        ? { type: 'tool_call_end', call }
        : { type: 'tool_call_end', call, error },
    );
  }
}

interface ArgumentsOutcome {
  args: Record<string, unknown>;
  error?: ToolCallStreamError;
}

function notAnObject(): ArgumentsOutcome {
  return {
    args: {},
    error: {
      code: 'invalid_arguments',
      message: 'The arguments must be a JSON object.',
      retryable: false,
      details: { expected: 'object' },
    },
  };
}

/** Schema validation of finished arguments (Draft 2020-12 via @toolgate/toolir); one place to change how. */
function validateToolArguments(
  tool: ToolIR,
  args: Record<string, unknown>,
): ToolCallStreamError | undefined {
  const result = validateArguments(tool, args);
  if (result.ok) return undefined;
  return {
    code: 'invalid_arguments',
    message: describeArgumentErrors(result.errors),
    retryable: false,
    details: { errors: result.errors },
  };
}
