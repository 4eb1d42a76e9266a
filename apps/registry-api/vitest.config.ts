import { defineProjectTestConfig } from '../../vitest.shared';

/**
 * Integration files that do not run a second time on PGlite, and why. Each of the first four already
 * runs on both databases by itself; the rest need several processes on one database (a worker, a
 * second API replica), which an embedded PGlite directory cannot serve. README.md lists them.
 */
export const POSTGRES_ONLY_FILES: Readonly<Record<string, string>> = {
  'test/integration/database.int.test.ts': 'tests the migrator and schema on both databases itself',
  'test/integration/embedded.int.test.ts': 'starts `npm start` on PGlite itself',
  'test/integration/embedded-reports.int.test.ts': 'runs on PGlite itself',
  'test/integration/call-paths.int.test.ts': 'compares Postgres + worker with PGlite itself',
  'test/integration/calls-bullmq.int.test.ts': 'worker processes share the database',
  'test/integration/catalog-changes.int.test.ts': 'a second API and a worker share the database',
  'test/integration/mcp-replicas.int.test.ts': 'a second API replica shares the database',
  'test/integration/budgets-replicas.int.test.ts':
    'two API processes and a worker share the database',
  'test/integration/faults.int.test.ts': 'kills and restarts workers and the API on one database',
  'test/integration/runs-crash.int.test.ts':
    'kills and restarts API and worker processes on one database; runs.int.test.ts covers runs on both',
  'test/integration/secrets-worker.int.test.ts': 'a worker process shares the database',
  'test/integration/mcp-client-relay-worker.int.test.ts': 'a worker process shares the database',
  'test/integration/tracing-worker.int.test.ts':
    'a worker process shares the database; tracing.int.test.ts covers the in-process queue on both',
  'test/integration/catalog-plans.int.test.ts':
    "explains Postgres's plans of the catalog's page queries; their results are tested on both",
  'test/integration/api-docs.int.test.ts':
    'drives the docs page in Chromium; the document is the same on both',
};

// Integration files each copy a migrated template database, so they can run side by side. The
// same files run twice: on Postgres, and on PGlite (the embedded default newcomers start with).
export default defineProjectTestConfig(import.meta.dirname, {
  decorators: true,
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  variants: [
    { name: 'postgres' },
    {
      name: 'pglite',
      include: ['test/integration/**/*.int.test.ts'],
      exclude: Object.keys(POSTGRES_ONLY_FILES),
      env: { TOOLGATE_TEST_DATABASE: 'pglite' },
    },
  ],
});
