import type pg from 'pg';

/** The little a migration or a raw maintenance query needs from a connection: pg and PGlite alike. */
export interface SqlSession {
  /** Runs one parameterised statement and returns its rows. */
  query<TRow extends Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<TRow[]>;
  /** Runs a script of several statements (no parameters), e.g. a migration file. */
  exec(script: string): Promise<void>;
}

/** Wraps one dedicated pg connection (session state such as advisory locks stays on it). */
export function pgSession(client: pg.ClientBase): SqlSession {
  return {
    async query<TRow extends Record<string, unknown>>(
      sql: string,
      params: readonly unknown[] = [],
    ) {
      const result = await client.query<TRow>(sql, [...params]);
      return result.rows;
    },
    async exec(script: string) {
      // The simple query protocol accepts several statements in one string.
      await client.query(script);
    },
  };
}
