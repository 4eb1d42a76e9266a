import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, readMigrations } from '../migrations/migrator';
import { pgSession } from '../migrations/sql-session';

/** The Postgres server tests use; override with TOOLGATE_TEST_DATABASE_URL (any database on it). */
export const TEST_POSTGRES_URL =
  process.env['TOOLGATE_TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const TEST_DATABASE_PREFIX = 'toolgate_test_';

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` with a connection to the test server's admin database, closed afterwards. */
async function withAdminClient<TResult>(
  fn: (client: pg.Client) => Promise<TResult>,
): Promise<TResult> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** `toolgate_test_<label>_<random>`. */
export function randomDatabaseName(label: string): string {
  return `${TEST_DATABASE_PREFIX}${label}_${randomBytes(5).toString('hex')}`;
}

/** Creates an empty database (or a copy of `template`); names are generated, never user input. */
export async function createDatabase(name: string, template?: string): Promise<string> {
  await withAdminClient((client) =>
    client.query(
      `CREATE DATABASE "${name}"${template === undefined ? '' : ` TEMPLATE "${template}"`}`,
    ),
  );
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** A migrated database of its own for one test file; `drop` removes it. */
export interface MigratedTestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates `toolgate_test_<label>_<random>` and applies prisma/migrations to it. */
export async function createMigratedTestDatabase(label: string): Promise<MigratedTestDatabase> {
  const name = randomDatabaseName(label.replace(/[^a-z0-9_]/gi, '_'));
  const url = await createDatabase(name);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await migrate(pgSession(client), await readMigrations());
  } finally {
    await client.end();
  }
  return { name, url, drop: () => dropDatabase(name) };
}
