import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { CallStore } from '../../src/calls/call-store';
import type { NewCall } from '../../src/calls/call-repository';
import { GatewayCatalog } from '../../src/catalog/gateway-catalog';
import { migrate, readMigrations } from '../../src/migrations/migrator';
import { pglitePort } from '../../src/sql/sql-port';
import { describeCallRepositoryContract } from '../../src/testing/call-repository.contract';

// The embedded default runs the very same statements as Postgres: the same contract, on PGlite.
let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create();
  await migrate(
    {
      query: async (text, params = []) => (await db.query<never>(text, [...params])).rows,
      exec: async (script) => {
        await db.exec(script);
      },
    },
    await readMigrations(),
  );
}, 60_000);

afterAll(async () => {
  await db.close();
});

describeCallRepositoryContract('PGlite', () => {
  const port = pglitePort(db);
  const catalog = new GatewayCatalog(port);
  const calls = new CallStore(port, (toolId, version) => catalog.versionIr(toolId, version));
  const create = calls.create.bind(calls);
  return Object.assign(calls, {
    create: async (input: NewCall) => {
      const toolId = input.tool.id;
      await db.query(
        `INSERT INTO teams (id, slug, name) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING`,
        [input.caller.team, `team-${input.caller.team}`],
      );
      await db.query(
        `INSERT INTO tools (id, team_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [toolId, input.caller.team, `${input.tool.name}-${toolId}`],
      );
      await db.query(
        `INSERT INTO tool_versions (id, tool_id, version, ir, schema_version, created_by)
         VALUES (gen_random_uuid(), $1, $2, $3::jsonb, $4, 'test') ON CONFLICT DO NOTHING`,
        [toolId, input.tool.version, JSON.stringify(input.tool), input.tool.schema_version],
      );
      return create(input);
    },
  });
});
