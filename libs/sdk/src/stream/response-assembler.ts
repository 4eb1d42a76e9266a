import { safeParseJson } from '@toolgate/adapters';
import { isRecord, issuesFromZod, ToolgateError } from '@toolgate/toolir';
import { z } from 'zod';
import { ToolgateInvalidResponseError, ToolgateSdkError } from '../errors/toolgate-sdk-error';

/**
 * Collects one provider stream and returns the response its non-streaming API would have given,
 * so the loop dialects and the adapters' `parseCalls` read a streamed turn exactly like a plain one.
 */
export interface ResponseAssembler {
  /** Takes one provider stream event (a parsed object); ignores events it does not need; never throws. */
  push(event: unknown): void;
  /**
   * The whole response as the provider's non-streaming API returns it; throws a
   * `ToolgateInvalidResponseError` (code `invalid_response`) naming what is missing when the stream
   * ended before the response was complete, or naming the events it could not use.
   */
  response(): unknown;
}

type AssembledProvider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';

/** The assembled response, or what the stream still lacked for it. */
type Outcome = { response: unknown } | { missing: string[] };

/** One provider's part: reads events it knows, builds the response at the end. */
interface ProviderAssembler {
  /** Reads one event; returns why a needed event could not be used, or nothing. */
  push(event: Record<string, unknown>): string | undefined;
  finish(): Outcome;
}

/** Creates the assembler of a provider's stream events (as its official SDK yields them). */
export function createResponseAssembler(provider: AssembledProvider): ResponseAssembler {
  switch (provider) {
    case 'openai-chat':
      return guarded(provider, openAIChatAssembler());
    case 'openai-responses':
      return guarded(provider, openAIResponsesAssembler());
    case 'anthropic':
      return guarded(provider, anthropicAssembler());
    case 'gemini':
      return guarded(provider, geminiAssembler());
    default:
      // Reached only by untyped callers (e.g. `mcp`, which has no model stream).
      throw new ToolgateSdkError(
        'invalid_options',
        `no response assembler for provider ${String(provider)}`,
      );
  }
}

/**
 * `push` runs inside the caller's stream loop, where a throw would abort the stream the user is
 * watching; a bad event is kept as a problem instead, and `response()` reports it, because a
 * response assembled without that event might be silently wrong.
 */
