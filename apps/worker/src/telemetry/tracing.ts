import { trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { WorkerConfig } from '../config/worker.config';

/** The tracer the engine writes its GenAI spans to, and how to flush it at shutdown. */
export interface Tracing {
  tracer: Tracer;
  /** True when spans are exported (an OTLP endpoint is configured). */
  exporting: boolean;
  shutdown(): Promise<void>;
}

/** Starts a NodeTracerProvider exporting over OTLP/HTTP when an endpoint is configured; otherwise a no-op tracer. */
export function startTracing(
  config: Pick<WorkerConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
): Tracing {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined) {
    return {
      tracer: trace.getTracer('toolgate-worker'),
      exporting: false,
      shutdown: () => Promise.resolve(),
    };
  }
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', base).toString() })),
    ],
  });
  // Registering also installs the W3C trace-context propagator that joins jobs to their request's trace.
  provider.register();
  return {
    tracer: provider.getTracer('toolgate-worker'),
    exporting: true,
    shutdown: () => provider.shutdown(),
  };
}
