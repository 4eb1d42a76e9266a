import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the tests use; override with TOOLGATE_TEST_DATABASE_URL (any database on it). */
export const TEST_SERVER_URL =
  process.env['TOOLGATE_TEST_DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_DATABASE_PREFIX = 'toolgate_test_';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<TResult>(
  fn: (client: pg.Client) => Promise<TResult>,
): Promise<TResult> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

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
