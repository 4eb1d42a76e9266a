import Anthropic from '@anthropic-ai/sdk';
import { getAdapter } from '@toolgate/adapters';
import type { CallsCompleted } from '@toolgate/contract';
import { defineTool, type ToolResultIR } from '@toolgate/toolir';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  anthropicToolUseStream,
  openAIChatTextStream,
  openAIChatToolCallStream,
  sseEvent,
  startFakeProvider,
  type FakeProviderReply,
} from '../../test/support/fake-provider';
import { CALL_IDS } from '../../test/support/gateway-answers';
import { sendJson, startTestServer, type TestServer } from '../../test/support/test-server';
import { streamToolLoop, type StreamToolLoopSettings } from '../agent-loop';
import { localTools } from '../local-tools';
import { Toolgate } from '../toolgate-client';

const getWeather = defineTool.readonly({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string().min(1) }),
  handler: ({ city }) => ({ city, temperature: 21 }),
});
const local = localTools([getWeather]);

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function provider(...replies: FakeProviderReply[]): Promise<TestServer> {
  const server = await startFakeProvider(replies);
  servers.push(server);
  return server;
}

async function collect<TEvent>(events: AsyncIterable<TEvent>): Promise<TEvent[]> {
  const all: TEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** A gateway that answers every POST /v1/calls with the one result of Anthropic call `toolu_1` (search_docs). */
async function searchDocsGateway(): Promise<TestServer> {
  const searched: ToolResultIR = { call_id: 'toolu_1', name: 'search_docs', ok: true, data: 3 };
  const gateway = await startTestServer((_request, response) =>
    sendJson(response, {
      body: {
        results: getAdapter('anthropic').resultsToWire([searched]),
        tool_results: [searched],
        calls: [{ id: CALL_IDS[0], status: 'succeeded', tool: 'search_docs', version: '1.0.0' }],
      } satisfies CallsCompleted,
    }),
  );
  servers.push(gateway);
  return gateway;
}

function kinds(events: ReadonlyArray<{ type: string }>): string[] {
  // Runs of the same kind collapse: how many deltas a network cut the stream into does not matter.
  return events.map((event) => event.type).filter((type, index, all) => type !== all[index - 1]);
}

describe('streamToolLoop', () => {
  it('streams an OpenAI Chat loop: partial tool calls, the step, then the answer as text deltas', async () => {
    const server = await provider(
      {
        sse: openAIChatToolCallStream([
          { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
        ]),
      },
      { sse: openAIChatTextStream('It is 21 °C in Oslo.') },
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const events = await collect(
      streamToolLoop({
        provider: 'openai-chat',
        client: openai,
        request: {
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'Weather in Oslo?' }],
          tools: local.toWire('openai-chat'),
        },
        execute: local,
      }),
    );
    expect(kinds(events)).toEqual([
      'tool_call_start',
      'tool_call_delta',
      'tool_call_end',
      'step_finish',
      'text_delta',
      'finish',
    ]);
    expect(events.find((event) => event.type === 'tool_call_end')).toMatchObject({
      step: 0,
      call: { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
    });
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(text.join('')).toBe('It is 21 °C in Oslo.');
    expect(
      events.filter((event) => event.type === 'text_delta').every((event) => event.step === 1),
    ).toBe(true);
    const finish = events.at(-1);
    if (finish?.type !== 'finish') throw new Error('the loop did not end with a finish event');
    expect(finish.result).toMatchObject({ stopped: 'final', text: 'It is 21 °C in Oslo.' });
    expect(finish.result.steps[0]?.toolResults[0]).toMatchObject({
      ok: true,
      data: { city: 'Oslo', temperature: 21 },
    });
    // Each model call asked for a stream, and the second carried the first turn and its result.
    const sent = server.requests.map((request) => request.json as Record<string, unknown>);
    expect(sent.map((json) => json['stream'])).toEqual([true, true]);
    expect((sent[1]?.['messages'] as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Oslo","temperature":21}' },
    ]);
  });

  it('streams an Anthropic loop whose calls run through the gateway', async () => {
    const server = await provider(
      {
        sse: anthropicToolUseStream([
          { id: 'toolu_1', name: 'search_docs', arguments: { q: 'x' } },
        ]),
      },
      { sse: anthropicToolUseStream([], 'Found 3 documents.') },
    );
    const gateway = await searchDocsGateway();
    const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const events = await collect(
      toolgate.streamToolLoop({
        provider: 'anthropic',
        client: anthropic,
        request: {
          model: 'claude-sonnet-4-6',
          max_tokens: 1024,
          messages: [{ role: 'user', content: 'Search the docs.' }],
        },
      }),
    );
    const finish = events.at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      result: { stopped: 'final', text: 'Found 3 documents.' },
    });
    // The gateway got the whole assembled turn, as from a non-streamed call.
    expect(gateway.requests[0]?.json).toMatchObject({
      provider: 'anthropic',
      payload: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'search_docs', input: { q: 'x' } },
        ],
      },
    });
  });

  /** One Anthropic search_docs call streamed, run through the gateway; returns what the gateway got. */
  async function searchThroughGateway(
    settings: Pick<StreamToolLoopSettings, 'partialStates'>,
  ): Promise<{ partial_states?: Record<string, unknown> } | undefined> {
    const server = await provider(
      {
        sse: anthropicToolUseStream([
          { id: 'toolu_1', name: 'search_docs', arguments: { q: 'x', limit: 3 } },
        ]),
      },
      { sse: anthropicToolUseStream([], 'Found 3 documents.') },
    );
    const gateway = await searchDocsGateway();
    const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    await collect(
      toolgate.streamToolLoop({
        provider: 'anthropic',
        client: anthropic,
        request: {
          model: 'claude-sonnet-4-6',
          max_tokens: 1024,
          messages: [{ role: 'user', content: 'Search the docs.' }],
        },
        ...settings,
      }),
    );
    return gateway.requests[0]?.json as { partial_states?: Record<string, unknown> } | undefined;
  }

  it('posts how each gateway call’s arguments grew with the calls, when asked to record it', async () => {
    let time = 0;
    const posted = await searchThroughGateway({ partialStates: { now: () => (time += 10) } });
    const states = posted?.partial_states?.['toolu_1'] as {
      entries: Array<{ offset_ms: number; pointers: string[] }>;
      truncated: boolean;
    };
    expect(Object.keys(posted?.partial_states ?? {})).toEqual(['toolu_1']);
    expect(states.truncated).toBe(false);
    expect(states.entries.flatMap((entry) => entry.pointers)).toEqual(['/q', '/limit', '']);
    expect(states.entries[0]?.offset_ms).toBeGreaterThan(0);
  });

  it('posts no partial states unless asked to record them', async () => {
    const posted = await searchThroughGateway({});
    expect(posted).toBeDefined();
    expect(posted).not.toHaveProperty('partial_states');
  });

  it('answers a tool_use cut off by max_tokens with incomplete_arguments and replays it with an object input', async () => {
    const event = (data: { type: string } & Record<string, unknown>) => sseEvent(data, data.type);
    const cut = [
      event({
        type: 'message_start',
        message: {
          id: 'msg_cut',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-6',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      }),
      event({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_cut', name: 'get_weather', input: {} },
      }),
      event({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"city": "Os' },
      }),
      event({ type: 'content_block_stop', index: 0 }),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'max_tokens', stop_sequence: null },
        usage: { output_tokens: 4096 },
      }),
      event({ type: 'message_stop' }),
    ].join('');
    const server = await provider(
      { sse: cut },
      { sse: anthropicToolUseStream([], 'Let me retry.') },
    );
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 });
    const events = await collect(
      streamToolLoop({
        provider: 'anthropic',
        client: anthropic,
        request: {
          model: 'claude-sonnet-4-6',
          max_tokens: 4096,
          messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        },
        execute: local,
      }),
    );
    const step = events.find((item) => item.type === 'step_finish');
    expect(step?.type === 'step_finish' && step.toolStep.toolCalls).toEqual([
      expect.objectContaining({
        id: 'toolu_cut',
        dynamic: true,
        invalid: true,
        executedBy: 'none',
      }),
    ]);
    expect(step?.type === 'step_finish' && step.toolStep.results[0]).toMatchObject({
      ok: false,
      error: { code: 'incomplete_arguments', details: { received: 12 } },
    });
    const history = (server.requests[1]?.json as { messages: unknown[] }).messages;
    expect(history[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_cut', name: 'get_weather', input: {} }],
    });
    expect(history[2]).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_cut', is_error: true }],
    });
  });

  it('stops asking the model when the caller leaves the loop early', async () => {
    const server = await provider({
      sse: openAIChatToolCallStream([
        { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } },
      ]),
    });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    for await (const event of streamToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather?' }] },
      execute: local,
    })) {
      if (event.type === 'tool_call_start') break;
    }
    expect(server.requests).toHaveLength(1);
  });
});
