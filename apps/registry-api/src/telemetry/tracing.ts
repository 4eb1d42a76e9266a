import { startTracing, type Tracing } from '@toolgate/gateway';
import type { AppConfig } from '../config/app-config';

/** The API's tracing: OTLP/HTTP export when an endpoint is configured, W3C propagation always. */
export function startApiTracing(
  config: Pick<AppConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
): Tracing {
  return startTracing({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: config.OTEL_SERVICE_NAME,
    tracerName: '@toolgate/registry-api',
  });
}
