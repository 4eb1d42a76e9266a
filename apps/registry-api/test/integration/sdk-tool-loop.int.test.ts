import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { ToolCallStreamEvent } from '@toolgate/adapters';
import { BuiltinExecutor } from '@toolgate/engine';
import { streamToolCalls, Toolgate } from '@toolgate/sdk';
import {
  anthropicMessage,
  anthropicToolUseStream,
  openAIChatCompletion,
  openAIChatToolCallStream,
  startFakeProvider,
} from '@toolgate/sdk/testing';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let weather: TestTool;
const providers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('weather', (args) => ({
    city: String(args['query']),
    temperature: 21,
  }));
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  weather = await createBuiltinTool(api, team, { handler: 'weather' });
});
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});
afterAll(async () => {
  await api?.close();
});

async function fakeProvider(...replies: Parameters<typeof startFakeProvider>[0]) {
  const provider = await startFakeProvider(replies);
  providers.push(provider);
  return provider;
}

async function collect(events: AsyncIterable<ToolCallStreamEvent>): Promise<ToolCallStreamEvent[]> {
  const all: ToolCallStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

async function callsRecorded(conversationId: string) {
  return api.database.prisma.call.findMany({
    where: { teamId: team.id, conversationId },
  });
}

describe('runToolLoop with the official clients, executing through the registry', () => {
  it('runs an OpenAI Chat loop (official openai client) to the final answer', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const { tools } = await toolgate.tools({ format: 'openai-chat', names: [weather.name] });
    const provider = await fakeProvider(
      {
        json: openAIChatCompletion({
          calls: [
            { id: 'call_oslo', name: weather.name, arguments: { query: 'Oslo' } },
            { id: 'call_bad', name: weather.name, arguments: { query: '' } },
          ],
        }),
      },
      { json: openAIChatCompletion({ text: 'It is 21 °C in Oslo.' }) },
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const result = await toolgate.runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools,
      },
      conversationId: 'loop-openai',
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'It is 21 °C in Oslo.' });
    expect(result.steps[0]?.results.map((toolResult) => toolResult.ok)).toEqual([true, false]);

    // The second model request carries the gateway's results as role: tool messages.
    const second = provider.requests[1]?.json as { messages: Array<Record<string, unknown>> };
    expect(second.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_oslo',
      content: JSON.stringify({ city: 'Oslo', temperature: 21 }),
    });
    expect(second.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_bad' });
    expect(String(second.messages[3]?.['content'])).toContain('invalid_arguments');
    expect((provider.requests[0]?.json as { tools: unknown }).tools).toEqual(tools);

    const calls = await callsRecorded('loop-openai');
    // Both calls of the turn are recorded together, so their order is not the model's.
    expect(calls.map((call) => `${call.provider}:${call.status}`).sort()).toEqual([
      'openai-chat:failed',
      'openai-chat:succeeded',
    ]);
  });

  it('runs an Anthropic loop (official @anthropic-ai/sdk client) to the final answer', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const { tools } = await toolgate.tools({ format: 'anthropic', names: [weather.name] });
    const provider = await fakeProvider(
      {
        json: anthropicMessage({
          text: 'Let me check.',
          calls: [{ id: 'toolu_rome', name: weather.name, arguments: { query: 'Rome' } }],
        }),
      },
      { json: anthropicMessage({ text: 'Rome: 21 °C.' }) },
    );
    const anthropic = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: provider.url,
      maxRetries: 0,
    });
    const result = await toolgate.runToolLoop({
      provider: 'anthropic',
      client: anthropic,
      request: {
        model: 'claude-sonnet-4-6',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
        tools,
      },
      conversationId: 'loop-anthropic',
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Rome: 21 °C.' });
    const { messages } = provider.requests[1]?.json as { messages: unknown[] };
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_rome',
          content: JSON.stringify({ city: 'Rome', temperature: 21 }),
          is_error: false,
        },
      ],
    });
    const calls = await callsRecorded('loop-anthropic');
    expect(calls.map((call) => [call.provider, call.status, call.toolVersion])).toEqual([
      ['anthropic', 'succeeded', '1.0.0'],
    ]);
  });
});

describe('streamToolCalls over official SDK streams, then executing through the registry', () => {
  it('parses an openai chat stream progressively and runs the finished calls', async () => {
    const provider = await fakeProvider({
      sse: openAIChatToolCallStream([
        { id: 'call_s1', name: weather.name, arguments: { query: 'Paris' } },
        { id: 'call_s2', name: weather.name, arguments: { query: 'Bern' } },
      ]),
    });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Paris and Bern?' }],
      stream: true,
    });
    const events = await collect(streamToolCalls('openai-chat', stream));
    expect(events.filter((event) => event.type === 'tool_call_delta').length).toBeGreaterThan(2);
    const ended = events.flatMap((event) => (event.type === 'tool_call_end' ? [event.call] : []));
    expect(ended.map((call) => [call.id, call.arguments])).toEqual([
      ['call_s1', { query: 'Paris' }],
      ['call_s2', { query: 'Bern' }],
    ]);

    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'openai-chat',
      payload: openAIChatCompletion({
        calls: ended.map((call) => ({
          id: call.id,
          name: call.name,
          arguments: call.arguments,
        })),
      }),
      conversationId: 'stream-openai',
    });
    expect(executed.results).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_s1',
        content: JSON.stringify({ city: 'Paris', temperature: 21 }),
      },
      {
        role: 'tool',
        tool_call_id: 'call_s2',
        content: JSON.stringify({ city: 'Bern', temperature: 21 }),
      },
    ]);
  });

  it('parses an anthropic messages.stream() and runs the finished call', async () => {
    const provider = await fakeProvider({
      sse: anthropicToolUseStream([
        { id: 'toolu_s1', name: weather.name, arguments: { query: 'Lima' } },
      ]),
    });
    const anthropic = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: provider.url,
      maxRetries: 0,
    });
    const stream = anthropic.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather in Lima?' }],
    });
    const events = await collect(streamToolCalls('anthropic', stream));
    expect(events).toContainEqual({ type: 'text_delta', text: 'Checking.' });
    const end = events.find((event) => event.type === 'tool_call_end');
    expect(end).toMatchObject({ call: { id: 'toolu_s1', arguments: { query: 'Lima' } } });

    // The SDK's accumulated message is the provider payload the gateway takes as it is.
    const message = await stream.finalMessage();
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'anthropic',
      payload: message,
      conversationId: 'stream-anthropic',
    });
    expect(executed.results).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_s1',
          content: JSON.stringify({ city: 'Lima', temperature: 21 }),
          is_error: false,
        },
      ],
    });
  });
});
