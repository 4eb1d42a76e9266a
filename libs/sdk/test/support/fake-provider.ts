import { delay, sendJson, startTestServer, type TestServer } from './test-server';

/**
 * A stand-in for a model provider's HTTP API (OpenAI, Anthropic, Gemini), for tests that drive
 * the official SDK clients through `baseURL`: each request gets the next scripted reply, a JSON
 * body or an SSE stream, shaped like the provider's real answers. The last reply repeats.
 */
export type FakeProviderReply =
  | { json: unknown; status?: number }
  /** Raw `text/event-stream` text, sent in small pieces split mid-line, as networks deliver it. */
  | { sse: string };

const SSE_PIECE = 37;

export async function startFakeProvider(
  replies: readonly FakeProviderReply[],
): Promise<TestServer> {
  if (replies.length === 0) throw new Error('a fake provider needs at least one reply');
  return startTestServer(async (_request, response, index) => {
    const reply = replies[Math.min(index, replies.length - 1)]!;
    if ('json' in reply) {
      sendJson(response, { status: reply.status ?? 200, body: reply.json });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let start = 0; start < reply.sse.length; start += SSE_PIECE) {
      response.write(reply.sse.slice(start, start + SSE_PIECE));
      await delay(2);
    }
    response.end();
  });
}

/** One model tool call as the builders below render it in each provider's shape. */
export interface FakeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One SSE event; `event:` is written when named (Anthropic names every event, OpenAI none). */
export function sseEvent(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

const CREATED = 1_764_000_000;

/** An OpenAI `chat.completion`: tool calls (finish_reason `tool_calls`) or a final text. */
export function openAIChatCompletion(turn: { calls?: FakeToolCall[]; text?: string }): unknown {
  const calls = turn.calls ?? [];
  return {
    id: `chatcmpl-${calls.length === 0 ? 'final' : calls[0]!.id}`,
    object: 'chat.completion',
    created: CREATED,
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.text ?? null,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }),
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: calls.length === 0 ? 'stop' : 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 82, completion_tokens: 40, total_tokens: 122 },
    system_fingerprint: 'fp_abc',
  };
}

/** An OpenAI chat stream: each call's arguments cut into three `tool_calls` deltas, then `[DONE]`. */
export function openAIChatToolCallStream(calls: readonly FakeToolCall[]): string {
  const chunk = (delta: object, finishReason: string | null = null) =>
    sseEvent({
      id: 'chatcmpl-stream',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_abc',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  const events = calls.flatMap((call, index) => [
    chunk({
      ...(index === 0 ? { role: 'assistant', content: null, refusal: null } : {}),
      tool_calls: [
        { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    }),
    ...thirds(JSON.stringify(call.arguments)).map((part) =>
      chunk({ tool_calls: [{ index, function: { arguments: part } }] }),
    ),
  ]);
  return [...events, chunk({}, 'tool_calls'), 'data: [DONE]\n\n'].join('');
}

/** An Anthropic `message`: text, then `tool_use` blocks (stop_reason `tool_use`), or a final text. */
export function anthropicMessage(turn: { calls?: FakeToolCall[]; text?: string }): unknown {
  const calls = turn.calls ?? [];
  return {
    id: `msg_${calls.length === 0 ? 'final' : calls[0]!.id}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [
      ...(turn.text === undefined ? [] : [{ type: 'text', text: turn.text }]),
      ...calls.map((call) => ({
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: call.arguments,
      })),
    ],
    stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 300, output_tokens: 50 },
  };
}

/** An Anthropic message stream: a text block, then each `tool_use` block with `input_json_delta`s. */
export function anthropicToolUseStream(calls: readonly FakeToolCall[], text = 'Checking.'): string {
  const event = (data: { type: string } & Record<string, unknown>) => sseEvent(data, data.type);
  return [
    event({
      type: 'message_start',
      message: {
        id: 'msg_stream',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 1 },
      },
    }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    event({ type: 'content_block_stop', index: 0 }),
    ...calls.flatMap((call, position) => {
      const index = position + 1;
      return [
        event({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
        ...['', ...thirds(JSON.stringify(call.arguments))].map((part) =>
          event({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          }),
        ),
        event({ type: 'content_block_stop', index }),
      ];
    }),
    event({
      type: 'message_delta',
      delta: { stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: 30 },
    }),
    event({ type: 'message_stop' }),
  ].join('');
}

/** An OpenAI chat stream of a final answer: the text in three content deltas, then `[DONE]`. */
export function openAIChatTextStream(text: string): string {
  const chunk = (delta: object, finishReason: string | null = null) =>
    sseEvent({
      id: 'chatcmpl-text',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_abc',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  return [
    chunk({ role: 'assistant', content: '', refusal: null }),
    ...thirds(text).map((part) => chunk({ content: part })),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ].join('');
}

/** Cuts text into three pieces (the way providers split arguments mid-token). */
function thirds(text: string): string[] {
  const cut = Math.max(1, Math.floor(text.length / 3));
  return [text.slice(0, cut), text.slice(cut, 2 * cut), text.slice(2 * cut)].filter(
    (part) => part !== '',
  );
}
