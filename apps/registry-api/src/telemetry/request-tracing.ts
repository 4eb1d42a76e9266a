import type { IncomingMessage } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { Tracing } from '@toolgate/gateway';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MCP_ROUTE } from '../mcp/mcp-options';
import { traceCarrierOfHeaders, traceCarrierOfMcpBody, type TraceCarrier } from './trace-carrier';

const MCP_PATH = `/${MCP_ROUTE}`;

/** The context each request's code runs in: re-entered after body parsing, which loses it. */
const requestContexts = new WeakMap<IncomingMessage, Context>();

function isMcpPost(request: FastifyRequest): boolean {
  return request.method === 'POST' && request.routeOptions.url === MCP_PATH;
}

/**
 * The context a request runs in: its SERVER span (a child of the caller's trace context, if any)
 * when spans are exported; without export only the caller's context, so it still reaches queued
 * jobs and upstreams; undefined when there is neither, so such requests cost nothing.
 */
function beginRequest(
  tracing: Tracing,
  exchange: { request: FastifyRequest; reply: FastifyReply },
  carrier: TraceCarrier,
): Context | undefined {
  const { request, reply } = exchange;
  if (!tracing.exporting && carrier.traceparent === undefined) return undefined;
  const parent =
    carrier.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, carrier);
  if (!tracing.exporting) return parent;
  const route = request.routeOptions.url;
  const span = tracing.tracer.startSpan(
    route === undefined ? request.method : `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      // Started late for MCP bodies (after parsing), so dated from the request's arrival.
      startTime: Date.now() - reply.elapsedTime,
      attributes: {
        'http.request.method': request.method,
        'url.path': request.url.split('?', 1)[0] ?? request.url,
        ...(route === undefined ? {} : { 'http.route': route }),
      },
    },
    parent,
  );
  // `close` also fires for hijacked replies (MCP, event streams) and clients that hang up.
  reply.raw.once('close', () => {
    const status = reply.raw.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return trace.setSpan(parent, span);
}

/**
 * Joins each request to its caller's W3C trace: `traceparent`/`tracestate` headers, or for an MCP
 * `tools/call` without them its `params._meta`. The request's context is made active for the rest
 * of the hooks and the handler, so engine spans, upstream requests and queued jobs carry it.
 */
export function installRequestTracing(fastify: FastifyInstance, tracing: Tracing): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const carrier = traceCarrierOfHeaders(request.headers);
    // An MCP call without headers may carry the context in its body: decided once it is parsed.
    if (carrier.traceparent === undefined && isMcpPost(request)) {
      done();
      return;
    }
    const active = beginRequest(tracing, { request, reply }, carrier);
    if (active === undefined) {
      done();
      return;
    }
    requestContexts.set(request.raw, active);
    context.with(active, done);
  });
  fastify.addHook('preHandler', (request, reply, done) => {
    let active = requestContexts.get(request.raw);
    if (active === undefined && isMcpPost(request)) {
      active = beginRequest(tracing, { request, reply }, traceCarrierOfMcpBody(request.body));
      if (active !== undefined) requestContexts.set(request.raw, active);
    }
    if (active === undefined) {
      done();
      return;
    }
    context.with(active, done);
  });
}
