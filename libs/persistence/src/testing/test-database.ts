import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, readMigrations } from '../migrations/migrator';
import { pgSession } from '../migrations/sql-session';

/** The Postgres server tests use; override with TOOLGATE_TEST_DATABASE_URL (any database on it). */
export const TEST_POSTGRES_URL =
  process.env['TOOLGATE_TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** A migrated database of its own for one test file; `drop` removes it. */
export interface MigratedTestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function withAdmin<TResult>(fn: (client: pg.Client) => Promise<TResult>): Promise<TResult> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates `toolgate_test_<label>_<random>` and applies prisma/migrations to it. */
export async function createMigratedTestDatabase(label: string): Promise<MigratedTestDatabase> {
  const name = `toolgate_test_${label.replace(/[^a-z0-9_]/gi, '_')}_${randomBytes(5).toString('hex')}`;
  // The name is generated here, never user input.
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await migrate(pgSession(client), await readMigrations());
  } finally {
    await client.end();
  }
  return {
    name,
    url: url.toString(),
    drop: () =>
      withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
