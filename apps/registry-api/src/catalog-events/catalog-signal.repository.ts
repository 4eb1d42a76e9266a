import { Inject, Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import type { AppConfig } from '../config/app-config';
import type { Database } from '../database/database';
import { APP_CONFIG, DATABASE } from '../database/database.tokens';

/** The Postgres channel every replica listens on; the payload is empty (the audit chain is the news). */
export const CATALOG_CHANNEL = 'toolgate_catalog';

/**
 * Postgres LISTEN/NOTIFY between API replicas: a replica that changed a release says so on
 * {@link CATALOG_CHANNEL}, and every replica with MCP sessions reads the audit chain at once
 * instead of at its next poll. Embedded PGlite is one process, so there it does nothing.
 */
@Injectable()
export class CatalogSignalRepository {
  private readonly logger = new Logger(CatalogSignalRepository.name);

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Tells the other replicas the catalog changed; NOTIFY is delivered only once the change committed. */
  async signal(): Promise<void> {
    if (this.database.kind !== 'postgres') return;
    await this.database.prisma.$executeRaw`SELECT pg_notify(${CATALOG_CHANNEL}, '')`;
  }

  /**
   * Listens on its own connection (a pooled one would lose the LISTEN) until the returned stop
   * function runs. A dropped connection is logged, not retried: the caller's poll still finds
   * every change, only later.
   */
  async listen(onSignal: () => void): Promise<() => Promise<void>> {
    const url = this.config.DATABASE_URL;
    if (this.database.kind !== 'postgres' || url === undefined) return () => Promise.resolve();
    const client = new pg.Client({ connectionString: url });
    client.on('error', (error) => {
      this.logger.warn(`catalog LISTEN connection failed: ${error.message}`);
    });
    client.on('notification', (message) => {
      if (message.channel === CATALOG_CHANNEL) onSignal();
    });
    await client.connect();
    try {
      await client.query(`LISTEN ${CATALOG_CHANNEL}`);
    } catch (error) {
      await client.end();
      throw error;
    }
    return () => client.end().catch(() => undefined);
  }
}
