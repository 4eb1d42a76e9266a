// One trace end to end: a caller's W3C trace context enters the API (a `traceparent` header, or an
// MCP tools/call's `_meta`), the API's SERVER span and the engine's execute_tool span join it, and
// the upstream the tool calls receives it. Spans are read from a local OTLP/HTTP receiver.
import { randomBytes, randomUUID } from 'node:crypto';
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
import { startTestApp, type TestApp } from '../support/test-app';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean };
}
interface OtlpSpan {
  name: string;
  kind?: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

/** OTLP's SPAN_KIND_SERVER. */
const SPAN_KIND_SERVER = 2;

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(
    (span.attributes ?? []).map((attribute) => [
      attribute.key,
      attribute.value.stringValue ??
        (attribute.value.intValue === undefined
          ? attribute.value.boolValue
          : Number(attribute.value.intValue)),
    ]),
  );
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A caller's trace context: a fresh trace id and the caller's own span id. */
function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const exportBodies: string[] = [];
const upstreamHeaders: IncomingHttpHeaders[] = [];
let collector: Server;
let upstream: Server;
let upstreamUrl: string;
let api: TestApp | undefined;
let baseUrl: string;
let team: TestTeam;
let spans: OtlpSpan[] | undefined;

beforeAll(async () => {
  // The JSON flavour of OTLP/HTTP, which @opentelemetry/exporter-trace-otlp-http sends.
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      exportBodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const collectorUrl = await listen(collector);
  upstream = createServer((request, response) => {
    upstreamHeaders.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ reached: request.url }));
  });
  upstreamUrl = await listen(upstream);
  api = await startTestApp({
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_SERVICE_NAME: 'toolgate-registry-api-tracing-test',
  });
  // The MCP client speaks HTTP, so the app listens on a real port as well.
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
  await close(upstream);
  await close(collector);
});

/** Publishes a stable http tool that GETs `path` on the upstream. */
async function httpTool(path: string): Promise<TestTool> {
  const tool = await createTool(api!, team);
  const ir = tool.ir.parameters({ type: 'object', properties: {} }).with({
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000, max_retries: 0 },
    protocol_meta: {
      toolgate: { executor: { kind: 'http', method: 'GET', url: `${upstreamUrl}${path}` } },
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
    spans = exportBodies.flatMap((body) =>
      ((JSON.parse(body) as OtlpExport).resourceSpans ?? []).flatMap((resource) =>
        (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
      ),
    );
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
    const response = await api!.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      headers: { traceparent: viaHeader.traceparent, tracestate: 'caller=1' },
      body: [{ id: `trace-${randomUUID()}`, name: headerTool.name, arguments: {} }],
    });
    expect(response.status, response.text).toBe(200);
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
    });
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
});
