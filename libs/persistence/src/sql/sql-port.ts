import type pg from 'pg';

/** A statement: its text and, on the hot path, the name under which a pg connection keeps it prepared. */
export interface SqlStatement {
  /**
   * Unique per text; Postgres parses and plans a named statement once per connection. Statements
   * whose text is built per request (filters) stay unnamed.
   */
  readonly name?: string;
  readonly text: string;
}

/** What one statement returned. */
export interface SqlResult<TRow> {
  rows: TRow[];
  rowCount: number;
}

/**
 * The one query port of the call path: a pg pool (Postgres) or a PGlite instance (the embedded
 * default) behind it, so both run the very same statements.
 */
export interface SqlPort {
  readonly kind: 'postgres' | 'pglite';
  query<TRow extends Record<string, unknown>>(
    statement: SqlStatement,
    params: readonly unknown[],
  ): Promise<SqlResult<TRow>>;
}

/** Declares a named statement; names must be unique across the process's statements. */
export function sql(name: string, text: string): SqlStatement {
  return { name, text };
}

/** The pool's connections each prepare a named statement on first use and reuse it after. */
export function pgPoolPort(pool: pg.Pool): SqlPort {
  return {
    kind: 'postgres',
    async query<TRow extends Record<string, unknown>>(
      statement: SqlStatement,
      params: readonly unknown[],
    ) {
      const result = await pool.query<TRow>({
        ...(statement.name === undefined ? {} : { name: statement.name }),
        text: statement.text,
        values: [...params],
      });
      return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
    },
  };
}

/** What the port needs of a PGlite instance (kept structural, so this lib does not load PGlite). */
export interface PgliteLike {
  query<TRow>(text: string, params?: unknown[]): Promise<{ rows: TRow[]; affectedRows?: number }>;
}

/**
 * A one-dimensional array as a Postgres array literal (`{"a","b\\"c"}`), as pg sends arrays: PGlite
 * sends a JS array as `a,b`, which Postgres refuses ("malformed array literal").
 */
export function toArrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  const elements = values.map((value) =>
    value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${elements.join(',')}}`;
}

/** PGlite is one in-process connection; it plans each statement itself, so the name is not used. */
export function pglitePort(db: PgliteLike): SqlPort {
  return {
    kind: 'pglite',
    async query<TRow extends Record<string, unknown>>(
      statement: SqlStatement,
      params: readonly unknown[],
    ) {
      const values = params.map((value) =>
        Array.isArray(value)
          ? toArrayLiteral(value as (string | number | boolean | null)[])
          : value,
      );
      const result = await db.query<TRow>(statement.text, values);
      // PGlite reports affected rows for writes; a SELECT's count is its rows.
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
  };
}
