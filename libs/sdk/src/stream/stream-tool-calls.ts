import {
  createToolCallStream,
  parseSSE,
  type Provider,
  type ToolCallStreamEvent,
  type ToolCallStreamOptions,
} from '@toolgate/adapters';

import { toolIRsOf, type OfferedTools } from './offered-tools';
import { observed, type PartialStateRecorder } from './partial-states/partial-state-recorder';

/** Options of `streamToolCalls`: the tools offered to the model (names mapped back, ends validated). */
export type StreamToolCallsOptions = Omit<ToolCallStreamOptions, 'tools'> & {
  /** ToolIRs, a `tools()` export, or the request's wire tools (`export.tools`, `localTools().toWire()`). */
  tools?: OfferedTools;
  /** Sees every event: `recordPartialStates()` records how each call's arguments grew (and traces it). */
  partialStates?: PartialStateRecorder;
};

async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = parseSSE();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* decoder.push(value);
    }
    yield* decoder.end();
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Turns a provider's model stream into tool-call events (`tool_call_start` / `tool_call_delta` / `tool_call_end`,
 * `text_delta`, `error`): pass what an official SDK streams (`openai` chat or responses streams, `@anthropic-ai/sdk`
 * message streams, `@google/genai` `generateContentStream`), or a raw `text/event-stream` body.
 * Leaving the loop early closes the source stream.
 */
export async function* streamToolCalls(
  provider: Provider,
  stream: AsyncIterable<unknown> | ReadableStream<Uint8Array>,
  options: StreamToolCallsOptions = {},
): AsyncGenerator<ToolCallStreamEvent, void, undefined> {
  const { tools, partialStates, ...rest } = options;
  const parser = createToolCallStream(provider, {
    ...rest,
    ...(tools === undefined ? {} : { tools: toolIRsOf(provider, tools) }),
  });
  const events = stream instanceof ReadableStream ? sseEvents(stream) : stream;
  for await (const event of events) yield* observed(parser.push(event), partialStates);
  yield* observed(parser.end(), partialStates);
}
