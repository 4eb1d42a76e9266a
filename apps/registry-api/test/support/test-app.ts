import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { takeContractViolations } from '../../src/contract/response-check';
import { createApp, type CreateAppOptions } from '../../src/create-app';
import { openDatabase, type Database } from '../../src/database/database';
import { createDatabase, dropDatabase, randomDatabaseName } from '@toolgate/persistence/testing';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef0123456789';

export interface InjectOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: string;
  key?: string | null;
  body?: unknown;
  /** A raw payload sent as is (for malformed JSON and odd content types). */
  payload?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests probe response bodies freely
  body: any;
  text: string;
}

export interface TestApp extends AsyncDisposable {
  app: NestFastifyApplication;
  database: Database;
  databaseName: string;
  databaseUrl: string;
  request(options: InjectOptions): Promise<TestResponse>;
  /**
   * Raw SQL on the app's own database, on either kind (a separate connection on Postgres, the one
   * in-process connection on PGlite: a session setting must be reset before returning).
   */
  sql<TRow extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
  ): Promise<TRow[]>;
  close(): Promise<void>;
}

/** The API on a fresh copy of the migrated template database, driven by `inject()` (no port). */
export async function startTestApp(
  overrides: Partial<Record<string, string>> = {},
  options: { logger?: Logger; database?: 'postgres' | 'pglite' } & Pick<
    CreateAppOptions,
    'builtins' | 'approvalTtlMs' | 'defaultWaitMs'
  > = {},
): Promise<TestApp> {
  if ((options.database ?? testDatabaseKind()) === 'pglite')
    return startPgliteTestApp(overrides, options);
  const databaseName = randomDatabaseName('file');
  const url = await createDatabase(databaseName, inject('templateDatabase'));
  const config: AppConfig = loadConfig({
    DATABASE_URL: url,
    TOOLGATE_ADMIN_KEY: ADMIN_KEY,
    // TEST_LOG_LEVEL=error shows the app's log lines (e.g. a 500's cause) while debugging a test.
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'silent',
    // Every answer of the suite is held to the contract: a drift is a 500 and fails close().
    TOOLGATE_RESPONSE_CHECK: 'strict',
    // The local servers tests start stand in for third-party APIs: allow-listed as an operator
    // would. The egress tests override it with only their own server.
    TOOLGATE_EGRESS_ALLOW: '127.0.0.1,localhost',
    ...overrides,
  });
  const database = await openDatabase({ kind: 'postgres', url });
  return startOn({
    config,
    database,
    options,
    name: databaseName,
    url,
    drop: () => dropDatabase(databaseName),
  });
}

/**
 * Which database the suite runs on: CI runs the integration files twice, once on Postgres and once
 * on PGlite (the embedded default), so a feature that breaks on either is seen.
 */
export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env['TOOLGATE_TEST_DATABASE'] === 'pglite' ? 'pglite' : 'postgres';
}

/**
 * For the few tests inside an otherwise shared file that need a second process or connection on the
 * same database, which PGlite (one in-process connection) cannot give: `it.skipIf(onPglite)(...)`.
 */
export const onPglite = testDatabaseKind() === 'pglite';

/** The embedded default: the API on a fresh PGlite directory, a copy of one migrated as `npm start` migrates. */
async function startPgliteTestApp(
  overrides: Partial<Record<string, string>>,
  options: { logger?: Logger } & Pick<
    CreateAppOptions,
    'builtins' | 'approvalTtlMs' | 'defaultWaitMs'
  >,
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'toolgate-pglite-'));
  const template = inject('pgliteTemplate');
  if (template) await cp(template, dataDir, { recursive: true });
  const config: AppConfig = loadConfig({
    PGLITE_DATA_DIR: dataDir,
    TOOLGATE_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'silent',
    // Every answer of the suite is held to the contract: a drift is a 500 and fails close().
    TOOLGATE_RESPONSE_CHECK: 'strict',
    ...overrides,
  });
  const database = await openDatabase({ kind: 'pglite', dataDir });
  if (!template) await database.migrate();
  return startOn({
    config,
    database,
    options,
    name: dataDir,
    url: '',
    drop: () => rm(dataDir, { recursive: true, force: true }),
  });
}

async function startOn(input: {
  config: AppConfig;
  database: Database;
  options: { logger?: Logger } & Pick<
    CreateAppOptions,
    'builtins' | 'approvalTtlMs' | 'defaultWaitMs'
  >;
  name: string;
  url: string;
  drop: () => Promise<void>;
}): Promise<TestApp> {
  const { config, database, options } = input;
  const databaseName = input.name;
  const url = input.url;
  let app: NestFastifyApplication;
  try {
    app = await createApp({
      config,
      database,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.builtins ? { builtins: options.builtins } : {}),
      ...(options.approvalTtlMs === undefined ? {} : { approvalTtlMs: options.approvalTtlMs }),
      ...(options.defaultWaitMs === undefined ? {} : { defaultWaitMs: options.defaultWaitMs }),
    });
  } catch (error) {
    await database.close();
    await input.drop();
    throw error;
  }
  const close = async () => {
    await app.close();
    await database.close();
    await input.drop();
    const violations = takeContractViolations();
    if (violations.length > 0) {
      throw new Error(
        `answers off the HTTP contract:\n${violations.map((violation) => `${violation.operationId} ${violation.status}: ${violation.problems.join('; ')}`).join('\n')}`,
      );
    }
  };
  return {
    app,
    database,
    databaseName,
    databaseUrl: url,
    close,
    [Symbol.asyncDispose]: close,
    sql: (text, params = []) => database.withSession((session) => session.query(text, params)),
    async request(options) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? ADMIN_KEY : options.key;
      if (key !== null) headers['authorization'] = `Bearer ${key}`;
      let payload: string | Buffer | undefined = options.payload;
      if (payload === undefined && options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({
        method: options.method ?? 'GET',
        url: options.url,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
      let body: unknown = undefined;
      try {
        body = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        body = undefined;
      }
      return { status: response.statusCode, headers: response.headers, body, text: response.body };
    },
  };
}
