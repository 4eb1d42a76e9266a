import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlSession } from './sql-session';

/** prisma/migrations at the workspace root, wherever this module runs from (src or dist). */
export const DEFAULT_MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../prisma/migrations',
);

// Any constant works as long as every process uses the same one: 'tgmigrate' in ASCII.
const MIGRATION_LOCK_KEY = 0x74676d6967726174n;

export interface Migration {
  /** The folder name, e.g. `20261129000000_init`; folders apply in lexical order. */
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Raised when the database and the migration files disagree; never auto-repaired. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Reads `<dir>/<name>/migration.sql` for every migration folder, ordered by name. */
export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      // Normalise line endings so a checkout on Windows does not change every checksum.
      const sql = (await readFile(path.join(dir, name, 'migration.sql'), 'utf8')).replace(
        /\r\n/g,
        '\n',
      );
      return { name, sql, checksum: sha256Hex(sql) };
    }),
  );
}

interface AppliedRow extends Record<string, unknown> {
  name: string;
  checksum: string;
}

/**
 * Applies pending migrations in order, each in its own transaction, and records them in
 * `_toolgate_migrations`. A session advisory lock makes concurrent starts wait for each other;
 * an applied migration whose file changed since is refused rather than silently skipped.
 */
export async function migrate(
  session: SqlSession,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
  try {
    await session.exec(`CREATE TABLE IF NOT EXISTS _toolgate_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const appliedRows = await session.query<AppliedRow>(
      'SELECT name, checksum FROM _toolgate_migrations ORDER BY name',
    );
    const applied = new Map(appliedRows.map((row) => [row.name, row.checksum]));
    const known = new Set(migrations.map((migration) => migration.name));
    for (const name of applied.keys()) {
      if (!known.has(name)) {
        throw new MigrationError(
          `migration ${name} is applied in the database but missing from the migrations folder`,
        );
      }
    }
    const result: MigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new MigrationError(
            `migration ${migration.name} was changed after it was applied (checksum ${checksum} in the database, ${migration.checksum} on disk); add a new migration instead`,
          );
        }
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await session.exec('BEGIN');
      try {
        await session.exec(migration.sql);
        await session.query('INSERT INTO _toolgate_migrations (name, checksum) VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        await session.exec('COMMIT');
      } catch (error) {
        await session.exec('ROLLBACK');
        throw new MigrationError(
          `migration ${migration.name} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
  }
}
