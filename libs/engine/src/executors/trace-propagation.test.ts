import type { IncomingHttpHeaders } from 'node:http';
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { startTestServer, type TestServer } from '../__fixtures__/http-test-server';
import { executeCall } from '../pipeline/execute-call';
import { createHttpExecutor } from './http-executor';
import { createMcpExecutor } from './mcp-executor';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
let servers: TestServer[] = [];

beforeAll(() => {
  // What a host (the API, the worker) installs: the W3C propagator and a context manager.
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  exporter.reset();
});
afterAll(async () => {
  await provider.shutdown();
  context.disable();
  propagation.disable();
});

/** The attempt span: the innermost execute_tool span, the one executors run under. */
function attemptSpanId(): string | undefined {
  const spans = exporter.getFinishedSpans().filter((span) => span.name.startsWith('execute_tool'));
  return spans
    .find((span) =>
      spans.some((parent) => parent.spanContext().spanId === span.parentSpanContext?.spanId),
    )
    ?.spanContext().spanId;
}

/** A local upstream that records the headers of every request it answers. */
async function recordingServer(): Promise<{ received: IncomingHttpHeaders[]; server: TestServer }> {
  const received: IncomingHttpHeaders[] = [];
  const server = await startTestServer((request, response) => {
    received.push(request.headers);
    response.setHeader('content-type', 'application/json');
    response.end('{}');
  });
  servers.push(server);
  return { received, server };
}

describe('trace context to upstreams', () => {
  it('http: sends the attempt span as traceparent, keeping a configured header of that name', async () => {
    const { received, server } = await recordingServer();
    const plain = ToolBuilder.from({ name: 'plain' })
      .constraints({ timeout_ms: 2000, max_retries: 0 })
      .executor({ kind: 'http', method: 'GET', url: `${server.url}/plain` })
      .build();
    const fixed = ToolBuilder.from({ name: 'fixed' })
      .constraints({ timeout_ms: 2000, max_retries: 0 })
      .executor({
        kind: 'http',
        method: 'GET',
        url: `${server.url}/fixed`,
        headers: { TraceParent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      })
      .build();
    const { context: engine } = createHarness({
      tools: [plain, fixed],
      executors: { http: createHttpExecutor() },
    });
    engine.tracer = tracer;
    await executeCall(callOf('plain'), engine);
    const sent = TRACEPARENT.exec(String(received[0]?.['traceparent']));
    expect(sent).not.toBeNull();
    const attempt = exporter
      .getFinishedSpans()
      .find((span) => span.spanContext().spanId === sent?.[2]);
    expect(attempt?.name).toBe('execute_tool plain');
    expect(attempt?.spanContext().traceId).toBe(sent?.[1]);
    expect(sent?.[2]).toBe(attemptSpanId());

    await executeCall(callOf('fixed'), engine);
    expect(received[1]?.['traceparent']).toBe(
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    );
  });

  it('http: sends no trace headers outside any trace', async () => {
    const { received, server } = await recordingServer();
    const tool = ToolBuilder.from({ name: 'untraced' })
      .constraints({ timeout_ms: 2000, max_retries: 0 })
      .executor({ kind: 'http', method: 'GET', url: server.url })
      .build();
    // No tracer: the engine's default one is a no-op without a registered provider.
    const { context: engine } = createHarness({
      tools: [tool],
      executors: { http: createHttpExecutor() },
    });
    await executeCall(callOf('untraced'), engine);
    expect(received[0]?.['traceparent']).toBeUndefined();
  });

  it('mcp: sends the attempt span in the HTTP headers and in the tools/call _meta', async () => {
    const headers: IncomingHttpHeaders[] = [];
    const metas: unknown[] = [];
    const server = await startTestServer((request, response) => {
      headers.push(request.headers);
      const upstream = new Server(
        { name: 'traced', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      upstream.setRequestHandler(CallToolRequestSchema, (call) => {
        metas.push(call.params._meta);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      // Stateless: one transport per request.
      const transport = new StreamableHTTPServerTransport({});
      response.on('close', () => {
        void transport.close();
        void upstream.close();
      });
      void upstream.connect(transport).then(() => transport.handleRequest(request, response));
    });
    servers.push(server);
    const tool = ToolBuilder.from({ name: 'remote' })
      .constraints({ timeout_ms: 5000 })
      .executor({ kind: 'mcp', url: `${server.url}/mcp`, tool: 'anything' })
      .build();
    const { context: engine } = createHarness({
      tools: [tool],
      executors: { mcp: createMcpExecutor() },
    });
    engine.tracer = tracer;
    const outcome = await executeCall(callOf('remote'), engine);
    expect(outcome.result).toMatchObject({ ok: true });
    const attempt = attemptSpanId();
    expect(attempt).toBeDefined();
    expect(headers.length).toBeGreaterThan(0);
    for (const sent of headers) {
      expect(TRACEPARENT.exec(String(sent['traceparent']))?.[2]).toBe(attempt);
    }
    expect(metas).toHaveLength(1);
    expect(metas[0]).toMatchObject({ traceparent: expect.stringMatching(TRACEPARENT) });
    expect(TRACEPARENT.exec((metas[0] as { traceparent: string }).traceparent)?.[2]).toBe(attempt);
  });
});
