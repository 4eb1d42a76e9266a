import type { PGlite } from '@electric-sql/pglite';
import type { SqlSession } from '@toolgate/persistence';

// SqlSession and pgSession live in @toolgate/persistence beside the migrator.
export { pgSession, type SqlSession } from '@toolgate/persistence';

/** Wraps a PGlite instance: one in-process connection. */
export function pgliteSession(db: PGlite): SqlSession {
  return {
    async query<TRow extends Record<string, unknown>>(
      sql: string,
      params: readonly unknown[] = [],
    ) {
      const result = await db.query<TRow>(sql, [...params]);
      return result.rows;
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}
