import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { CallsCompleted } from '@toolgate/contract';
import { defineTool } from '@toolgate/toolir';
import OpenAI from 'openai';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startFakeProvider } from '../test/support/fake-provider';
import { CALL_IDS } from '../test/support/gateway-answers';
import { sendJson, startTestServer, type TestServer } from '../test/support/test-server';
import { runToolLoop } from './agent-loop';
import { localTools } from './local-tools';
import { Toolgate } from './toolgate-client';

const fields = {
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000 },
};
const getWeather = defineTool({
  ...fields,
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string().min(1) }),
  handler: ({ city }) => ({ city, temperature: 21 }),
});
const tools = localTools([getWeather]);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Replays recorded-shape responses in order, one per request. */
async function fakeProvider(responses: readonly unknown[]): Promise<TestServer> {
  server = await startFakeProvider(responses.map((json) => ({ json })));
  return server;
}

const chatToolCalls = {
  id: 'chatcmpl-AbC123',
  object: 'chat.completion',
  created: 1_764_000_000,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_Paris',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_Bad',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":""}' },
          },
        ],
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 82, completion_tokens: 40, total_tokens: 122 },
  system_fingerprint: 'fp_abc',
};
const chatFinal = {
  ...chatToolCalls,
  id: 'chatcmpl-AbC124',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'It is 21 °C in Paris.',
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
};

