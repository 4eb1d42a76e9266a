import { startTracing as startProcessTracing, type Tracing } from '@toolgate/gateway';
import type { WorkerConfig } from '../config/worker.config';

export type { Tracing } from '@toolgate/gateway';

/** The worker's tracing: OTLP/HTTP export when an endpoint is configured, W3C propagation always. */
export function startTracing(
  config: Pick<WorkerConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
): Tracing {
  return startProcessTracing({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: config.OTEL_SERVICE_NAME,
    tracerName: 'toolgate-worker',
  });
}
