import { getAdapter } from '@toolgate/adapters';
import type { CallsCompleted } from '@toolgate/contract';
import { defineTool, type ToolResultIR } from '@toolgate/toolir';
import OpenAI from 'openai';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { openAIChatCompletion, startFakeProvider } from '../../test/support/fake-provider';
import { CALL_IDS } from '../../test/support/gateway-answers';
import { sendJson, startTestServer, type TestServer } from '../../test/support/test-server';
import { runToolLoop } from '../agent-loop';
import { localTools } from '../local-tools';
import { Toolgate } from '../toolgate-client';
import { hasToolCall, stepCountIs } from './stop-conditions';
import { registryTypes } from './tool-types';

const getWeather = defineTool.readonly({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).default('c') }),
  handler: ({ city, unit }) => ({ city, temperature: unit === 'c' ? 21 : 70 }),
});
const finalAnswer = defineTool.readonly({
  name: 'final_answer',
  description: 'Give the answer and end the conversation.',
  parameters: z.object({ answer: z.string() }),
  handler: ({ answer }) => ({ accepted: answer.length > 0 }),
});
const local = localTools([getWeather, finalAnswer]);

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function chatProvider(...turns: Array<Parameters<typeof openAIChatCompletion>[0]>) {
  const server = await startFakeProvider(
    turns.map((turn) => ({ json: openAIChatCompletion(turn) })),
  );
  servers.push(server);
  const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return { server, openai };
}

function sentMessages(server: TestServer, index: number): Array<Record<string, unknown>> {
  return (server.requests[index]?.json as { messages: Array<Record<string, unknown>> }).messages;
}

const weatherCall = (id: string, city = 'Oslo') => ({
  id,
  name: 'get_weather',
  arguments: { city },
});
const question: OpenAI.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  tools: local.toWire('openai-chat'),
};

describe('runToolLoop stop conditions', () => {
  it('stops after a step that called the tool hasToolCall names, without asking the model again', async () => {
    const { server, openai } = await chatProvider(
      { calls: [weatherCall('call_1')] },
      { calls: [{ id: 'call_2', name: 'final_answer', arguments: { answer: 'Mild.' } }] },
      { text: 'never asked' },
    );
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
      stopWhen: hasToolCall('final_answer'),
    });
    expect(result.stopped).toBe('stop_condition');
    expect(result.steps.map((step) => step.calls.map((call) => call.name))).toEqual([
      ['get_weather'],
      ['final_answer'],
    ]);
    expect(server.requests).toHaveLength(2);
    // The last step's results are in the conversation, ready to go on from.
    expect(result.request.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_2' });
  });

  it('stops at the first of several conditions that holds: a step count or a predicate', async () => {
    const { openai } = await chatProvider({ calls: [weatherCall('call_1')] });
    const byCount = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
      stopWhen: [hasToolCall('final_answer'), stepCountIs(2)],
    });
    expect(byCount).toMatchObject({ stopped: 'stop_condition' });
    expect(byCount.steps).toHaveLength(2);

    const byPredicate = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
      stopWhen: ({ steps }) =>
        steps.some((step) =>
          step.toolResults.some(
            (result) => !result.dynamic && result.ok && result.name === 'get_weather',
          ),
        ),
    });
    expect(byPredicate.steps).toHaveLength(1);
    expect(byPredicate.stopped).toBe('stop_condition');
  });

  it('still returns max_steps when the budget runs out first', async () => {
    const { openai } = await chatProvider({ calls: [weatherCall('call_1')] });
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
      maxSteps: 1,
      stopWhen: stepCountIs(5),
    });
    expect(result.stopped).toBe('max_steps');
  });
});

describe('runToolLoop abort', () => {
  it("stops before the next step with an aborted error when the caller's signal fires", async () => {
    const { server, openai } = await chatProvider({ calls: [weatherCall('call_1')] });
    const controller = new AbortController();
    const reason = new Error('user left');
    await expect(
      runToolLoop({
        provider: 'openai-chat',
        client: openai,
        request: question,
        execute: local,
        signal: controller.signal,
        onStep: () => controller.abort(reason),
      }),
    ).rejects.toMatchObject({
      code: 'aborted',
      cause: reason,
      message: 'the tool loop was aborted before step 1',
    });
    expect(server.requests).toHaveLength(1);
  });
});

describe('runToolLoop prepareStep', () => {
  it('sends the request prepareStep returns for that step only', async () => {
    const { server, openai } = await chatProvider(
      { calls: [weatherCall('call_1')] },
      { text: 'Mild in Oslo.' },
    );
    const seen: number[] = [];
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
      prepareStep: ({ stepNumber, steps, request }) => {
        seen.push(stepNumber, steps.length);
        // The first step must call a tool; later ones may answer on a cheaper model.
        return stepNumber === 0
          ? { ...request, tool_choice: 'required' as const }
          : { ...request, model: 'gpt-4o-mini' };
      },
    });
    expect(seen).toEqual([0, 0, 1, 1]);
    expect(server.requests.map((request) => request.json)).toMatchObject([
      { model: 'gpt-4o', tool_choice: 'required' },
      { model: 'gpt-4o-mini' },
    ]);
    expect(server.requests[1]?.json).not.toHaveProperty('tool_choice');
    expect(result.request.model).toBe('gpt-4o');
    expect(result.request).not.toHaveProperty('tool_choice');
    expect(result.text).toBe('Mild in Oslo.');
  });
});