describe('runToolLoop', () => {
  it('runs as an invoke_agent span when given a tracer', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const http = await fakeProvider([chatToolCalls, chatFinal]);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris?' }] },
      execute: tools,
      conversationId: 'conv-7',
      tracer: provider.getTracer('app'),
    });
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('invoke_agent toolgate.tool_loop');
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.conversation.id': 'conv-7',
      'toolgate.provider.format': 'openai-chat',
      'toolgate.loop.steps': 1,
      'toolgate.loop.stopped': 'final',
    });
    await provider.shutdown();
  });

  it('runs an OpenAI Chat loop with the official client and local tools', async () => {
    const http = await fakeProvider([chatToolCalls, chatFinal]);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const request: OpenAI.ChatCompletionCreateParamsNonStreaming = {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
      ],
    };
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request,
      execute: tools,
    });
    expect(result.stopped).toBe('final');
    expect(result.text).toBe('It is 21 °C in Paris.');
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]!.calls.map((call) => call.id)).toEqual(['call_Paris', 'call_Bad']);
    expect(result.steps[0]!.results.map((toolResult) => toolResult.ok)).toEqual([true, false]);
    expect(http.requests.map((recorded) => recorded.url)).toEqual([
      '/v1/chat/completions',
      '/v1/chat/completions',
    ]);
    const second = http.requests[1]!.json as { messages: Array<Record<string, unknown>> };
    expect(second.messages).toHaveLength(4);
    expect(second.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: chatToolCalls.choices[0]!.message.tool_calls,
    });
    expect(second.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_Paris',
      content: JSON.stringify({ city: 'Paris', temperature: 21 }),
    });
    expect(second.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_Bad' });
    expect(second.messages[3]!['content']).toContain('invalid_arguments');
    // The caller's request is not mutated; the returned one holds the whole conversation.
    expect(request.messages).toHaveLength(1);
    expect(result.request.messages).toHaveLength(4);
  });

  it('runs an OpenAI Responses loop: output items, then function_call_output items, are appended to input', async () => {
    const functionCall = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_R1',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
      status: 'completed',
    };
    const base = {
      object: 'response',
      created_at: 1_764_000_000,
      status: 'completed',
      model: 'gpt-4.1',
      parallel_tool_calls: true,
      tools: [],
    };
    const http = await fakeProvider([
      {
        ...base,
        id: 'resp_1',
        output: [{ type: 'reasoning', id: 'rs_1', summary: [] }, functionCall],
      },
      {
        ...base,
        id: 'resp_2',
        output: [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'Oslo: 21 °C.', annotations: [] }],
          },
        ],
      },
    ]);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${http.url}/v1`, maxRetries: 0 });
    const result = await runToolLoop({
      provider: 'openai-responses',
      client: openai,
      request: { model: 'gpt-4.1', input: 'Weather in Oslo?' },
      execute: tools,
    });
    expect(result.text).toBe('Oslo: 21 °C.');
    expect(http.requests[1]!.url).toBe('/v1/responses');
    expect((http.requests[1]!.json as { input: unknown[] }).input).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      functionCall,
      {
        type: 'function_call_output',
        call_id: 'call_R1',
        output: JSON.stringify({ city: 'Oslo', temperature: 21 }),
      },
    ]);
  });

  const anthropicToolUse = {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Rome' } },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 300, output_tokens: 50 },
  };
  const anthropicFinal = {
    ...anthropicToolUse,
    id: 'msg_02',
    content: [{ type: 'text', text: 'Rome: 21 °C.' }],
    stop_reason: 'end_turn',
  };

  it('runs an Anthropic loop with the official client: assistant content, then one user message of tool_result blocks', async () => {
    const http = await fakeProvider([anthropicToolUse, anthropicFinal]);
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: http.url, maxRetries: 0 });
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Weather in Rome?' }],
    };
    const result = await runToolLoop({
      provider: 'anthropic',
      client: anthropic,
      request,
      execute: tools,
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Rome: 21 °C.' });
    expect(http.requests[1]!.url).toBe('/v1/messages');
    const { messages } = http.requests[1]!.json as { messages: unknown[] };
    expect(messages).toEqual([
      { role: 'user', content: 'Weather in Rome?' },
      { role: 'assistant', content: anthropicToolUse.content },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01',
            content: JSON.stringify({ city: 'Rome', temperature: 21 }),
            is_error: false,
          },
        ],
      },
    ]);
  });

  it('stops with stopped: max_steps when the model keeps calling tools', async () => {
    const http = await fakeProvider([anthropicToolUse]);
    const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: http.url, maxRetries: 0 });
    const result = await runToolLoop({
      provider: 'anthropic',
      client: anthropic,
      request: {
        model: 'claude-sonnet-4-6',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Loop' }],
      },
      execute: tools,
      maxSteps: 2,
    });
    expect(result.stopped).toBe('max_steps');
    expect(result.steps).toHaveLength(2);
    expect(http.requests).toHaveLength(3);
  });

  it('runs a Gemini loop with a structural client: model content, then a user content of functionResponse parts', async () => {
    const requests: unknown[] = [];
    const responses = [
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Lima' } } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
      },
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Lima: 21 °C.' }] }, finishReason: 'STOP' },
        ],
      },
    ];
    const gemini = {
      models: {
        generateContent: vi.fn((request: { model: string; contents: unknown }) => {
          requests.push(structuredClone(request));
          return Promise.resolve(responses[requests.length - 1]);
        }),
      },
    };
    const result = await runToolLoop({
      provider: 'gemini',
      client: gemini,
      request: { model: 'gemini-2.5-flash', contents: 'Weather in Lima?' },
      execute: tools,
    });
    expect(result.text).toBe('Lima: 21 °C.');
    expect((requests[1] as { contents: unknown[] }).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Lima?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Lima' } } }],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'fc-1',
              name: 'get_weather',
              response: { output: { city: 'Lima', temperature: 21 } },
            },
          },
        ],
      },
    ]);
  });

  it('runs a Gemini loop with the official @google/genai client', async () => {
    const usageMetadata = { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 };
    const http = await fakeProvider([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Quito' } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata,
        modelVersion: 'gemini-2.5-flash',
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Quito: 21 °C.' }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata,
        modelVersion: 'gemini-2.5-flash',
      },
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: http.url } });
    const result = await runToolLoop({
      provider: 'gemini',
      client: ai,
      request: { model: 'gemini-2.5-flash', contents: 'Weather in Quito?' },
      execute: tools,
    });
    expect(result.text).toBe('Quito: 21 °C.');
    expect(http.requests[1]!.url).toMatch(/models\/gemini-2\.5-flash:generateContent$/);
    const { contents } = http.requests[1]!.json as { contents: unknown[] };
    expect(contents).toHaveLength(3);
    // A call without an id gets a synthesized one; its functionResponse then carries the name only.
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'get_weather',
            response: { output: { city: 'Quito', temperature: 21 } },
          },
        },
      ],
    });
  });

  it('executes through the gateway from Toolgate#runToolLoop, posting the model response with an Idempotency-Key', async () => {
    const provider = await fakeProvider([anthropicToolUse, anthropicFinal]);
    const providerServer = provider;
    server = undefined;
    const wire = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01',
          content: '{"temperature":19}',
          is_error: false,
        },
      ],
    };
    const completed = {
      results: wire,
      calls: [{ id: CALL_IDS[0], status: 'succeeded', tool: 'get_weather', version: '1.0.0' }],
    } satisfies CallsCompleted;
    const gateway = await startTestServer((_request, response) =>
      sendJson(response, { body: completed }),
    );
    try {
      const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
      const anthropic = new Anthropic({
        apiKey: 'sk-ant-test',
        baseURL: providerServer.url,
        maxRetries: 0,
      });
      const result = await toolgate.runToolLoop({
        provider: 'anthropic',
        client: anthropic,
        request: {
          model: 'claude-sonnet-4-6',
          max_tokens: 1024,
          messages: [{ role: 'user', content: 'Weather in Rome?' }],
        },
        conversationId: 'conv-7',
      });
      expect(result.stopped).toBe('final');
      expect(result.steps[0]!.results).toMatchObject([
        { call_id: 'toolu_01', name: 'get_weather', ok: true },
      ]);
      const [posted] = gateway.requests;
      expect(posted!.json).toMatchObject({
        provider: 'anthropic',
        payload: anthropicToolUse,
        conversation_id: 'conv-7',
      });
      expect(posted!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect((providerServer.requests[1]!.json as { messages: unknown[] }).messages[2]).toEqual(
        wire,
      );
    } finally {
      await gateway.close();
      await providerServer.close();
    }
  });

  it('refuses to run without an executor or a gateway', async () => {
    await expect(
      runToolLoop({
        provider: 'anthropic',
        client: { messages: { create: () => Promise.resolve({}) } },
        request: { messages: [] },
      }),
    ).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
