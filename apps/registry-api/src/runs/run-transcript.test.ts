import type Anthropic from '@anthropic-ai/sdk';
import type * as Genai from '@google/genai';
import type OpenAI from 'openai';
import { getAdapter } from '@toolgate/adapters';
import type { ToolCallIR, ToolResultIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { transcriptMessages, type TranscriptTurn } from './run-transcript';

const turns: TranscriptTurn[] = [
  {
    calls: [
      { id: 'call_1', name: 'find_order', arguments: { number: 42 } },
      { id: 'call_2', name: 'find_customer', arguments: { email: 'a@example.com' } },
    ],
    results: [
      { call_id: 'call_1', name: 'find_order', ok: true, data: { id: 'ord_42', total: 19.5 } },
      {
        call_id: 'call_2',
        name: 'find_customer',
        ok: false,
        error: { code: 'tool_error', message: 'no such customer', retryable: false },
      },
    ],
  },
  {
    calls: [{ id: 'call_3', name: 'refund_order', arguments: { order_id: 'ord_42' } }],
    results: [{ call_id: 'call_3', name: 'refund_order', ok: true, data: { refunded: true } }],
  },
];

/** The transcript read back with the same adapter: each assistant message's calls, each result message's results. */
function readBack(
  format: 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini',
  messages: readonly unknown[],
): { calls: ToolCallIR[]; results: ToolResultIR[] } {
  const adapter = getAdapter(format);
  const calls: ToolCallIR[] = [];
  const results: ToolResultIR[] = [];
  if (format === 'openai-responses') {
    const items = messages as Array<{ type: string }>;
    calls.push(...adapter.callsFromWire(items.filter((item) => item.type === 'function_call')));
    results.push(
      ...adapter.resultsFromWire(
        items.filter((item) => item.type === 'function_call_output'),
        {
          calls,
        },
      ),
    );
    return { calls, results };
  }
  for (const message of messages as Array<{ role: string }>) {
    const isCall = message.role === 'assistant' || message.role === 'model';
    if (isCall) calls.push(...adapter.callsFromWire(message));
    else
      results.push(
        ...adapter.resultsFromWire(format === 'openai-chat' ? [message] : message, { calls }),
      );
  }
  return { calls, results };
}

describe('transcriptMessages', () => {
  it('writes messages the official SDKs type-check', () => {
    transcriptMessages(turns, 'openai-chat') satisfies OpenAI.Chat.ChatCompletionMessageParam[];
    transcriptMessages(turns, 'openai-responses') satisfies OpenAI.Responses.ResponseInputItem[];
    transcriptMessages(turns, 'anthropic') satisfies Anthropic.Messages.MessageParam[];
    transcriptMessages(turns, 'gemini') satisfies Genai.Content[];
    expect(transcriptMessages(turns, 'anthropic').map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const)(
    'round-trips the calls and results through %s',
    (format) => {
      const back = readBack(format, transcriptMessages(turns, format));
      expect(
        back.calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      ).toEqual(turns.flatMap((turn) => turn.calls));
      expect(
        back.results.map((result) => ({
          call_id: result.call_id,
          ok: result.ok,
          data: result.data,
          error_message: result.error?.message,
        })),
      ).toEqual(
        turns.flatMap((turn) =>
          turn.results.map((result) => ({
            call_id: result.call_id,
            ok: result.ok,
            data: result.data,
            error_message: result.error?.message,
          })),
        ),
      );
    },
  );
});
