import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/database/database';
import {
  DEFAULT_MIGRATIONS_DIR,
  migrate,
  MigrationError,
  readMigrations,
} from '../../src/database/migrator';
import { pgSession } from '../../src/database/sql-session';
import { expectedDataType, readPrismaSchema } from '../support/prisma-schema';
import { createDatabase, dropDatabase, randomDatabaseName } from '@toolgate/persistence/testing';

let name: string;
let url: string;

beforeAll(async () => {
  name = randomDatabaseName('migrate');
  url = await createDatabase(name);
});
afterAll(async () => {
  await dropDatabase(name);
});

async function query<TRow extends Record<string, unknown>>(text: string): Promise<TRow[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<TRow>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('migrator', () => {
  it('applies every migration once, even when several processes start together', async () => {
    const databases = await Promise.all(
      [0, 1, 2].map(() => openDatabase({ kind: 'postgres', url })),
    );
    try {
      const results = await Promise.all(databases.map((database) => database.migrate()));
      const applied = results.flatMap((result) => result.applied);
      const migrations = await readMigrations();
      expect(applied.sort()).toEqual(migrations.map((migration) => migration.name).sort());
      const rows = await query<{ name: string; checksum: string }>(
        'SELECT name, checksum FROM _toolgate_migrations ORDER BY name',
      );
      expect(rows).toEqual(
        migrations.map((migration) => ({ name: migration.name, checksum: migration.checksum })),
      );
      const again = await databases[0]!.migrate();
      expect(again).toEqual({
        applied: [],
        alreadyApplied: migrations.map((migration) => migration.name),
      });
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });

  it('refuses to run when an applied migration was edited', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolgate-migrations-'));
    try {
      await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      const [first] = await readMigrations(dir);
      const file = path.join(dir, first!.name, 'migration.sql');
      await writeFile(file, `${await readFile(file, 'utf8')}\n-- edited\n`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await expect(migrate(pgSession(client), await readMigrations(dir))).rejects.toThrow(
          MigrationError,
        );
        await expect(migrate(pgSession(client), await readMigrations(dir))).rejects.toThrow(
          /was changed after it was applied/,
        );
      } finally {
        await client.end();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rolls back a failing migration as a whole', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'toolgate-migrations-'));
    try {
      await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      const broken = path.join(dir, '99990101000000_broken');
      await (await import('node:fs/promises')).mkdir(broken);
      await writeFile(
        path.join(broken, 'migration.sql'),
        'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n',
      );
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await expect(migrate(pgSession(client), await readMigrations(dir))).rejects.toThrow(
          /99990101000000_broken failed/,
        );
      } finally {
        await client.end();
      }
      expect(await query(`SELECT to_regclass('half_done') AS t`)).toEqual([{ t: null }]);
      expect(
        await query(`SELECT name FROM _toolgate_migrations WHERE name = '99990101000000_broken'`),
      ).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the SQL schema matches prisma/schema.prisma', () => {
  it('has exactly the columns, types and nullability the Prisma models declare', async () => {
    const schema = readPrismaSchema();
    const enumNames = new Set(schema.enums.keys());
    const rows = await query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      udt_name: string;
    }>(`
      SELECT table_name, column_name, data_type, is_nullable, udt_name
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_toolgate_migrations'
      ORDER BY table_name, column_name`);
    const actual = rows.map((row) => ({
      column: `${row.table_name}.${row.column_name}`,
      type:
        row.data_type === 'USER-DEFINED' && row.udt_name === 'tsvector'
          ? 'tsvector'
          : row.data_type,
      nullable: row.is_nullable === 'YES',
    }));
    const expected = schema.columns
      .map((column) => ({
        column: `${column.table}.${column.column}`,
        type: expectedDataType(column, enumNames),
        nullable: column.nullable,
      }))
      .sort((left, right) => left.column.localeCompare(right.column));
    expect(actual.sort((left, right) => left.column.localeCompare(right.column))).toEqual(expected);
  });

  it('has the enums with the same values', async () => {
    const schema = readPrismaSchema();
    const rows = await query<{ name: string; values: string[] }>(`
      SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`);
    expect(rows).toEqual(
      [...schema.enums.values()]
        .map((entry) => ({ name: entry.dbName, values: entry.values }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('backs every @id, @unique and @@unique with a unique index', async () => {
    const schema = readPrismaSchema();
    const rows = await query<{ table_name: string; columns: string }>(`
      SELECT t.relname AS table_name, string_agg(a.attname, ',' ORDER BY k.ordinality) AS columns
      FROM pg_index i
      JOIN pg_class t ON t.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
      CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ordinality)
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE i.indisunique
      GROUP BY t.relname, i.indexrelid`);
    const actual = new Set(rows.map((row) => `${row.table_name}(${row.columns})`));
    for (const [table, uniques] of schema.uniques) {
      for (const columns of uniques)
        expect(actual, `${table}(${columns})`).toContain(`${table}(${columns})`);
    }
  });
});
