import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { describeEgressPolicy } from '@toolgate/engine';
import { GATEWAY_OPTIONS, type GatewayOptions } from './calls/gateway-options';
import type { AppConfig } from './config/app-config';
import { API_PATHS, createApp } from './create-app';
import { openDatabase, type Database, type DatabaseTarget } from './database/database';
import { createLogger } from './logging/logger';
import { MCP_ROUTE } from './mcp/mcp-options';
import { SecretVault } from './secrets/secret-vault';

export interface RunningServer {
  app: NestFastifyApplication;
  database: Database;
  /** What tools may connect to (the egress policy), for the start banner. */
  egress: string;
  /** The URLs that exist, for the start banner. */
  urls: { api: string; docs: string; openapi: string; health: string; mcp: string };
  close(): Promise<void>;
}

export function databaseTarget(config: AppConfig): DatabaseTarget {
  return config.DATABASE_URL === undefined
    ? { kind: 'pglite', dataDir: path.resolve(config.PGLITE_DATA_DIR) }
    : { kind: 'postgres', url: config.DATABASE_URL };
}

/** Opens the database (PGlite when DATABASE_URL is unset), applies migrations and listens. */
export async function startServer(config: AppConfig): Promise<RunningServer> {
  const logger = createLogger(config);
  const database = await openDatabase(databaseTarget(config));
  try {
    const migrations = await database.migrate(config.TOOLGATE_MIGRATIONS_DIR);
    logger.info({ applied: migrations.applied, database: database.kind }, 'database ready');
    const app = await createApp({ config, database, logger });
    const egress = describeEgressPolicy(app.get<GatewayOptions>(GATEWAY_OPTIONS).egress.policy);
    logger.info({ egress }, 'egress policy');
    const keyring = app.get(SecretVault).keyring;
    if (keyring === undefined)
      logger.warn(
        'TOOLGATE_SECRETS_KEY is not set: the secrets routes answer 503 and tools referencing secrets fail',
      );
    else logger.info({ key_id: keyring.currentKeyId }, 'secret store ready');
    await app.listen({ port: config.PORT, host: config.HOST });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return {
      app,
      database,
      egress,
      urls: {
        api: `${base}/v1`,
        docs: `${base}${API_PATHS.docs}`,
        openapi: `${base}${API_PATHS.openapi}`,
        health: `${base}${API_PATHS.health}`,
        mcp: `${base}/${MCP_ROUTE}`,
      },
      async close() {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
