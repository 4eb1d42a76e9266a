import { context, propagation, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { DEFAULT_TRACE_CONTENT_MAX_BYTES, TraceContentModeSchema } from '@toolgate/engine';
import type { TraceContentOptions } from '@toolgate/engine';
import { z } from 'zod';

/** TOOLGATE_TRACE_CONTENT as a config field: `off` (default), `per_tool` or `all`. */
export const TraceContentSetting = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? 'off' : value.trim()))
  .pipe(TraceContentModeSchema);

/** TOOLGATE_TRACE_CONTENT_MAX_BYTES as a config field: the cap of one content attribute. */
export const TraceContentMaxBytesSetting = z.coerce
  .number()
  .int()
  .min(64)
  .max(1024 * 1024)
  .default(DEFAULT_TRACE_CONTENT_MAX_BYTES);

/** The engine's span-content option from the two settings. */
export function traceContentOf(settings: {
  TOOLGATE_TRACE_CONTENT: TraceContentOptions['mode'];
  TOOLGATE_TRACE_CONTENT_MAX_BYTES: number;
}): TraceContentOptions {
  return {
    mode: settings.TOOLGATE_TRACE_CONTENT,
    maxBytes: settings.TOOLGATE_TRACE_CONTENT_MAX_BYTES,
  };
}

/** A process's tracer, whether its spans leave the process, and how to flush them at shutdown. */
export interface Tracing {
  tracer: Tracer;
  /** True when spans are exported (an OTLP endpoint is configured). */
  exporting: boolean;
  shutdown(): Promise<void>;
}

export interface TracingSettings {
  /** The OTLP/HTTP base URL (`/v1/traces` is appended); unset, nothing is exported. */
  endpoint: string | undefined;
  serviceName: string;
  /** The instrumentation scope the returned tracer writes under. */
  tracerName: string;
}

/**
 * The W3C propagator and an AsyncLocalStorage context manager, installed even when nothing is
 * exported: a caller's `traceparent` must still reach queued jobs and upstreams. Registering twice
 * (a second app in one process) is refused by the API's globals and harmless.
 */
function installPropagation(): void {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const manager = new AsyncLocalStorageContextManager();
  if (context.setGlobalContextManager(manager.enable())) return;
  manager.disable();
}

/** Starts a NodeTracerProvider exporting over OTLP/HTTP when an endpoint is configured; otherwise a no-op tracer. */
export function startTracing(settings: TracingSettings): Tracing {
  installPropagation();
  const { endpoint } = settings;
  if (endpoint === undefined) {
    return {
      tracer: trace.getTracer(settings.tracerName),
      exporting: false,
      shutdown: () => Promise.resolve(),
    };
  }
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', base).toString() })),
    ],
  });
  const registered = trace.setGlobalTracerProvider(provider);
  return {
    tracer: provider.getTracer(settings.tracerName),
    exporting: true,
    shutdown: async () => {
      await provider.shutdown();
      // Frees the global for the next provider of this process (tests start several apps).
      if (registered) trace.disable();
    },
  };
}
