// One trace end to end: a caller's W3C trace context enters the API (a `traceparent` header, or an
// MCP tools/call's `_meta`), the API's SERVER span and the engine's execute_tool span join it, and
// the upstream the tool calls receives it. Spans are read from a local OTLP/HTTP receiver.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  callerContext,
  closeServer,
  listen,
  SPAN_KIND_SERVER,
  startOtlpCollector,
  type OtlpCollector,
  type OtlpSpan,
} from '../support/otlp-collector';
import { startTestApp, type TestApp } from '../support/test-app';

const upstreamHeaders: IncomingHttpHeaders[] = [];
let collector: OtlpCollector;
let upstream: Server;
let upstreamUrl: string;
let api: TestApp | undefined;
let baseUrl: string;
let team: TestTeam;
let spans: OtlpSpan[] | undefined;

beforeAll(async () => {
  collector = await startOtlpCollector();
  upstream = createServer((request, response) => {
    upstreamHeaders.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' });
    // The path only: the query carries the arguments, which a result must not echo here.
    const reached = new URL(request.url ?? '/', 'http://upstream').pathname;
    response.end(JSON.stringify({ reached, session: 'sess-from-upstream' }));
  });
  upstreamUrl = await listen(upstream);
  api = await startTestApp({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'toolgate-registry-api-tracing-test',
    // Only tool versions that ask for it put their content on spans.
    TOOLGATE_TRACE_CONTENT: 'per_tool',
  });
  // The MCP client speaks HTTP, so the app listens on a real port as well.
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
  await closeServer(upstream);
  await collector.close();
});

/** Publishes a stable http tool that GETs `path` on the upstream (its content traced when `content`). */
async function httpTool(
  path: string,
  options: { parameters?: Record<string, unknown>; content?: boolean } = {},
): Promise<TestTool> {
  const tool = await createTool(api!, team);
  const ir = tool.ir.parameters(options.parameters ?? { type: 'object', properties: {} }).with({
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000, max_retries: 0 },
    protocol_meta: {
      toolgate: {
        executor: { kind: 'http', method: 'GET', url: `${upstreamUrl}${path}` },
        ...(options.content === undefined ? {} : { trace: { content: options.content } }),
      },
    },
  });
  await publish(api!, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api!, team, tool, '1.0.0');
  return tool;
}

/** The spans exported, read once the app is closed (closing flushes the batch processor). */
async function exportedSpans(): Promise<OtlpSpan[]> {
  if (spans === undefined) {
    await api?.close();
    api = undefined;
    spans = collector.spans();
  }
  return spans;
}

