import Anthropic from '@anthropic-ai/sdk';
import type { ToolCallStreamEvent } from '@toolgate/adapters';
import { defineTool } from '@toolgate/toolir';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sseEvent, startFakeProvider } from '../../test/support/fake-provider';
import type { TestServer } from '../../test/support/test-server';
import { localTools } from '../local-tools';
import { toolIRsOf } from './offered-tools';
import { streamToolCalls } from './stream-tool-calls';

const getWeather = defineTool({
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000 },
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves `body` as text/event-stream in small pieces, split mid-line, with pauses between them. */
async function sseServer(body: string): Promise<TestServer> {
  server = await startFakeProvider([{ sse: body }]);
  return server;
}

const chunk = (delta: object, finishReason: string | null = null): string =>
  sseEvent({
    id: 'chatcmpl-S1',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_abc',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
const chatStream = [
  chunk({
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        index: 0,
        id: 'call_W1',
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      },
    ],
    refusal: null,
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty": "Par' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'is"}' } }] }),
  chunk({}, 'tool_calls'),
  'data: [DONE]\n\n',
].join('');

const anthropicEvent = (data: { type: string } & Record<string, unknown>): string =>
  sseEvent(data, data.type);
const anthropicStream = [
  anthropicEvent({
    type: 'message_start',
    message: {
      id: 'msg_S1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 1 },
    },
  }),
  anthropicEvent({
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  anthropicEvent({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'Checking.' },
  }),
  anthropicEvent({ type: 'content_block_stop', index: 0 }),
  anthropicEvent({
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_S1', name: 'get_weather', input: {} },
  }),
  anthropicEvent({
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '' },
  }),
  anthropicEvent({
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '{"city": "Ro' },
  }),
  anthropicEvent({
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: 'me"}' },
  }),
  anthropicEvent({ type: 'content_block_stop', index: 1 }),
  anthropicEvent({
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 30 },
  }),
  anthropicEvent({ type: 'message_stop' }),
].join('');

async function collect(events: AsyncIterable<ToolCallStreamEvent>): Promise<ToolCallStreamEvent[]> {
  const all: ToolCallStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function summarize(events: readonly ToolCallStreamEvent[]): string[] {
  return events.map((event) => event.type);
}

describe('streamToolCalls', () => {
  it('reads an official openai chat stream into start, delta and end events', async () => {
    const http = await sseServer(chatStream);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    const events = await collect(
      streamToolCalls('openai-chat', stream, { tools: [getWeather.tool] }),
    );
    expect(events[0]).toEqual({
      type: 'tool_call_start',
      id: 'call_W1',
      name: 'get_weather',
      index: 0,
    });
    expect(summarize(events)).toContain('tool_call_delta');
    const end = events.find((event) => event.type === 'tool_call_end');
    expect(end).toEqual({
      type: 'tool_call_end',
      call: expect.objectContaining({
        id: 'call_W1',
        name: 'get_weather',
        arguments: { city: 'Paris' },
      }),
    });
    expect(events.at(-1)?.type).toBe('tool_call_end');
  });

  it('reads an anthropic messages.stream() MessageStream', async () => {
    const http = await sseServer(anthropicStream);
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: http.url, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    const events = await collect(
      streamToolCalls('anthropic', stream, { tools: [getWeather.tool] }),
    );
    expect(events).toContainEqual({ type: 'text_delta', text: 'Checking.' });
    expect(events).toContainEqual({
      type: 'tool_call_start',
      id: 'toolu_S1',
      name: 'get_weather',
      index: 0,
    });
    expect(events.find((event) => event.type === 'tool_call_end')).toMatchObject({
      call: { id: 'toolu_S1', arguments: { city: 'Rome' } },
    });
    expect(events.some((event) => event.type === 'error')).toBe(false);
  });

  it('reads an anthropic messages.create({ stream: true }) stream', async () => {
    const http = await sseServer(anthropicStream);
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: http.url, maxRetries: 0 });
    const stream = await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    const events = await collect(streamToolCalls('anthropic', stream));
    expect(
      summarize(events)
        .filter((type) => type.startsWith('tool_call_'))
        .at(0),
    ).toBe('tool_call_start');
    expect(events.find((event) => event.type === 'tool_call_end')).toMatchObject({
      call: { name: 'get_weather', arguments: { city: 'Rome' } },
    });
  });

  it('reads a raw text/event-stream body', async () => {
    const http = await sseServer(chatStream);
    const response = await fetch(`${http.url}/v1/chat/completions`, { method: 'POST' });
    const events = await collect(streamToolCalls('openai-chat', response.body!));
    expect(events.find((event) => event.type === 'tool_call_end')).toMatchObject({
      call: { arguments: { city: 'Paris' } },
    });
  });

  it('ends a call cut off by the end of the stream with incomplete_arguments', async () => {
    const http = await sseServer(
      chatStream.split(
        'data: {"id":"chatcmpl-S1","object":"chat.completion.chunk","created":1764000000,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_abc","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is',
      )[0]!,
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    const events = await collect(streamToolCalls('openai-chat', stream));
    const end = events.find((event) => event.type === 'tool_call_end');
    expect(end).toMatchObject({ error: { code: 'incomplete_arguments' } });
    // The call says it was cut and carries the text that arrived, for the gateway to repair.
    expect(end?.type === 'tool_call_end' && end.call).toMatchObject({
      cut: true,
      raw_arguments: expect.stringMatching(/^\{/),
    });
  });

  it("takes the request's wire tools (an export, localTools().toWire()) and checks ends against them", async () => {
    const http = await sseServer(chatStream);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const needsCountry = defineTool.readonly({
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: z.object({ city: z.string(), country: z.string() }),
    });
    const wire = localTools([needsCountry]).toWire('openai-chat');
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: wire,
      stream: true,
    });
    // An export's shape: `{ tools }` as `toolgate.tools()` returns it.
    const events = await collect(
      streamToolCalls('openai-chat', stream, { tools: { tools: wire } }),
    );
    expect(events.find((event) => event.type === 'tool_call_end')).toMatchObject({
      call: { name: 'get_weather', arguments: { city: 'Paris' } },
      error: { code: 'invalid_arguments' },
    });
  });
});

describe('toolIRsOf', () => {
  it('reads every declaration of a Gemini tool object, and keeps ToolIRs as they are', () => {
    const other = defineTool.readonly({
      name: 'get_time',
      description: 'The time in a zone.',
      parameters: z.object({ zone: z.string() }),
    });
    const gemini = localTools([getWeather, other]).toWire('gemini');
    expect(toolIRsOf('gemini', gemini).map((tool) => tool.name)).toEqual([
      'get_weather',
      'get_time',
    ]);
    expect(toolIRsOf('gemini', [getWeather.tool])).toEqual([getWeather.tool]);
    expect(
      toolIRsOf('anthropic', localTools([other]).toWire('anthropic'))[0]?.parameters,
    ).toMatchObject({
      required: ['zone'],
    });
  });
});
