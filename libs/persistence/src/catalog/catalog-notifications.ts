import type { EngineLogger } from '@toolgate/engine';
import pg from 'pg';

/** The Postgres channel of catalog changes (tools, versions, releases, policies); the payload is empty. */
export const CATALOG_CHANNEL = 'toolgate_catalog';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/** A LISTEN that holds until stopped. */
export interface CatalogListener {
  stop(): Promise<void>;
}

/**
 * Listens on {@link CATALOG_CHANNEL} on a connection of its own (a pooled one would lose the
 * LISTEN) and calls `onChange` for every notification. A dropped connection is re-opened with
 * backoff, and `onChange` runs once more when it is back: changes made while nobody listened were
 * not announced to this process.
 */
export async function listenForCatalogChanges(input: {
  url: string;
  onChange: () => void;
  logger: EngineLogger;
}): Promise<CatalogListener> {
  let stopped = false;
  let client: pg.Client | undefined;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: input.url });
    next.on('notification', (message) => {
      if (message.channel === CATALOG_CHANNEL) input.onChange();
    });
    next.on('error', (error) => {
      input.logger.warn({ err: error }, 'catalog LISTEN connection failed; reconnecting');
      reconnect(next);
    });
    next.on('end', () => reconnect(next));
    await next.connect();
    await next.query(`LISTEN ${CATALOG_CHANNEL}`);
    client = next;
    delay = RECONNECT_MIN_MS;
  };

  const reconnect = (failed: pg.Client): void => {
    if (stopped || client !== failed) return;
    client = undefined;
    failed.end().catch(() => undefined);
    schedule();
  };

  const schedule = (): void => {
    if (stopped || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect().then(
        () => {
          input.logger.info({}, 'catalog LISTEN connection restored');
          input.onChange();
        },
        (error: unknown) => {
          input.logger.warn({ err: error, retry_ms: delay }, 'catalog LISTEN reconnect failed');
          delay = Math.min(RECONNECT_MAX_MS, delay * 2);
          schedule();
        },
      );
    }, delay);
    timer.unref();
  };

  try {
    await connect();
  } catch (error) {
    // The database may come up later (readiness says so meanwhile): keep trying in the background.
    input.logger.warn({ err: error, retry_ms: delay }, 'catalog LISTEN failed; retrying');
    schedule();
  }
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** Tells every listening process that the catalog changed; delivered only once the change committed. */
export const NOTIFY_CATALOG_CHANGE = `SELECT pg_notify('${CATALOG_CHANNEL}', '')`;