describe('runToolLoop typed steps', () => {
  it('types calls and results of defineTool tools by name, and marks invalid and unknown calls dynamic', async () => {
    const { openai } = await chatProvider(
      {
        calls: [
          weatherCall('call_1'),
          { id: 'call_2', name: 'get_weather', arguments: { city: '' } },
          { id: 'call_3', name: 'get_time', arguments: {} },
        ],
      },
      { text: 'Done.' },
    );
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
    });
    const [step] = result.steps;
    expect(step?.toolCalls).toEqual([
      {
        dynamic: false,
        invalid: false,
        id: 'call_1',
        name: 'get_weather',
        arguments: { city: 'Oslo' },
        executedBy: 'local',
      },
      expect.objectContaining({ dynamic: true, invalid: true, id: 'call_2' }),
      expect.objectContaining({ dynamic: true, invalid: false, id: 'call_3', executedBy: 'local' }),
    ]);
    const [weather, invalid, unknown] = step!.toolResults;
    expect(weather).toMatchObject({
      dynamic: false,
      ok: true,
      data: { city: 'Oslo', temperature: 21 },
    });
    expect(invalid).toMatchObject({
      dynamic: true,
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(unknown).toMatchObject({ dynamic: true, ok: false, error: { code: 'unknown_tool' } });

    const call = step!.toolCalls[0]!;
    if (!call.dynamic && call.name === 'get_weather') {
      expectTypeOf(call.arguments).toEqualTypeOf<{ city: string; unit?: 'c' | 'f' | undefined }>();
    }
    if (weather !== undefined && !weather.dynamic && weather.ok) {
      if (weather.name === 'get_weather') {
        expectTypeOf(weather.data).toEqualTypeOf<{ city: string; temperature: number }>();
      } else {
        expectTypeOf(weather.data).toEqualTypeOf<{ accepted: boolean }>();
      }
    }
  });
});

describe('Toolgate#runToolLoop with local and gateway tools', () => {
  it('runs localTools calls in-process and posts only the others to the gateway, keeping the model order', async () => {
    const { server: provider, openai } = await chatProvider(
      {
        calls: [
          weatherCall('call_1'),
          { id: 'call_2', name: 'search_docs', arguments: { query: 'oslo' } },
        ],
      },
      { text: 'Oslo is mild; the docs agree.' },
    );
    const searched: ToolResultIR = {
      call_id: 'call_2',
      name: 'search_docs',
      ok: true,
      data: { hits: 3 },
    };
    const gateway = await startTestServer((_request, response) =>
      sendJson(response, {
        body: {
          results: getAdapter('openai-chat').resultsToWire([searched]),
          tool_results: [searched],
          calls: [{ id: CALL_IDS[0], status: 'succeeded', tool: 'search_docs', version: '1.2.0' }],
        } satisfies CallsCompleted,
      }),
    );
    servers.push(gateway);
    const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
    const result = await toolgate.runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
      execute: local,
    });
    expect(result.text).toBe('Oslo is mild; the docs agree.');
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]?.json).toMatchObject({
      provider: 'openai-chat',
      payload: {
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'search_docs', arguments: '{"query":"oslo"}' },
          },
        ],
      },
    });
    const [step] = result.steps;
    expect(step?.toolCalls.map((call) => [call.name, call.executedBy, call.dynamic])).toEqual([
      ['get_weather', 'local', false],
      ['search_docs', 'gateway', true],
    ]);
    expect(step?.results.map((toolResult) => toolResult.data)).toEqual([
      { city: 'Oslo', temperature: 21 },
      { hits: 3 },
    ]);
    // Both results go back to the model, in the order it made the calls.
    expect(sentMessages(provider, 1).slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Oslo","temperature":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"hits":3}' },
    ]);
  });

  it('types the calls and results of registry tools the client has declared types for', async () => {
    const { openai } = await chatProvider(
      {
        calls: [
          { id: 'call_1', name: 'search_docs', arguments: { query: 'oslo' } },
          { id: 'call_2', name: 'translate', arguments: { text: 'hei' } },
        ],
      },
      { text: 'Done.' },
    );
    const answered: ToolResultIR[] = [
      { call_id: 'call_1', name: 'search_docs', ok: true, data: { hits: 3 } },
      { call_id: 'call_2', name: 'translate', ok: true, data: 'hello' },
    ];
    const gateway = await startTestServer((_request, response) =>
      sendJson(response, {
        body: {
          results: getAdapter('openai-chat').resultsToWire(answered),
          tool_results: answered,
          calls: answered.map((result, index) => ({
            id: CALL_IDS[index]!,
            status: 'succeeded' as const,
            tool: result.name,
            version: '1.0.0',
          })),
        } satisfies CallsCompleted,
      }),
    );
    servers.push(gateway);
    const toolgate = new Toolgate({
      baseUrl: gateway.url,
      apiKey: 'tg_key',
      // What generated declarations of the catalog state; `translate` has none.
      types: registryTypes<{
        search_docs: { arguments: { query: string }; result: { hits: number } };
      }>(['search_docs']),
    });
    const result = await toolgate.runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: question,
    });
    const [step] = result.steps;
    expect(step?.toolCalls.map((call) => [call.name, call.dynamic, call.executedBy])).toEqual([
      ['search_docs', false, 'gateway'],
      ['translate', true, 'gateway'],
    ]);
    const [search] = step!.toolResults;
    expect(search).toMatchObject({ dynamic: false, ok: true, data: { hits: 3 } });
    const call = step!.toolCalls[0]!;
    if (!call.dynamic) expectTypeOf(call.arguments).toEqualTypeOf<{ query: string }>();
    if (search !== undefined && !search.dynamic && search.ok) {
      expectTypeOf(search.data).toEqualTypeOf<{ hits: number }>();
    }
  });
});