function guarded(provider: AssembledProvider, body: ProviderAssembler): ResponseAssembler {
  const problems: string[] = [];
  let position = 0;
  return {
    push(event) {
      position++;
      try {
        // parseSSE passes an undecodable SSE message on as a ToolgateError in its place.
        if (ToolgateError.isInstance(event)) {
          problems.push(`event ${position} could not be decoded: ${event.message}`);
          return;
        }
        if (!isRecord(event)) {
          problems.push(`event ${position} is not an object`);
          return;
        }
        const problem = body.push(event);
        if (problem !== undefined) problems.push(`event ${position}: ${problem}`);
      } catch (error) {
        problems.push(
          `event ${position} could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    response() {
      const outcome = body.finish();
      const missing = 'missing' in outcome ? outcome.missing : [];
      if (problems.length === 0 && missing.length === 0 && 'response' in outcome)
        return outcome.response;
      const sentences = [
        ...(missing.length === 0
          ? []
          : [
              `the ${provider} stream ended before the response was complete: ${missing.join('; ')}`,
            ]),
        ...(problems.length === 0
          ? []
          : [
              `the ${provider} stream had events the response cannot be built from: ${problems.join('; ')}`,
            ]),
      ];
      throw new ToolgateInvalidResponseError(sentences.join('. '), {
        issues: [...missing, ...problems],
      });
    },
  };
}

type Read<T> = { ok: true; data: T } | { ok: false; problem: string };

function readWith<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
): Read<z.output<TSchema>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues = issuesFromZod(parsed.error).map((issue) => `${issue.path}: ${issue.message}`);
  return { ok: false, problem: issues.join(', ') };
}

/** An object passed through as it is (unlike `looseObject`, which copies it): blocks, items and parts go out untouched. */
const ObjectSchema = z.custom<Record<string, unknown>>(isRecord, 'expected an object');
const IndexSchema = z.number().int().nonnegative();

/** A provider's own error event, as one problem sentence. */
function providerError(payload: unknown): string {
  const body = isRecord(payload) && isRecord(payload['error']) ? payload['error'] : payload;
  const message =
    isRecord(body) && typeof body['message'] === 'string' ? body['message'] : JSON.stringify(body);
  return `the provider reported an error: ${message}`;
}

/** Copies the fields of `source` that have a value over `target` (streams repeat fields as null or leave them out). */
function assignPresent(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  skip: ReadonlySet<string> = new Set(),
): void {
  for (const [key, value] of Object.entries(source))
    if (!skip.has(key) && value !== undefined && value !== null) target[key] = value;
}

function joinOrNull(parts: readonly string[]): string | null {
  return parts.length === 0 ? null : parts.join('');
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

const ChatToolCallDeltaSchema = z.looseObject({
  index: IndexSchema.nullish(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z
    .looseObject({ name: z.string().nullish(), arguments: z.string().nullish() })
    .nullish(),
});
const ChatChunkSchema = z.looseObject({
  id: z.string().nullish(),
  created: z.number().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.looseObject({
        index: IndexSchema.nullish(),
        delta: z
          .looseObject({
            role: z.string().nullish(),
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(ChatToolCallDeltaSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
        logprobs: z
          .looseObject({
            content: z.array(z.unknown()).nullish(),
            refusal: z.array(z.unknown()).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
});

interface ChatToolSlot {
  index: number | undefined;
  id: string | undefined;
  type: string | undefined;
  name: string | undefined;
  arguments: string[];
}

interface ChatChoice {
  index: number;
  role: string | undefined;
  content: string[];
  refusal: string[];
  /** Every call in the order it started (a new id at a used index is a new call). */
  calls: ChatToolSlot[];
  /** The call each `index` (or id, for servers that leave out the index) currently refers to. */
  open: Map<string, ChatToolSlot>;
  last: ChatToolSlot | undefined;
  finishReason: string | undefined;
  logprobs: { content: unknown[] | undefined; refusal: unknown[] | undefined } | undefined;
}

type ChatToolCallDelta = z.output<typeof ChatToolCallDeltaSchema>;

function nonEmpty(value: string | null | undefined): string | undefined {
  return value === '' || value === null ? undefined : value;
}

/**
 * Finds the call a `tool_calls` delta continues, the way `createOpenAIChatStreamParser` does, so
 * the calls (and the ids given to id-less ones) are the ones the caller saw streaming.
 */
function chatToolSlot(choice: ChatChoice, delta: ChatToolCallDelta): ChatToolSlot | undefined {
  const id = nonEmpty(delta.id);
  const index = delta.index ?? undefined;
  let key: string | undefined;
  if (index !== undefined) key = String(index);
  else if (id !== undefined) {
    for (const [openKey, slot] of choice.open) if (slot.id === id) key = openKey;
    key ??= `id:${id}`;
  } else {
    return choice.last;
  }
  let slot = choice.open.get(key);
  if (slot !== undefined && id !== undefined && slot.id !== undefined && slot.id !== id)
    slot = undefined;
  if (slot === undefined) {
    slot = { index, id, type: undefined, name: undefined, arguments: [] };
    choice.calls.push(slot);
    choice.open.set(key, slot);
  }
  return slot;
}

/** Fields of a chunk that are not the completion's: `obfuscation` only pads stream events against side channels. */
const CHAT_CHUNK_OWN_FIELDS: ReadonlySet<string> = new Set(['choices', 'object', 'obfuscation']);

function openAIChatAssembler(): ProviderAssembler {
  const top: Record<string, unknown> = {};
  const choices = new Map<number, ChatChoice>();
  let chunks = 0;

  const choiceAt = (index: number): ChatChoice => {
    let choice = choices.get(index);
    if (choice === undefined) {
      choice = {
        index,
        role: undefined,
        content: [],
        refusal: [],
        calls: [],
        open: new Map(),
        last: undefined,
        finishReason: undefined,
        logprobs: undefined,
      };
      choices.set(index, choice);
    }
    return choice;
  };

  return {
    push(event) {
      if (event['error'] !== undefined && event['error'] !== null) return providerError(event);
      // Chunks say `chat.completion.chunk`; some compatible servers leave `object` out.
      if (typeof event['object'] === 'string' && event['object'] !== 'chat.completion.chunk')
        return undefined;
      const read = readWith(ChatChunkSchema, event);
      if (!read.ok) return `a chat.completion.chunk of the wrong shape (${read.problem})`;
      const chunk = read.data;
      chunks++;
      // As the official ChatCompletionStream: later chunks' fields win (the last chunk brings `usage`).
      assignPresent(top, chunk, CHAT_CHUNK_OWN_FIELDS);
      let problem: string | undefined;
      (chunk.choices ?? []).forEach((part, position) => {
        const choice = choiceAt(part.index ?? position);
        if (part.logprobs !== undefined && part.logprobs !== null) {
          choice.logprobs ??= { content: undefined, refusal: undefined };
          if (part.logprobs.content)
            (choice.logprobs.content ??= []).push(...part.logprobs.content);
          if (part.logprobs.refusal)
            (choice.logprobs.refusal ??= []).push(...part.logprobs.refusal);
        }
        if (part.finish_reason !== undefined && part.finish_reason !== null)
          choice.finishReason = part.finish_reason;
        const delta = part.delta;
        if (delta === undefined || delta === null) return;
        if (delta.role) choice.role = delta.role;
        if (delta.content) choice.content.push(delta.content);
        if (delta.refusal) choice.refusal.push(delta.refusal);
        for (const call of delta.tool_calls ?? []) {
          const slot = chatToolSlot(choice, call);
          if (slot === undefined) {
            problem ??= `choice ${choice.index}: a tool call delta with neither index nor id before any tool call`;
            continue;
          }
          choice.last = slot;
          slot.id ??= nonEmpty(call.id);
          slot.type ??= nonEmpty(call.type);
          slot.name ??= nonEmpty(call.function?.name);
          const fragment = call.function?.arguments;
          if (fragment) slot.arguments.push(fragment);
        }
      });
      return problem;
    },
    finish() {
      if (chunks === 0) return { missing: ['no chat.completion.chunk arrived'] };
      if (choices.size === 0) return { missing: ['no chunk carried a choice'] };
      const missing: string[] = [];
      const ordered = [...choices.values()].sort((a, b) => a.index - b.index);
      const built = ordered.map((choice) => {
        if (choice.finishReason === undefined)
          missing.push(`choice ${choice.index} has no finish_reason`);
        const toolCalls = choice.calls.map((slot) => {
          const key = slot.index ?? slot.id ?? '';
          if (slot.name === undefined)
            missing.push(`choice ${choice.index}: tool call ${key} has no function name`);
          return {
            // As the stream parser names a call that came without an id.
            id: slot.id ?? `call_${choice.index}_${key}`,
            type: slot.type ?? 'function',
            function: { name: slot.name ?? '', arguments: slot.arguments.join('') },
          };
        });
        return {
          index: choice.index,
          message: {
            role: choice.role ?? 'assistant',
            content: joinOrNull(choice.content),
            refusal: joinOrNull(choice.refusal),
            ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
          },
          logprobs:
            choice.logprobs === undefined
              ? null
              : {
                  content: choice.logprobs.content ?? null,
                  refusal: choice.logprobs.refusal ?? null,
                },
          finish_reason: choice.finishReason ?? null,
        };
      });
      if (missing.length > 0) return { missing };
      return { response: { ...top, object: 'chat.completion', choices: built } };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

const ResponseLifecycleSchema = z.looseObject({ response: ObjectSchema });
const ResponseFinalSchema = z.looseObject({
  response: z.looseObject({ output: z.array(z.unknown()) }),
});
const OutputItemSchema = z.looseObject({
  output_index: IndexSchema,
  item: z.looseObject({ type: z.string() }),
});

/** An item or block as a message names it: its type, and the tool it calls when it is a call. */
function describe(value: Record<string, unknown>): string {
  const name = typeof value['name'] === 'string' ? ` ${value['name']}` : '';
  return `${String(value['type'])}${name}`;
}

/** The highest key, or -1 (spreading the keys into Math.max has an argument limit). */
function highest(keys: Iterable<number>): number {
  let result = -1;
  for (const key of keys) if (key > result) result = key;
  return result;
}

function openAIResponsesAssembler(): ProviderAssembler {
  let skeleton: Record<string, unknown> | undefined;
  let final: Record<string, unknown> | undefined;
  const added = new Map<number, Record<string, unknown>>();
  const done = new Map<number, Record<string, unknown>>();

  return {
    push(event) {
      const type = event['type'];
      switch (type) {
        case 'response.created':
        case 'response.queued':
        case 'response.in_progress': {
          const read = readWith(ResponseLifecycleSchema, event);
          if (!read.ok) return `${type} of the wrong shape (${read.problem})`;
          skeleton = read.data.response;
          return undefined;
        }
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          // The whole Response, the object the non-streaming API would have returned.
          const read = readWith(ResponseFinalSchema, event);
          if (!read.ok) return `${type} of the wrong shape (${read.problem})`;
          final = read.data.response;
          return undefined;
        }
        case 'response.output_item.added':
        case 'response.output_item.done': {
          const read = readWith(OutputItemSchema, event);
          if (!read.ok) return `${type} of the wrong shape (${read.problem})`;
          (type === 'response.output_item.added' ? added : done).set(
            read.data.output_index,
            read.data.item,
          );
          return undefined;
        }
        case 'error':
          return providerError(event);
        default:
          // Deltas repeat what the `.done` items and the final Response hold; other events carry no output.
          return undefined;
      }
    },
    finish() {
      if (final !== undefined) return { response: final };
      // Without response.completed (a proxy that drops it, a stream cut after its last item) the
      // finished items still make the whole output, function calls and reasoning items included.
      const last = highest([...added.keys(), ...done.keys()]);
      if (last < 0) return { missing: ['no response.completed', 'no output item finished'] };
      const output: unknown[] = [];
      const unfinished: string[] = [];
      for (let index = 0; index <= last; index++) {
        const item = done.get(index);
        const start = added.get(index);
        if (item !== undefined) output.push(item);
        else if (start === undefined) unfinished.push(`output item ${index} never arrived`);
        else
          unfinished.push(
            `output item ${index} (${describe(start)}) has no response.output_item.done`,
          );
      }
      if (unfinished.length > 0) return { missing: ['no response.completed', ...unfinished] };
      return { response: { ...(skeleton ?? { object: 'response' }), output } };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

const AnthropicMessageStartSchema = z.looseObject({
  message: z.looseObject({ usage: ObjectSchema.nullish() }),
});
const AnthropicBlockStartSchema = z.looseObject({
  index: IndexSchema,
  content_block: z.looseObject({ type: z.string() }),
});
const AnthropicBlockDeltaSchema = z.looseObject({
  index: IndexSchema,
  delta: z.looseObject({ type: z.string() }),
});
const AnthropicBlockStopSchema = z.looseObject({ index: IndexSchema });
const AnthropicMessageDeltaSchema = z.looseObject({
  delta: ObjectSchema,
  usage: ObjectSchema.nullish(),
});

interface AnthropicBlock {
  start: Record<string, unknown>;
  text: string[];
  thinking: string[];
  signature: string | undefined;
  citations: unknown[];
  json: string[];
  stopped: boolean;
}

/** Blocks whose input streams as JSON text (those the official SDK's MessageStream tracks, and MCP calls). */
const INPUT_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'tool_use',
  'server_tool_use',
  'mcp_tool_use',
]);

/** The events that build the message; ping and newer events do not. */
const ANTHROPIC_MESSAGE_EVENTS: ReadonlySet<string> = new Set([
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

/**
 * The block's `input`: the streamed JSON text parsed. Text that is not a JSON object stays the raw
 * string, so `parseCalls` rejects that call's input instead of running it with `{}`.
 */
function blockInput(block: AnthropicBlock): unknown {
  const text = block.json.join('');
  // A tool without parameters streams "" (its input is {}); a replayed block carries its whole input up front.
  if (text.trim() === '') return block.start['input'] ?? {};
  const parsed = safeParseJson(text);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : text;
}

function buildBlock(block: AnthropicBlock): Record<string, unknown> {
  const built: Record<string, unknown> = { ...block.start };
  const startText = (key: string): string => {
    const value = block.start[key];
    return typeof value === 'string' ? value : '';
  };
  if (block.text.length > 0) built['text'] = startText('text') + block.text.join('');
  if (block.thinking.length > 0)
    built['thinking'] = startText('thinking') + block.thinking.join('');
  if (block.signature !== undefined) built['signature'] = block.signature;
  if (block.citations.length > 0) {
    const start = block.start['citations'];
    const earlier: readonly unknown[] = Array.isArray(start) ? start : [];
    built['citations'] = [...earlier, ...block.citations];
  }
  if (INPUT_BLOCK_TYPES.has(String(block.start['type']))) built['input'] = blockInput(block);
  return built;
}

/** Adds one delta to its block; the official MessageStream applies each delta type to one kind of block only. */
function addAnthropicDelta(
  block: AnthropicBlock,
  delta: Record<string, unknown> & { type: string },
): string | undefined {
  const blockType = String(block.start['type']);
  const text = (field: string): string | undefined => {
    const value = delta[field];
    return typeof value === 'string' ? value : undefined;
  };
  const misplaced = `${delta.type} for a ${blockType} block`;
  switch (delta.type) {
    case 'text_delta':
    case 'citations_delta': {
      if (blockType !== 'text') return misplaced;
      if (delta.type === 'citations_delta') {
        if (!isRecord(delta['citation'])) return 'a citations_delta without a citation';
        block.citations.push(delta['citation']);
        return undefined;
      }
      const value = text('text');
      if (value === undefined) return 'a text_delta without a string text';
      block.text.push(value);
      return undefined;
    }
    case 'thinking_delta':
    case 'signature_delta': {
      if (blockType !== 'thinking') return misplaced;
      const field = delta.type === 'thinking_delta' ? 'thinking' : 'signature';
      const value = text(field);
      if (value === undefined) return `a ${delta.type} without a string ${field}`;
      // The signature comes whole, once, after the thinking text.
      if (field === 'signature') block.signature = value;
      else block.thinking.push(value);
      return undefined;
    }
    case 'input_json_delta': {
      if (!INPUT_BLOCK_TYPES.has(blockType)) return misplaced;
      const value = text('partial_json');
      if (value === undefined) return 'an input_json_delta without a string partial_json';
      block.json.push(value);
      return undefined;
    }
    default:
      // A newer delta type.
      return undefined;
  }
}

function anthropicAssembler(): ProviderAssembler {
  let message: Record<string, unknown> | undefined;
  let usage: Record<string, unknown> = {};
  let blocks = new Map<number, AnthropicBlock>();
  let stopped = false;

  const messageEvent = (
    type: string,
    event: Record<string, unknown>,
    current: Record<string, unknown>,
  ): string | undefined => {
    switch (type) {
      case 'content_block_start': {
        const read = readWith(AnthropicBlockStartSchema, event);
        if (!read.ok) return `content_block_start of the wrong shape (${read.problem})`;
        blocks.set(read.data.index, {
          start: read.data.content_block,
          text: [],
          thinking: [],
          signature: undefined,
          citations: [],
          json: [],
          stopped: false,
        });
        return undefined;
      }
      case 'content_block_delta': {
        const read = readWith(AnthropicBlockDeltaSchema, event);
        if (!read.ok) return `content_block_delta of the wrong shape (${read.problem})`;
        const block = blocks.get(read.data.index);
        if (block === undefined)
          return `content_block_delta for block ${read.data.index}, which never started`;
        return addAnthropicDelta(block, read.data.delta);
      }
      case 'content_block_stop': {
        const read = readWith(AnthropicBlockStopSchema, event);
        if (!read.ok) return `content_block_stop of the wrong shape (${read.problem})`;
        const block = blocks.get(read.data.index);
        if (block === undefined)
          return `content_block_stop for block ${read.data.index}, which never started`;
        block.stopped = true;
        return undefined;
      }
      case 'message_delta': {
        const read = readWith(AnthropicMessageDeltaSchema, event);
        if (!read.ok) return `message_delta of the wrong shape (${read.problem})`;
        // As the official MessageStream: stop fields are set as sent, a container only when given,
        // and the usage counters are whole-message totals that replace earlier ones when present.
        const { container, ...delta } = read.data.delta;
        message = {
          ...current,
          ...delta,
          ...(container === undefined || container === null ? {} : { container }),
        };
        if (read.data.usage) {
          usage = { ...usage };
          assignPresent(usage, read.data.usage);
        }
        return undefined;
      }
      default:
        stopped = true;
        return undefined;
    }
  };

  return {
    push(event) {
      const type = event['type'];
      if (type === 'message_start') {
        const read = readWith(AnthropicMessageStartSchema, event);
        if (!read.ok) return `message_start of the wrong shape (${read.problem})`;
        // A new message restarts the block indexes (one create() streams one message).
        message = read.data.message;
        usage = { ...(read.data.message.usage ?? {}) };
        blocks = new Map();
        stopped = false;
        return undefined;
      }
      if (type === 'error') return providerError(event);
      if (typeof type !== 'string' || !ANTHROPIC_MESSAGE_EVENTS.has(type)) return undefined;
      if (message === undefined) return `${type} before message_start`;
      return messageEvent(type, event, message);
    },
    finish() {
      if (message === undefined) return { missing: ['no message_start'] };
      const missing: string[] = [];
      const content: Record<string, unknown>[] = [];
      const last = highest(blocks.keys());
      for (let index = 0; index <= last; index++) {
        const block = blocks.get(index);
        if (block === undefined) {
          missing.push(`content block ${index} never started`);
          continue;
        }
        if (!block.stopped)
          missing.push(
            `content block ${index} (${describe(block.start)}) has no content_block_stop`,
          );
        content.push(buildBlock(block));
      }
      if (!stopped) missing.push('no message_stop');
      if (missing.length > 0) return { missing };
      return { response: { ...message, content, usage } };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Gemini

const GeminiChunkSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        index: IndexSchema.nullish(),
        content: z.looseObject({ parts: z.array(ObjectSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
});

interface GeminiCandidate {
  index: number;
  /** Whether the stream named the index (the API leaves out a zero index). */
  indexed: boolean;
  parts: unknown[];
  /** Plain text parts not yet merged into one part. */
  text: string[];
  fields: Record<string, unknown>;
}

/** A part that is nothing but text: merging it with its neighbours loses nothing (thoughts and signatures are more). */
function plainText(part: Record<string, unknown>): string | undefined {
  const keys = Object.keys(part);
  return keys.length === 1 && keys[0] === 'text' && typeof part['text'] === 'string'
    ? part['text']
    : undefined;
}

function geminiParts(candidate: GeminiCandidate): unknown[] {
  return candidate.text.length === 0
    ? candidate.parts
    : [...candidate.parts, { text: candidate.text.join('') }];
}

const CANDIDATE_OWN_FIELDS: ReadonlySet<string> = new Set(['content', 'index']);
const CHUNK_OWN_FIELDS: ReadonlySet<string> = new Set(['candidates']);

function geminiAssembler(): ProviderAssembler {
  const top: Record<string, unknown> = {};
  const candidates = new Map<number, GeminiCandidate>();
  let chunks = 0;

  return {
    push(event) {
      if (event['error'] !== undefined && event['error'] !== null) return providerError(event);
      const read = readWith(GeminiChunkSchema, event);
      if (!read.ok) return `a GenerateContentResponse chunk of the wrong shape (${read.problem})`;
      chunks++;
      // Later chunks repeat or update the response fields (usageMetadata grows, the last one is the total).
      assignPresent(top, read.data, CHUNK_OWN_FIELDS);
      (read.data.candidates ?? []).forEach((checked, position) => {
        const index = checked.index ?? position;
        let candidate = candidates.get(index);
        if (candidate === undefined) {
          candidate = { index, indexed: false, parts: [], text: [], fields: {} };
          candidates.set(index, candidate);
        }
        if (checked.index !== undefined && checked.index !== null) candidate.indexed = true;
        assignPresent(candidate.fields, checked, CANDIDATE_OWN_FIELDS);
        for (const part of checked.content?.parts ?? []) {
          const text = plainText(part);
          if (text !== undefined) {
            candidate.text.push(text);
            continue;
          }
          if (candidate.text.length > 0) {
            candidate.parts.push({ text: candidate.text.join('') });
            candidate.text = [];
          }
          candidate.parts.push(part);
        }
      });
      return undefined;
    },
    finish() {
      if (chunks === 0) return { missing: ['no GenerateContentResponse chunk arrived'] };
      if (candidates.size === 0) {
        // A blocked prompt is answered with promptFeedback and no candidates, streamed or not.
        const feedback = top['promptFeedback'];
        if (isRecord(feedback) && typeof feedback['blockReason'] === 'string')
          return { response: { ...top } };
        return { missing: ['no chunk carried a candidate'] };
      }
      const ordered = [...candidates.values()].sort((a, b) => a.index - b.index);
      const missing = ordered
        .filter((candidate) => typeof candidate.fields['finishReason'] !== 'string')
        .map((candidate) => `candidate ${candidate.index} has no finishReason`);
      if (missing.length > 0) return { missing };
      return {
        response: {
          ...top,
          candidates: ordered.map((candidate) => ({
            content: { role: 'model', parts: geminiParts(candidate) },
            ...candidate.fields,
            ...(candidate.indexed ? { index: candidate.index } : {}),
          })),
        },
      };
    },
  };
}
