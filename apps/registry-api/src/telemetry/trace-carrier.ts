import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';

/** The W3C trace-context fields a caller sent, as the propagator reads them. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** A repeated header arrives as a list; only a single value is a usable trace context. */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `traceparent`/`tracestate` from the request headers; nothing when `traceparent` is absent. */
export function traceCarrierOfHeaders(headers: IncomingHttpHeaders): TraceCarrier {
  const traceparent = single(headers['traceparent']);
  if (traceparent === undefined) return {};
  const tracestate = single(headers['tracestate']);
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

// Only the fields read here are checked: the MCP transport validates the message itself.
const ToolsCallMetaSchema = z.looseObject({
  method: z.literal('tools/call'),
  params: z.looseObject({
    _meta: z.looseObject({
      traceparent: z.string(),
      tracestate: z.string().optional(),
    }),
  }),
});

/**
 * `params._meta.traceparent`/`tracestate` of an MCP `tools/call` request body: where MCP clients
 * put the trace context when they cannot set headers. Nothing for any other body.
 */
export function traceCarrierOfMcpBody(body: unknown): TraceCarrier {
  const parsed = ToolsCallMetaSchema.safeParse(body);
  if (!parsed.success) return {};
  const { traceparent, tracestate } = parsed.data.params._meta;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}
