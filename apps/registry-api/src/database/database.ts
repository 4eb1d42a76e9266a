import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { pgPoolPort, pglitePort, type SqlPort } from '@toolgate/persistence';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { migrate, readMigrations, type MigrationResult } from './migrator';
import { pgliteSession, pgSession, type SqlSession } from './sql-session';

/** Where the registry keeps its data: a Postgres URL, or an embedded PGlite directory. */
export type DatabaseTarget =
  { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** An open database: the Prisma client for the application and a raw session for maintenance. */
export interface Database {
  readonly kind: DatabaseTarget['kind'];
  readonly prisma: PrismaClient;
  /** The call path's query port (hot-path SQL), on the same connections as `prisma`. */
  readonly sql: SqlPort;
  /** Applies pending migrations (idempotent; safe under concurrent starts). */
  migrate(migrationsDir?: string): Promise<MigrationResult>;
  /** Runs `fn` on a dedicated raw connection (advisory locks, session settings stay on it). */
  withSession<TResult>(fn: (session: SqlSession) => Promise<TResult>): Promise<TResult>;
  /** Checks that the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target.url) : openPglite(target.dataDir);
}

function openPostgres(url: string): Database {
  // One pool for Prisma's CRUD and the call path's prepared statements; 16 connections carried more
  // calls per second in bench:gateway than 10 or 20 (fewer backends contend less, too few queue).
  const pool = new pg.Pool({ connectionString: url, max: 16 });
  pool.on('error', () => {
    // An idle connection that drops is replaced on the next checkout; queries report their own errors.
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const withSession = async <TResult>(
    fn: (session: SqlSession) => Promise<TResult>,
  ): Promise<TResult> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(pgSession(client));
    } finally {
      await client.end();
    }
  };
  return {
    kind: 'postgres',
    prisma,
    sql: pgPoolPort(pool),
    withSession,
    async migrate(migrationsDir) {
      const migrations = await readMigrations(migrationsDir);
      return withSession((session) => migrate(session, migrations));
    },
    async ping() {
      await prisma.$queryRawUnsafe('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  await mkdir(dataDir, { recursive: true });
  // The migrations create pg_trgm (tool search); PGlite ships it as a module to load.
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const session = pgliteSession(pglite);
  return {
    kind: 'pglite',
    prisma,
    sql: pglitePort(pglite),
    // PGlite is a single in-process connection: every "session" is that one.
    withSession: (fn) => fn(session),
    async migrate(migrationsDir) {
      return migrate(session, await readMigrations(migrationsDir));
    },
    async ping() {
      await pglite.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
