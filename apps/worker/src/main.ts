import { loadWorkerConfig, WorkerConfigError } from './config/worker.config';
import { createLogger } from './telemetry/logger';
import { startTracing } from './telemetry/tracing';
import { installGracefulShutdown } from './worker/graceful-shutdown';
import { startWorker } from './worker/start-worker';

async function main(): Promise<void> {
  const config = loadWorkerConfig(process.env);
  const logger = createLogger(config);
  const tracing = startTracing(config);
  const worker = await startWorker({ config, logger, tracer: tracing.tracer });
  installGracefulShutdown({
    close: (options) => worker.close(options),
    flush: () => tracing.shutdown(),
    drainTimeoutMs: config.DRAIN_TIMEOUT_MS,
    logger,
    exit: (code) => process.exit(code),
  });
  if (config.REDIS_URL === undefined) {
    logger.warn(
      {},
      `REDIS_URL is not set: using the in-process queue and ${config.DATABASE_URL === undefined ? 'in-memory' : 'Postgres'} call records (embedded mode)`,
    );
  } else if (config.DATABASE_URL === undefined) {
    logger.warn(
      {},
      'DATABASE_URL is not set: call records live in Redis, apart from the registry API (tests only)',
    );
  }
  logger.info(
    {
      tracing: tracing.exporting ? config.OTEL_EXPORTER_OTLP_ENDPOINT : 'off',
      egress: worker.egress,
    },
    `worker ready: ${worker.description}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof WorkerConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
