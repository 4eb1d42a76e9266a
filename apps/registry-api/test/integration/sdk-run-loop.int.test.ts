// The SDK's tool loop on a durable run, against the registry API: a loop that stops after two turns
// is resumed by a new client in another provider's dialect from the run's transcript, and no call
// runs twice. Models are scripted fake providers; the tool is an HTTP tool on a local upstream that
// counts each execution.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ToolgateNetworkError, Toolgate, turnIdempotencyKey } from '@toolgate/sdk';
import { anthropicMessage, openAIChatCompletion, startFakeProvider } from '@toolgate/sdk/testing';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

/** An upstream that answers each city's weather and counts how often each city was asked. */
interface CountingUpstream {
  server: Server;
  url: string;
  hits: Map<string, number>;
}

async function countingUpstream(): Promise<CountingUpstream> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    // The gateway sends a GET tool's arguments as the query.
    const city = new URL(request.url ?? '/', 'http://upstream').searchParams.get('city') ?? '';
    hits.set(city, (hits.get(city) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ city, temperature: 21 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, hits };
}

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let weather: TestTool;
let upstream: CountingUpstream;
const providers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  upstream = await countingUpstream();
  api = await startTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  const tool = await createTool(api, team);
  const ir = tool.ir
    .parameters({
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 } },
      required: ['city'],
    })
    .with({
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5_000, max_retries: 0 },
      protocol_meta: {
        toolgate: { executor: { kind: 'http', method: 'GET', url: `${upstream.url}/weather` } },
      },
    });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
  weather = { ...tool, ir };
});
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});
afterAll(async () => {
  await api?.close();
  upstream?.server.closeAllConnections();
  await new Promise((resolve) => upstream?.server.close(resolve));
});

async function fakeProvider(...replies: Parameters<typeof startFakeProvider>[0]) {
  const provider = await startFakeProvider(replies);
  providers.push(provider);
  return provider;
}

function hitsOf(...cities: string[]): number[] {
  return cities.map((city) => upstream.hits.get(city) ?? 0);
}

const weatherResult = (city: string) => JSON.stringify({ city, temperature: 21 });

