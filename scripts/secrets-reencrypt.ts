/**
 * `npm run secrets:reencrypt`: seals every stored secret under the current TOOLGATE_SECRETS_KEY.
 * Rotate a key by setting the new one as TOOLGATE_SECRETS_KEY (`<id>:<base64>`) and the old one in
 * TOOLGATE_SECRETS_OLD_KEYS, restarting the API and workers, running this, and then dropping the
 * old key. It reads the API's settings (DATABASE_URL, else the embedded PGlite data in
 * PGLITE_DATA_DIR or .toolgate/pglite, which only one process can open: stop `npm start` first). A value rotated while it runs is left
 * as the rotation wrote it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  SecretKeyring,
  SecretStore,
  pgPoolPort,
  pglitePort,
  type SqlPort,
} from '@toolgate/persistence';
import pg from 'pg';

const root = path.resolve(__dirname, '..');

/** The API's database: DATABASE_URL, else the embedded PGlite data `npm start` keeps. */
async function openDatabase(): Promise<{ kind: string; sql: SqlPort; close(): Promise<void> }> {
  const url = process.env['DATABASE_URL']?.trim();
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    return { kind: 'postgres', sql: pgPoolPort(pool), close: () => pool.end() };
  }
  const dataDir = path.resolve(
    process.env['PGLITE_DATA_DIR']?.trim() || path.join(root, '.toolgate', 'pglite'),
  );
  if (!existsSync(dataDir)) throw new Error(`no embedded database at ${dataDir}: nothing to do`);
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  return { kind: `PGlite (${dataDir})`, sql: pglitePort(pglite), close: () => pglite.close() };
}

/** TOOLGATE_SECRETS_KEY, else the embedded default's key file, as `npm start` passes it to the API. */
function currentKey(): string | undefined {
  const set = process.env['TOOLGATE_SECRETS_KEY']?.trim();
  if (set) return set;
  const file = path.join(root, '.toolgate', 'secrets-key');
  return !process.env['DATABASE_URL'] && existsSync(file)
    ? readFileSync(file, 'utf8').trim()
    : undefined;
}

async function main(): Promise<void> {
  // The same settings, read by the same code, as the API and the worker.
  const keyring = SecretKeyring.fromSettings({
    current: currentKey(),
    old: process.env['TOOLGATE_SECRETS_OLD_KEYS'],
  });
  if (keyring === undefined) {
    process.stderr.write('TOOLGATE_SECRETS_KEY is not set: nothing to re-encrypt under.\n');
    process.exitCode = 1;
    return;
  }
  const database = await openDatabase();
  try {
    process.stdout.write(
      `Re-encrypting secrets on ${database.kind} under key ${keyring.currentKeyId}...\n`,
    );
    const report = await new SecretStore(database.sql, keyring).resealAll((progress) =>
      process.stdout.write(
        `  ${progress.total} read, ${progress.resealed} re-encrypted, ${progress.current} already current, ${progress.skipped} changed meanwhile\n`,
      ),
    );
    process.stdout.write(
      `Done: ${report.resealed} of ${report.total} secrets re-encrypted under ${keyring.currentKeyId}.\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  // Key and seal errors name settings and secrets, never values.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
