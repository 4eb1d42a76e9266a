import type { Provider } from '@toolgate/adapters';
import { isRecord } from '@toolgate/toolir';
import { z } from 'zod';
import { ToolgateInvalidResponseError, ToolgateSdkError } from './errors/toolgate-sdk-error';
import { parseResponse } from './transports/parse-response';

/** What the loop reads from one model response. */
export interface ModelTurn {
  /** The conversation items that record the model's turn (assistant message, output items, model content). */
  assistant: unknown[];
  /** The assistant's text in this turn, when it wrote any. */
  text: string | undefined;
  hasToolCalls: boolean;
}

/** How one provider's API is called and its conversation extended. */
export interface LoopDialect {
  /** Calls the model with the request. */
  call(client: unknown, request: object): Promise<unknown>;
  /** Calls the model's streaming API with the request; resolves to its stream of events. */
  stream(client: unknown, request: object): Promise<AsyncIterable<unknown>>;
  read(response: unknown): ModelTurn;
  /** A copy of the request with these conversation items (messages, input items, contents) appended. */
  extend(request: object, items: readonly unknown[]): object;
  /** The tool definitions the request offers the model (to find the export they came from). */
  offered(request: object): readonly unknown[];
  /** A copy of the request that offers these tools too, after its own. */
  offer(request: object, tools: readonly unknown[]): object;
}

function listAt(value: unknown, key: string): readonly unknown[] {
  const list = isRecord(value) ? value[key] : undefined;
  return Array.isArray(list) ? list : [];
}

const requestTools = (request: object): readonly unknown[] => listAt(request, 'tools');

function offerAtRoot(request: object, tools: readonly unknown[]): object {
  return { ...request, tools: [...requestTools(request), ...tools] };
}

/** Results as a list of conversation items (one message, or several). */
export function asList(results: unknown): unknown[] {
  return Array.isArray(results) ? results : [results];
}

/** A copy of the request with the model's turn and the tool results (wire) appended. */
export function appendTurn(
  dialect: LoopDialect,
  request: object,
  { turn, results }: { turn: ModelTurn; results: unknown },
): object {
  return dialect.extend(request, [...turn.assistant, ...asList(results)]);
}

function joinText(parts: readonly string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join('');
}

// Structural clients: the official SDK clients fit, and so does any object with the same method.
function invoke(client: unknown, path: readonly string[], request: object): Promise<unknown> {
  let owner: unknown = undefined;
  let target: unknown = client;
  for (const key of path) {
    owner = target;
    target =
      typeof owner === 'object' && owner !== null
        ? (owner as Record<string, unknown>)[key]
        : undefined;
  }
  if (typeof target !== 'function')
    throw new ToolgateSdkError('invalid_options', `the client has no ${path.join('.')} method`);
  // Called on its owner: SDK resources read their client through `this`.
  return Promise.resolve((target as (request: object) => unknown).call(owner, request));
}

/** What a streaming call resolved to: the official SDKs give async iterables of parsed events. */
async function eventsOf(
  pending: Promise<unknown>,
  path: readonly string[],
): Promise<AsyncIterable<unknown>> {
  const stream = await pending;
  if (typeof stream === 'object' && stream !== null && Symbol.asyncIterator in stream) {
    return stream as AsyncIterable<unknown>;
  }
  throw new ToolgateInvalidResponseError(
    `${path.join('.')} did not return a stream of events (an async iterable)`,
  );
}

function streamed(path: readonly string[]): LoopDialect['stream'] {
  // The request's own flag asks the official clients for their event stream.
  return (client, request) => eventsOf(invoke(client, path, { ...request, stream: true }), path);
}

const ChatCompletionSchema = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          role: z.string().optional(),
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
          tool_calls: z.array(z.looseObject({})).nullable().optional(),
        }),
      }),
    )
    .min(1),
});
const ChatRequestSchema = z.looseObject({ messages: z.array(z.unknown()) });

const openAIChat: LoopDialect = {
  offered: requestTools,
  offer: offerAtRoot,
  call: (client, request) => invoke(client, ['chat', 'completions', 'create'], request),
  stream: streamed(['chat', 'completions', 'create']),
  read(response) {
    const message = parseResponse(ChatCompletionSchema, response, 'the chat completion').choices[0]
      ?.message;
    const toolCalls = message?.tool_calls ?? [];
    // Only request fields go back: response-only fields (annotations) are not part of an assistant message param.
    const assistant = {
      role: 'assistant',
      content: message?.content ?? null,
      ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
      ...(typeof message?.refusal === 'string' ? { refusal: message.refusal } : {}),
    };
    return {
      assistant: [assistant],
      text: message?.content ?? undefined,
      hasToolCalls: toolCalls.length > 0,
    };
  },
  extend(request, items) {
    const { messages } = parseResponse(ChatRequestSchema, request, 'the request');
    return { ...request, messages: [...messages, ...items] };
  },
};

const ResponseSchema = z.looseObject({
  output: z.array(
    z.looseObject({
      type: z.string(),
      content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).optional(),
    }),
  ),
});
const ResponsesRequestSchema = z.looseObject({
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
});