describe('trace context through the API', () => {
  const viaHeader = callerContext();
  const viaMeta = callerContext();
  let headerTool: TestTool;
  let metaTool: TestTool;

  it('passes a traceparent header of POST /v1/calls/ir on to the http upstream', async () => {
    headerTool = await httpTool('/orders');
    const providerCallId = `trace-${randomUUID()}`;
    const response = await api!.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      headers: { traceparent: viaHeader.traceparent, tracestate: 'caller=1' },
      body: [{ id: providerCallId, name: headerTool.name, arguments: {} }],
    });
    expect(response.status, response.text).toBe(200);
    // The call record keeps its trace id, for the console's link to the trace.
    const [row] = await api!.sql<{ id: string }>(
      'SELECT id FROM calls WHERE provider_call_id = $1',
      [providerCallId],
    );
    const call = await api!.request({ method: 'GET', url: `/v1/calls/${row!.id}`, key: team.key });
    expect(call.body.trace_id).toBe(viaHeader.traceId);
    expect(response.body.results[0]).toMatchObject({ ok: true, data: { reached: '/orders' } });
    const received = upstreamHeaders.find(
      (headers) =>
        typeof headers['traceparent'] === 'string' &&
        headers['traceparent'].includes(viaHeader.traceId),
    );
    expect(received?.['traceparent']).toMatch(
      new RegExp(`^00-${viaHeader.traceId}-[0-9a-f]{16}-01$`),
    );
    // The upstream's parent is the engine's span, not the caller's.
    expect(received?.['traceparent']).not.toContain(viaHeader.spanId);
    expect(received?.['tracestate']).toBe('caller=1');
  });

  it('passes the _meta.traceparent of an MCP tools/call on to the http upstream', async () => {
    metaTool = await httpTool('/invoices');
    const client = new Client({ name: 'toolgate-tracing-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${team.key}` } },
      }),
    );
    try {
      const result = await client.callTool({
        name: metaTool.name,
        arguments: {},
        _meta: { traceparent: viaMeta.traceparent },
      });
      expect(result['isError']).not.toBe(true);
    } finally {
      await client.close();
    }
    const received = upstreamHeaders.find(
      (headers) =>
        typeof headers['traceparent'] === 'string' &&
        headers['traceparent'].includes(viaMeta.traceId),
    );
    expect(received?.['traceparent']).toMatch(
      new RegExp(`^00-${viaMeta.traceId}-[0-9a-f]{16}-01$`),
    );
  });

  const withContent = callerContext();
  let contentTool: TestTool;

  it('runs a tool version that opts in to traced content', async () => {
    contentTool = await httpTool('/login', {
      parameters: {
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string', writeOnly: true } },
      },
      content: true,
    });
    const response = await api!.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      headers: { traceparent: withContent.traceparent },
      body: [
        {
          id: `trace-${randomUUID()}`,
          name: contentTool.name,
          arguments: { user: 'ada', password: 'hunter2-planted' },
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true });
  });

  it('exports the server span as a child of the caller and the execute_tool span in the same trace', async () => {
    const exported = await exportedSpans();
    const inTrace = exported.filter((span) => span.traceId === viaHeader.traceId);
    const server = inTrace.find((span) => span.kind === SPAN_KIND_SERVER);
    expect(server, JSON.stringify(inTrace.map((span) => span.name))).toBeDefined();
    expect(server).toMatchObject({ name: 'POST /v1/calls/ir', parentSpanId: viaHeader.spanId });
    expect(attributesOf(server!)).toMatchObject({
      'http.request.method': 'POST',
      'url.path': '/v1/calls/ir',
      'http.route': '/v1/calls/ir',
      'http.response.status_code': 200,
      // Who called, by name as well as by id, from the key the request authenticated with.
      'toolgate.team.id': team.id,
      'toolgate.team.name': team.slug,
    });
    expect(attributesOf(server!)['toolgate.api_key.name']).toMatch(/^key-/);
    const executeTool = inTrace.filter(
      (span) => attributesOf(span)['gen_ai.operation.name'] === 'execute_tool',
    );
    expect(executeTool.map((span) => span.name)).toContain(`execute_tool ${headerTool.name}`);
    // The upstream's parent is one of the engine's spans of this trace.
    const received = upstreamHeaders.find(
      (headers) =>
        typeof headers['traceparent'] === 'string' &&
        headers['traceparent'].includes(viaHeader.traceId),
    );
    const upstreamParent = String(received?.['traceparent']).split('-')[2];
    expect(executeTool.map((span) => span.spanId)).toContain(upstreamParent);
  });

  it('exports the MCP request span as a child of the _meta context', async () => {
    const exported = await exportedSpans();
    const inTrace = exported.filter((span) => span.traceId === viaMeta.traceId);
    const server = inTrace.find((span) => span.kind === SPAN_KIND_SERVER);
    expect(server).toMatchObject({ name: 'POST /mcp', parentSpanId: viaMeta.spanId });
    expect(
      inTrace.some((span) => span.name === `execute_tool ${metaTool.name}`),
      JSON.stringify(inTrace.map((span) => span.name)),
    ).toBe(true);
  });

  it('puts each step in its own span and says who called which tool version, without content the tool did not opt in to', async () => {
    const inTrace = (await exportedSpans()).filter((span) => span.traceId === viaHeader.traceId);
    const root = inTrace.find(
      (span) =>
        span.name === `execute_tool ${headerTool.name}` &&
        attributesOf(span)['toolgate.status'] !== undefined,
    );
    expect(root, JSON.stringify(inTrace.map((span) => span.name))).toBeDefined();
    const steps = inTrace
      .filter((span) => span.parentSpanId === root!.spanId)
      .map((span) => span.name);
    expect(steps).toEqual(
      expect.arrayContaining([
        'toolgate.resolve',
        'toolgate.validate',
        'toolgate.policy',
        'toolgate.rate_limit',
        `execute_tool ${headerTool.name}`,
        'toolgate.truncate',
      ]),
    );
    expect(attributesOf(root!)).toMatchObject({
      'toolgate.tool.id': headerTool.id,
      'toolgate.tool.version': '1.0.0',
      'toolgate.team.id': team.id,
      'toolgate.validation.outcome': 'ok',
      'toolgate.policy.effect': 'allow',
      'toolgate.status': 'succeeded',
      'toolgate.truncated': false,
    });
    expect(attributesOf(root!)['toolgate.api_key.id']).toEqual(expect.any(String));
    for (const span of inTrace) {
      expect(Object.keys(attributesOf(span))).not.toContain('gen_ai.tool.call.arguments');
      expect(Object.keys(attributesOf(span))).not.toContain('gen_ai.tool.call.result');
    }
  });

  it('puts the arguments, the result and the definition of an opted-in tool on its span, sensitive fields redacted', async () => {
    const exported = await exportedSpans();
    const call = callSpanOf(exported, { traceId: withContent.traceId, tool: contentTool.name });
    const attributes = attributesOf(call!);
    expect(JSON.parse(String(attributes['gen_ai.tool.call.arguments']))).toEqual({
      user: 'ada',
      password: '[redacted]',
    });
    expect(String(attributes['gen_ai.tool.call.result'])).toContain('sess-from-upstream');
    expect(JSON.parse(String(attributes['gen_ai.tool.definitions']))).toMatchObject([
      { type: 'function', name: contentTool.name },
    ]);
    expect(JSON.stringify(exported)).not.toContain('hunter2-planted');
  });
});
