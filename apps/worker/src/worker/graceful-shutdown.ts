import type { EngineLogger } from '@toolgate/engine';
import type { CloseReport } from '@toolgate/persistence';

/** What a graceful shutdown stops, in order. */
export interface GracefulShutdownOptions {
  /** Stops the worker; resolves once calls in flight finished or the drain timeout passed. */
  close: (options: { drainTimeoutMs: number }) => Promise<CloseReport>;
  /** Flushes telemetry after the worker stopped. */
  flush?: () => Promise<void>;
  drainTimeoutMs: number;
  logger: EngineLogger;
  /** Ends the process; injected so tests can observe the exit code. */
  exit: (code: number) => void;
  /** The process to listen on; default `process`. */
  target?: Pick<NodeJS.Process, 'on' | 'removeListener'>;
}

/**
 * On the first SIGTERM or SIGINT: stop taking jobs, let calls in flight finish (bounded by the drain
 * timeout), close connections, flush traces, exit 0 — or 1 when calls had to be left to stalled-job
 * recovery. A second signal exits 1 at once.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): () => void {
  const target = options.target ?? process;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      options.logger.warn({ signal }, 'second signal; exiting now');
      options.exit(1);
      return;
    }
    stopping = true;
    options.logger.info(
      { signal, drain_timeout_ms: options.drainTimeoutMs },
      'shutting down: draining calls in flight',
    );
    void shutDown(options).then(
      (code) => options.exit(code),
      (error: unknown) => {
        options.logger.error({ err: error }, 'shutdown failed');
        options.exit(1);
      },
    );
  };
  target.on('SIGTERM', onSignal);
  target.on('SIGINT', onSignal);
  return () => {
    target.removeListener('SIGTERM', onSignal);
    target.removeListener('SIGINT', onSignal);
  };
}

async function shutDown(options: GracefulShutdownOptions): Promise<number> {
  const report = await options.close({ drainTimeoutMs: options.drainTimeoutMs });
  await options.flush?.();
  if (report.drained) {
    options.logger.info({}, 'worker stopped; every call in flight finished');
    return 0;
  }
  options.logger.warn(
    {},
    'drain timeout passed; unfinished calls are left to stalled-job recovery',
  );
  return 1;
}