const openAIResponses: LoopDialect = {
  offered: requestTools,
  offer: offerAtRoot,
  call: (client, request) => invoke(client, ['responses', 'create'], request),
  stream: streamed(['responses', 'create']),
  read(response) {
    const { output } = parseResponse(ResponseSchema, response, 'the response');
    const text = output
      .filter((item) => item.type === 'message')
      .flatMap((item) => item.content ?? [])
      .flatMap((part) =>
        part.type === 'output_text' && part.text !== undefined ? [part.text] : [],
      );
    // Every output item goes back (reasoning items included), as the Responses API expects for a stateless loop.
    return {
      assistant: output,
      text: joinText(text),
      hasToolCalls: output.some(
        (item) => item.type === 'function_call' || item.type === 'custom_tool_call',
      ),
    };
  },
  extend(request, items) {
    const { input } = parseResponse(ResponsesRequestSchema, request, 'the request');
    const before =
      input === undefined
        ? []
        : typeof input === 'string'
          ? [{ role: 'user', content: input }]
          : input;
    return { ...request, input: [...before, ...items] };
  },
};

const MessageSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});
const MessagesRequestSchema = z.looseObject({ messages: z.array(z.unknown()) });

const anthropic: LoopDialect = {
  offered: requestTools,
  offer: offerAtRoot,
  call: (client, request) => invoke(client, ['messages', 'create'], request),
  stream: streamed(['messages', 'create']),
  read(response) {
    const { content } = parseResponse(MessageSchema, response, 'the message');
    const text = content.flatMap((block) =>
      block.type === 'text' && block.text !== undefined ? [block.text] : [],
    );
    // A streamed tool_use cut off mid-JSON keeps its text for the call's invalid_arguments
    // result; the API takes only object inputs back in the history.
    const replayable = content.map((block) =>
      block.type === 'tool_use' && typeof block['input'] === 'string'
        ? { ...block, input: {} }
        : block,
    );
    return {
      assistant: [{ role: 'assistant', content: replayable }],
      text: joinText(text),
      hasToolCalls: content.some((block) => block.type === 'tool_use'),
    };
  },
  // The results are one user message with every tool_result block (the API requires them first in it).
  extend(request, items) {
    const { messages } = parseResponse(MessagesRequestSchema, request, 'the request');
    return { ...request, messages: [...messages, ...items] };
  },
};

const GeminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.unknown().optional(),
});
const GeminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z
          .looseObject({
            role: z.string().optional(),
            parts: z.array(GeminiPartSchema).default([]),
          })
          .optional(),
      }),
    )
    .optional(),
});
const GeminiRequestSchema = z.looseObject({ contents: z.unknown() });

/** `contents` is a ContentListUnion: a string, a part, a Content, or a list of either; the loop needs Content[]. */
function geminiContents(contents: unknown): unknown[] {
  const toPart = (part: unknown): unknown => (typeof part === 'string' ? { text: part } : part);
  if (contents === undefined) return [];
  if (Array.isArray(contents)) {
    if (contents.every((item) => isRecord(item) && 'parts' in item)) return contents;
    return [{ role: 'user', parts: contents.map(toPart) }];
  }
  if (isRecord(contents) && 'parts' in contents) return [contents];
  return [{ role: 'user', parts: [toPart(contents)] }];
}

const gemini: LoopDialect = {
  offered: (request) => listAt(isRecord(request) ? request['config'] : undefined, 'tools'),
  // Gemini takes its tools in `config`; each export is one tool object of function declarations.
  offer(request, tools) {
    const config = isRecord(request) && isRecord(request['config']) ? request['config'] : {};
    return { ...request, config: { ...config, tools: [...gemini.offered(request), ...tools] } };
  },
  call: (client, request) => invoke(client, ['models', 'generateContent'], request),
  // Gemini streams from its own method; the request is the same.
  stream: (client, request) =>
    eventsOf(invoke(client, ['models', 'generateContentStream'], request), [
      'models',
      'generateContentStream',
    ]),
  read(response) {
    const content = parseResponse(GeminiResponseSchema, response, 'the generateContent response')
      .candidates?.[0]?.content;
    const parts = content?.parts ?? [];
    const text = parts.flatMap((part) =>
      part.text !== undefined && part.thought !== true ? [part.text] : [],
    );
    return {
      assistant: content === undefined ? [] : [{ ...content, role: 'model', parts }],
      text: joinText(text),
      hasToolCalls: parts.some((part) => part.functionCall !== undefined),
    };
  },
  extend(request, items) {
    const { contents } = parseResponse(GeminiRequestSchema, request, 'the request');
    return { ...request, contents: [...geminiContents(contents), ...items] };
  },
};

/** The loop dialect of a provider; `mcp` has no model API to loop with. */
export function loopDialect(provider: Provider): LoopDialect {
  switch (provider) {
    case 'openai-chat':
      return openAIChat;
    case 'openai-responses':
      return openAIResponses;
    case 'anthropic':
      return anthropic;
    case 'gemini':
      return gemini;
    case 'mcp':
      throw new ToolgateSdkError(
        'invalid_options',
        'runToolLoop needs a model provider; mcp has no model API',
      );
  }
}
