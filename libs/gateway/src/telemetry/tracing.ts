import { context, propagation, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

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
