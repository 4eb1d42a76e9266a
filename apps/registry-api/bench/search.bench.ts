/**
 * `npm run bench:search`: how well tool search finds the tool a query means. Builds the API in
 * process on a fresh database (embedded PGlite in a temporary directory; with DATABASE_URL, a fresh
 * `toolgate_bench_search_*` database on that server), registers and publishes the labelled catalog
 * of test/integration/__fixtures__/search-catalog.ts through the API, runs every labelled query
 * through `GET /v1/tools/search` and prints recall@3, MRR over the top 10, latency and the queries
 * that missed. BENCH_SEARCH_TOOLS=10000 first fills the database up to that many tools with private
 * copies in another team, which the measured team cannot see but every search still has to pass.
 * Everything it creates is removed at the end.
 *
 *   npm run bench:search
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npm run bench:search
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/app-config';
import { createApp } from '../src/create-app';
import { openDatabase, type DatabaseTarget } from '../src/database/database';
import { SEARCH_CATALOG, SEARCH_QUERIES } from '../test/integration/__fixtures__/search-catalog';
import {
  formatSearchMeasurement,
  measureSearch,
  seedSearchCatalog,
  type SearchBenchmarkRequest,
} from '../test/support/search-benchmark';

const GOAL_RECALL_AT_3 = 0.9;

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database to seed, and how to remove it. */
async function freshDatabase(): Promise<{ target: DatabaseTarget; remove(): Promise<void> }> {
  const serverUrl = process.env['DATABASE_URL']?.trim();
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'toolgate-bench-search-'));
    return {
      target: { kind: 'pglite', dataDir },
      remove: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `toolgate_bench_search_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: 'postgres', url: url.toString() },
    remove: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

async function main(): Promise<void> {
  const fill = Number(process.env['BENCH_SEARCH_TOOLS'] ?? 0);
  const adminKey = `bench-admin-${randomUUID()}`;
  const fresh = await freshDatabase();
  const database = await openDatabase(fresh.target);
  try {
    await database.migrate();
    const app = await createApp({
      config: loadConfig({
        ...(fresh.target.kind === 'postgres'
          ? { DATABASE_URL: fresh.target.url }
          : { PGLITE_DATA_DIR: fresh.target.dataDir }),
        TOOLGATE_ADMIN_KEY: adminKey,
        LOG_LEVEL: 'silent',
      }),
      database,
    });
    try {
      const request: SearchBenchmarkRequest = async (options) => {
        const response = await app.inject({
          method: options.method ?? 'GET',
          url: options.url,
          headers: {
            authorization: `Bearer ${options.key}`,
            ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
        });
        return { status: response.statusCode, body: response.json<unknown>() };
      };
      const fillers = Math.max(0, fill - SEARCH_CATALOG.length);
      for (let copy = 0, filled = 0; filled < fillers; copy += 1) {
        const catalog = SEARCH_CATALOG.slice(0, fillers - filled);
        await seedSearchCatalog(request, { adminKey, slug: `bench-filler-${copy}`, catalog });
        filled += catalog.length;
        process.stdout.write(`filled ${filled} of ${fillers} hidden tools\r`);
      }
      if (fillers > 0) process.stdout.write('\n');
      const key = await seedSearchCatalog(request, { adminKey, slug: 'bench-search' });
      const kind = fresh.target.kind === 'pglite' ? 'PGlite' : 'Postgres';
      process.stdout.write(
        `${kind}: ${SEARCH_CATALOG.length} catalog tools${fillers > 0 ? ` beside ${fillers} hidden ones` : ''}, ${SEARCH_QUERIES.length} labelled queries\n`,
      );
      // Warm the plan caches and the JIT once, then measure.
      await measureSearch(request, key);
      const measurement = await measureSearch(request, key);
      process.stdout.write(`${formatSearchMeasurement(measurement)}\n`);
      process.stdout.write(
        `goal recall@3 >= ${GOAL_RECALL_AT_3}: ${measurement.recallAt3 >= GOAL_RECALL_AT_3 ? 'PASS' : 'FAIL'}\n`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await fresh.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
