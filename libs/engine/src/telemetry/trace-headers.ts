import { context, propagation } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';

/** The W3C trace-context fields of a context, as headers (or MCP `_meta` keys) carry them. */
export interface TraceHeaders {
  traceparent?: string;
  tracestate?: string;
}

/**
 * The `traceparent`/`tracestate` of `from` (default: the active context) under the globally
 * registered propagator; empty when no propagator is registered or no span is active.
 */
export function traceHeadersOf(from: Context = context.active()): TraceHeaders {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return {
    ...(carrier['traceparent'] === undefined ? {} : { traceparent: carrier['traceparent'] }),
    ...(carrier['tracestate'] === undefined ? {} : { tracestate: carrier['tracestate'] }),
  };
}

/**
 * `headers` plus the trace-context headers, except where `headers` already has one of that name
 * (any case): a header the tool's author configured is theirs to keep.
 */
export function withTraceHeaders(
  headers: Record<string, string>,
  trace: TraceHeaders,
): Record<string, string> {
  const taken = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(trace)) {
    if (typeof value === 'string' && !taken.has(name)) added[name] = value;
  }
  return { ...added, ...headers };
}
