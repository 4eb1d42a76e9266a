import pino from 'pino';
import type { Logger } from 'pino';
import type { WorkerConfig } from '../config/worker.config';

/** The worker's structured logger (JSON lines on stdout); call arguments are never logged. */
export function createLogger(config: Pick<WorkerConfig, 'LOG_LEVEL' | 'WORKER_ID'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service: 'worker', worker_id: config.WORKER_ID },
    redact: { paths: ['arguments', '*.arguments', 'headers.authorization'], censor: '[redacted]' },
  });
}
