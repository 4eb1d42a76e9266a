// An http tool whose upstream reports each call's actual cost in a header: the call record and the
// call's execute_tool span carry that amount, and the span the call's share of its turn's tokens.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createTool, publish, type TestTeam } from '../factories/registry.factory';
import {
  attributesOf,
  callSpanOf,
  callerContext,
  closeServer,
  listen,
  startOtlpCollector,
  type OtlpCollector,
} from '../support/otlp-collector';
import { startTestApp, type TestApp } from '../support/test-app';

let collector: OtlpCollector;
let upstream: Server;
let upstreamUrl: string;
let api: TestApp | undefined;
let team: TestTeam;

beforeAll(async () => {
  collector = await startOtlpCollector();
  upstream = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-cost-usd': '0.0042' });
    response.end(JSON.stringify({ quote: 12 }));
  });
  upstreamUrl = await listen(upstream);
  api = await startTestApp({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'toolgate-registry-api-cost-test',
  });
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
  await closeServer(upstream);
  await collector.close();
});

describe('the cost an http upstream reports', () => {
  it("is the call's tool cost, and is on its span with the token share", async () => {
    const tool = await createTool(api!, team);
    const ir = tool.ir
      .parameters({ type: 'object', properties: { sku: { type: 'string' } } })
      .with({
        behavior: { readonly: true, destructive: false, idempotent: true },
        constraints: {
          timeout_ms: 5_000,
          max_retries: 0,
          cost_estimate_usd: 0.5,
          cost_report: { in: 'header', name: 'X-Cost-USD' },
        },
        protocol_meta: {
          toolgate: { executor: { kind: 'http', method: 'GET', url: `${upstreamUrl}/quote` } },
        },
      });
    await publish(api!, team, { ...tool, ir }, '1.0.0', ir);

    const caller = callerContext();
    const completion = {
      id: 'chatcmpl-cost',
      object: 'chat.completion',
      created: 1741570283,
      model: 'gpt-4.1-mini-2025-04-14',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_quote',
                type: 'function',
                function: { name: tool.name, arguments: '{"sku":"A-1"}' },
              },
            ],
            refusal: null,
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 40,
        total_tokens: 1240,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    };
    const response = await api!.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      headers: { traceparent: caller.traceparent, 'idempotency-key': randomUUID() },
      body: { provider: 'openai-chat', payload: completion },
    });
    expect(response.status, response.text).toBe(200);
    const [summary] = response.body.calls as Array<{ id: string }>;
    const call = await api!.request({ url: `/v1/calls/${summary!.id}`, key: team.key });
    expect(call.status, call.text).toBe(200);
    // (176 * 0.4 + 40 * 1.6 + 1024 * 0.1) / 1e6
    const tokensUsd = 0.0002368;
    expect(call.body.cost).toMatchObject({
      tool_usd: 0.0042,
      tool_source: 'reported',
      model: 'gpt-4.1-mini-2025-04-14',
      provider: 'openai',
      tokens: { input: 176, output: 40, cache_read: 1024, cache_write: 0, reasoning: 0 },
    });
    expect(call.body.cost.tokens_usd).toBeCloseTo(tokensUsd, 12);
    expect(call.body.cost.total_usd).toBeCloseTo(0.0042 + tokensUsd, 12);

    // Closing the app flushes its spans.
    await api!.close();
    api = undefined;
    const span = callSpanOf(collector.spans(), { traceId: caller.traceId, tool: tool.name });
    expect(span).toBeDefined();
    const attributes = attributesOf(span!);
    expect(attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.request.model': 'gpt-4.1-mini-2025-04-14',
      'toolgate.cost.tokens.cache_read': 1024,
      'toolgate.cost.tool_usd': 0.0042,
      'toolgate.cost.tool_source': 'reported',
    });
    expect(attributes['toolgate.cost.tokens_usd']).toBeCloseTo(tokensUsd, 12);
  });
});