describe('runToolLoop on a durable run', () => {
  it('resumes a run that stopped after two turns in another dialect, without running a call again', async () => {
    const first = new Toolgate({ baseUrl, apiKey: team.key });
    const run = await first.runs.create({ mode: 'react', metadata: { task: 'weather tour' } });
    const { tools: chatTools } = await first.tools({
      format: 'openai-chat',
      names: [weather.name],
    });
    const openAIModel = await fakeProvider(
      {
        json: openAIChatCompletion({
          calls: [{ id: 'call_oslo', name: weather.name, arguments: { city: 'Oslo' } }],
        }),
      },
      {
        json: openAIChatCompletion({
          calls: [{ id: 'call_rome', name: weather.name, arguments: { city: 'Rome' } }],
        }),
      },
      // The process dies on its third model call.
      { status: 500, json: { error: { message: 'the process died', type: 'server_error' } } },
    );
    const openai = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `${openAIModel.url}/v1`,
      maxRetries: 0,
    });
    const task = { role: 'user' as const, content: 'Weather in Oslo, Rome and Lima?' };
    await expect(
      first.runToolLoop({
        provider: 'openai-chat',
        client: openai,
        request: { model: 'gpt-4o', messages: [task], tools: chatTools },
        run: { id: run.id },
      }),
    ).rejects.toThrow();
    expect(openAIModel.requests).toHaveLength(3);
    expect(hitsOf('Oslo', 'Rome')).toEqual([1, 1]);
    const stopped = await first.runs.get(run.id);
    expect(stopped.status).toBe('running');
    expect(stopped.steps.map((step) => [step.kind, step.status, step.calls.length])).toEqual([
      ['turn', 'succeeded', 1],
      ['turn', 'succeeded', 1],
    ]);

    // A new process: another client, another provider, the same run.
    const second = new Toolgate({ baseUrl, apiKey: team.key });
    const { tools: anthropicTools } = await second.tools({
      format: 'anthropic',
      names: [weather.name],
    });
    const anthropicModel = await fakeProvider(
      {
        json: anthropicMessage({
          calls: [{ id: 'toolu_lima', name: weather.name, arguments: { city: 'Lima' } }],
        }),
      },
      { json: anthropicMessage({ text: 'Oslo, Rome and Lima: 21 °C each.' }) },
    );
    const anthropic = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: anthropicModel.url,
      maxRetries: 0,
    });
    const result = await second.runToolLoop({
      provider: 'anthropic',
      client: anthropic,
      request: {
        model: 'claude-sonnet-4-6',
        max_tokens: 1024,
        messages: [task],
        tools: anthropicTools,
      },
      run: { id: run.id },
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Oslo, Rome and Lima: 21 °C each.' });

    // The first request of the resumed loop holds the earlier turns as Anthropic messages.
    const { messages } = anthropicModel.requests[0]?.json as { messages: unknown[] };
    const turnOf = (id: string, city: string) => [
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: weather.name, input: { city } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: id, content: weatherResult(city), is_error: false },
        ],
      },
    ];
    expect(messages).toEqual([
      task,
      ...turnOf('call_oslo', 'Oslo'),
      ...turnOf('call_rome', 'Rome'),
    ]);
    const { messages: last } = anthropicModel.requests[1]?.json as { messages: unknown[] };
    expect(last.slice(5)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_lima', name: weather.name, input: { city: 'Lima' } },
        ],
      },
      turnOf('toolu_lima', 'Lima')[1],
    ]);
    // Nothing of the earlier turns ran again; the new turn ran once.
    expect(hitsOf('Oslo', 'Rome', 'Lima')).toEqual([1, 1, 1]);
    const ended = await second.runs.get(run.id);
    expect(ended.steps.map((step) => [step.position, step.status, step.calls[0]?.tool])).toEqual([
      [0, 'succeeded', weather.name],
      [1, 'succeeded', weather.name],
      [2, 'succeeded', weather.name],
    ]);
    const transcript = await second.runs.transcript(run.id, 'gemini');
    expect(transcript.messages).toHaveLength(6);
  });

  it('posts a turn again under the same key after its answer was lost, and its calls run once', async () => {
    // The gateway records the turn and answers; the answer is lost on the way back, once.
    let dropped = 0;
    const toolgate = new Toolgate({
      baseUrl,
      apiKey: team.key,
      sleep: () => Promise.resolve(),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).endsWith('/turns') && dropped === 0) {
          dropped += 1;
          await response.body?.cancel();
          throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        }
        return response;
      },
    });
    const run = await toolgate.runs.create({ mode: 'react' });
    const { tools } = await toolgate.tools({ format: 'openai-chat', names: [weather.name] });
    const model = await fakeProvider(
      {
        json: openAIChatCompletion({
          calls: [{ id: 'call_bern', name: weather.name, arguments: { city: 'Bern' } }],
        }),
      },
      { json: openAIChatCompletion({ text: 'Bern: 21 °C.' }) },
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    const result = await toolgate.runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Weather in Bern?' }],
        tools,
      },
      run: { id: run.id },
    });
    expect(result.stopped).toBe('final');
    expect(dropped).toBe(1);
    expect(hitsOf('Bern')).toEqual([1]);
    expect(result.steps[0]?.results).toMatchObject([{ call_id: 'call_bern', ok: true }]);
    const state = await toolgate.runs.get(run.id);
    expect(state.steps).toHaveLength(1);
  });

  it('answers a turn a crashed process posts again with the recorded calls, not running them twice', async () => {
    // A process posts its turn and dies before it reads the answer.
    const crashing = new Toolgate({
      baseUrl,
      apiKey: team.key,
      retry: { maxAttempts: 1 },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!String(input).endsWith('/turns')) return response;
        await response.body?.cancel();
        throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      },
    });
    const run = await crashing.runs.create({ mode: 'react' });
    const { tools } = await crashing.tools({ format: 'openai-chat', names: [weather.name] });
    const turn = openAIChatCompletion({
      calls: [{ id: 'call_kyiv', name: weather.name, arguments: { city: 'Kyiv' } }],
    });
    const model = await fakeProvider({ json: turn });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    await expect(
      crashing.runToolLoop({
        provider: 'openai-chat',
        client: openai,
        request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Kyiv?' }], tools },
        run: { id: run.id },
      }),
    ).rejects.toBeInstanceOf(ToolgateNetworkError);
    expect(hitsOf('Kyiv')).toEqual([1]);

    // The restarted process posts the same turn at the same place in the run.
    const restarted = new Toolgate({ baseUrl, apiKey: team.key });
    const again = await restarted.runs.turn(
      run.id,
      { provider: 'openai-chat', payload: turn },
      { idempotencyKey: turnIdempotencyKey(run.id, 0) },
    );
    expect(again.toolResults).toMatchObject([
      { call_id: 'call_kyiv', ok: true, data: { city: 'Kyiv', temperature: 21 } },
    ]);
    expect(hitsOf('Kyiv')).toEqual([1]);
    const state = await restarted.runs.get(run.id);
    expect(state.steps).toHaveLength(1);
    expect(again.calls.map((call) => call.id)).toEqual(
      state.steps[0]?.calls.map((call) => call.id),
    );
  });

  it('stops a loop on a run that was cancelled with ToolgateRunEndedError', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const run = await toolgate.runs.create({ mode: 'react' });
    await toolgate.runs.cancel(run.id);
    const model = await fakeProvider({ json: openAIChatCompletion({ text: 'never asked' }) });
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${model.url}/v1`, maxRetries: 0 });
    await expect(
      toolgate.runToolLoop({
        provider: 'openai-chat',
        client: openai,
        request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] },
        run: { id: run.id },
      }),
    ).rejects.toMatchObject({ code: 'run_ended', runId: run.id, status: 'cancelled' });
    expect(model.requests).toHaveLength(0);
  });
});
