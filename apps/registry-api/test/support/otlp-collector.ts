// A local OTLP/HTTP collector for tracing tests: it keeps every export it receives and reads the
// spans out of them (the JSON flavour, which @opentelemetry/exporter-trace-otlp-http sends).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface OtlpAttribute {
  key: string;
  value: {
    stringValue?: string;
    intValue?: string | number;
    doubleValue?: number;
    boolValue?: boolean;
    arrayValue?: { values?: Array<{ stringValue?: string }> };
  };
}

/** One exported span, as OTLP/JSON writes it. */
export interface OtlpSpan {
  name: string;
  kind?: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: OtlpAttribute[];
}

/** The resource and its spans, so a test can tell the API's spans from the worker's. */
export interface OtlpResourceSpans {
  service: string | undefined;
  spans: OtlpSpan[];
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpSpan[] }>;
  }>;
}

/** OTLP's SPAN_KIND_SERVER. */
export const SPAN_KIND_SERVER = 2;

function valueOf(attribute: OtlpAttribute): unknown {
  const { value } = attribute;
  if (value.arrayValue !== undefined)
    return (value.arrayValue.values ?? []).map((item) => item.stringValue);
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue;
}

/** A span's attributes as a plain record (ints and doubles as numbers, string arrays as arrays). */
export function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries((span.attributes ?? []).map((item) => [item.key, valueOf(item)]));
}

/** The `execute_tool <tool>` span of a whole call in a trace (not one of its attempts'). */
export function callSpanOf(
  spans: readonly OtlpSpan[],
  input: { traceId: string; tool: string },
): OtlpSpan | undefined {
  return spans.find(
    (span) =>
      span.traceId === input.traceId &&
      span.name === `execute_tool ${input.tool}` &&
      attributesOf(span)['toolgate.status'] !== undefined,
  );
}

/** Listens on a free local port; resolves with its base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server, dropping its keep-alive connections. */
export async function closeServer(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A caller's trace context, as an app's own span would send it: a fresh trace id and span id. */
export function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** A running collector: its URL and what it received so far. */
export interface OtlpCollector {
  url: string;
  /** Every span received, with the service that sent it. */
  resources(): OtlpResourceSpans[];
  /** Every span received. */
  spans(): OtlpSpan[];
  close(): Promise<void>;
}

/** Starts a collector on a free local port. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = await listen(server);
  const resources = (): OtlpResourceSpans[] =>
    bodies.flatMap((body) =>
      ((JSON.parse(body) as OtlpExport).resourceSpans ?? []).map((resource) => ({
        service: (resource.resource?.attributes ?? []).find(
          (attribute) => attribute.key === 'service.name',
        )?.value.stringValue,
        spans: (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
      })),
    );
  return {
    url,
    resources,
    spans: () => resources().flatMap((resource) => resource.spans),
    close: () => closeServer(server),
  };
}
