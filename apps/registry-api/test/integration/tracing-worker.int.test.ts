// One trace from the app to the upstream across the queue: an app's span -> the API (SERVER span)
// -> BullMQ on the real Redis -> a worker process -> the upstream, which records the traceparent it
// got. Both processes export to one local OTLP/HTTP collector; content is on only for the tool
// version that opts in, with its sensitive field redacted.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { context, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts a real worker process through the worker's own test support */
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import {
  startWorkerProcess,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import {
  attributesOf,
  callSpanOf,
  closeServer,
  listen,
  SPAN_KIND_SERVER,
  startOtlpCollector,
  type OtlpCollector,
  type OtlpResourceSpans,
} from '../support/otlp-collector';
import { startTestApp, type TestApp } from '../support/test-app';

const prefix = createTestPrefix();
const upstreamTraceparents: string[] = [];
let collector: OtlpCollector;
let upstream: Server;
let api: TestApp | undefined;
let worker: WorkerProcess | undefined;
let redis: Redis;
let team: TestTeam;
let plainTool: TestTool;
let contentTool: TestTool;
// The app's own tracer, exporting to the same collector as the API and the worker.
let appProvider: BasicTracerProvider;

beforeAll(async () => {
  collector = await startOtlpCollector();
  appProvider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` })),
    ],
  });
  upstream = createServer((request, response) => {
    upstreamTraceparents.push(String(request.headers['traceparent']));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ session: 'sess-from-upstream' }));
  });
  const upstreamUrl = await listen(upstream);
  redis = connectTestRedis();
  const tracingEnv = {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    TOOLGATE_TRACE_CONTENT: 'per_tool',
  };
  api = await startTestApp({
    ...tracingEnv,
    OTEL_SERVICE_NAME: 'toolgate-api-e2e',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
  });
  team = await createTeam(api);
  const publishTool = async (path: string, content: boolean): Promise<TestTool> => {
    const tool = await createTool(api!, team);
    const ir = tool.ir
      .parameters({
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } },
      })
      .with({
        behavior: { readonly: true, destructive: false, idempotent: true },
        // Queued explicitly: this test is about the trace crossing the queue.
        constraints: { timeout_ms: 5_000, max_retries: 0, execution: 'queued' },
        protocol_meta: {
          toolgate: {
            executor: { kind: 'http', method: 'POST', url: `${upstreamUrl}${path}` },
            trace: { content },
          },
        },
      });
    await publish(api!, team, { ...tool, ir }, '1.0.0', ir);
    await setStable(api!, team, tool, '1.0.0');
    return tool;
  };
  plainTool = await publishTool('/plain', false);
  contentTool = await publishTool('/content', true);
  worker = await startWorkerProcess({
    name: 'tracing-worker',
    prefix,
    env: { ...tracingEnv, OTEL_SERVICE_NAME: 'toolgate-worker-e2e', DATABASE_URL: api.databaseUrl },
  });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await api?.close();
  await appProvider.shutdown();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
  await closeServer(upstream);
  await collector.close();
});

/** Calls a tool from inside an app span, its context sent as the W3C `traceparent` header. */
async function callFromApp(tool: TestTool): Promise<{ traceId: string; appSpanId: string }> {
  const tracer = appProvider.getTracer('toolgate-tracing-test-app');
  const span = tracer.startSpan('app turn');
  const headers: Record<string, string> = {};
  new W3CTraceContextPropagator().inject(trace.setSpan(context.active(), span), headers, {
    set: (carrier, key, value) => {
      carrier[key] = value;
    },
  });
  const response = await api!.request({
    method: 'POST',
    url: '/v1/calls/ir?wait_ms=15000',
    key: team.key,
    headers,
    body: [
      {
        id: `call-${randomUUID()}`,
        name: tool.name,
        arguments: { user: 'ada', password: 'hunter2-planted' },
      },
    ],
  });
  span.end();
  expect(response.status, response.text).toBe(200);
  expect(response.body.results[0], worker?.output()).toMatchObject({
    ok: true,
    data: { session: 'sess-from-upstream' },
  });
  return { traceId: span.spanContext().traceId, appSpanId: span.spanContext().spanId };
}

let resources: OtlpResourceSpans[] | undefined;

/** Every span exported, once the worker (SIGTERM flushes its spans) and the API are closed. */
async function exported(): Promise<OtlpResourceSpans[]> {
  if (resources === undefined) {
    worker!.child.kill('SIGTERM');
    await worker!.exited;
    worker = undefined;
    await api!.close();
    api = undefined;
    await appProvider.forceFlush();
    resources = collector.resources();
  }
  return resources;
}

describe('a queued call', () => {
  let plain: { traceId: string; appSpanId: string };
  let withContent: { traceId: string; appSpanId: string };

  it('runs on the worker for calls made inside app spans', async () => {
    plain = await callFromApp(plainTool);
    withContent = await callFromApp(contentTool);
    expect(upstreamTraceparents).toHaveLength(2);
  });

  it('is one trace from the app span through the API and the worker to the upstream', async () => {
    const all = await exported();
    const inTrace = all.flatMap((resource) =>
      resource.spans
        .filter((span) => span.traceId === plain.traceId)
        .map((span) => ({ ...span, service: resource.service })),
    );
    const names = JSON.stringify(inTrace.map((span) => `${span.service}: ${span.name}`));
    const server = inTrace.find((span) => span.kind === SPAN_KIND_SERVER);
    expect(server, names).toMatchObject({
      service: 'toolgate-api-e2e',
      name: 'POST /v1/calls/ir',
      parentSpanId: plain.appSpanId,
    });
    const queueWait = inTrace.find((span) => span.name === 'toolgate.queue_wait');
    expect(queueWait, names).toMatchObject({
      service: 'toolgate-worker-e2e',
      parentSpanId: server!.spanId,
    });
    expect(attributesOf(queueWait!)['toolgate.queue.wait_ms']).toEqual(expect.any(Number));
    const root = inTrace.find(
      (span) =>
        span.name === `execute_tool ${plainTool.name}` && span.parentSpanId === server!.spanId,
    );
    expect(root, names).toMatchObject({ service: 'toolgate-worker-e2e' });
    expect(attributesOf(root!)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': plainTool.name,
      'toolgate.tool.id': plainTool.id,
      'toolgate.tool.version': '1.0.0',
      'toolgate.team.id': team.id,
      'toolgate.provider.format': 'ir',
      'toolgate.validation.outcome': 'ok',
      'toolgate.policy.effect': 'allow',
      'toolgate.status': 'succeeded',
      'toolgate.attempts': 1,
    });
    expect(
      inTrace.filter((span) => span.parentSpanId === root!.spanId).map((span) => span.name),
    ).toEqual(
      expect.arrayContaining([
        'toolgate.resolve',
        'toolgate.validate',
        'toolgate.policy',
        `execute_tool ${plainTool.name}`,
        'toolgate.truncate',
      ]),
    );
    const attempt = inTrace.find(
      (span) =>
        span.name === `execute_tool ${plainTool.name}` && span.parentSpanId === root!.spanId,
    );
    expect(upstreamTraceparents[0]).toBe(`00-${plain.traceId}-${attempt!.spanId}-01`);
    for (const span of inTrace) {
      expect(Object.keys(attributesOf(span))).not.toContain('gen_ai.tool.call.arguments');
    }
  });

  it('carries the content of the tool version that opts in, its sensitive field redacted', async () => {
    const all = await exported();
    const spans = all.flatMap((resource) => resource.spans);
    const call = callSpanOf(spans, { traceId: withContent.traceId, tool: contentTool.name });
    const attributes = attributesOf(call!);
    expect(JSON.parse(String(attributes['gen_ai.tool.call.arguments']))).toEqual({
      user: 'ada',
      password: '[redacted]',
    });
    expect(String(attributes['gen_ai.tool.call.result'])).toContain('sess-from-upstream');
    expect(String(attributes['gen_ai.tool.definitions'])).toContain(contentTool.name);
    expect(JSON.stringify(all)).not.toContain('hunter2-planted');
  });
});
