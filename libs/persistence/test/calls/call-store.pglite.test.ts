import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallStore } from '../../src/calls/call-store';
import type { NewCall } from '../../src/calls/call-repository';
import { GatewayCatalog } from '../../src/catalog/gateway-catalog';
import { migrate, readMigrations } from '../../src/migrations/migrator';
import { pglitePort } from '../../src/sql/sql-port';
import { describeCallRepositoryContract } from '../../src/testing/call-repository.contract';
import { TEST_CALLER, buildCall, buildTool } from '../../src/testing/tool.factory';

// The embedded default runs the very same statements as Postgres: the same contract, on PGlite.
let db: PGlite;

beforeAll(async () => {
  db = await PGlite.create({ extensions: { pg_trgm } });
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

describe('CallStore on PGlite: calls held for approval', () => {
  it('puts a call back in the queue once its approval is settled, only then, and only once', async () => {
    const port = pglitePort(db);
    const catalog = new GatewayCatalog(port);
    const calls = new CallStore(port, (toolId, version) => catalog.versionIr(toolId, version));
    const tool = buildTool();
    const call = buildCall(tool);
    await db
      .query(`INSERT INTO teams (id, slug, name) VALUES ($1, $2, $2)`, [
        TEST_CALLER.team,
        `team-held-${tool.id}`,
      ])
      .catch(() => undefined);
    await db.query(`INSERT INTO tools (id, team_id, name) VALUES ($1, $2, $3)`, [
      tool.id,
      TEST_CALLER.team,
      `held-${tool.id}`,
    ]);
    await calls.create({ call, tool, caller: TEST_CALLER });
    await db.query(`UPDATE calls SET status = 'awaiting_approval' WHERE id = $1`, [call.id]);
    await db.query(
      `INSERT INTO approvals (id, call_id, team_id, tool_id, tool_version, arguments_hash, reason,
                              requested_by, expires_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'h', 'destructive', 'k', now() + interval '1 hour')`,
      [call.id, TEST_CALLER.team, tool.id, tool.version],
    );
    expect(await calls.requeueDecided()).toEqual([]);
    await db.query(`UPDATE approvals SET status = 'approved' WHERE call_id = $1`, [call.id]);
    expect(await calls.requeueDecided([call.id])).toEqual([call.id]);
    expect(await calls.requeueDecided()).toEqual([]);
    expect((await calls.findRow(call.id))?.status).toBe('queued');
  });
});

describe('CallStore on PGlite: the history of pickups', () => {
  it('keeps the first start and every pickup across an approval wait and a cancel', async () => {
    const port = pglitePort(db);
    const catalog = new GatewayCatalog(port);
    const calls = new CallStore(port, (toolId, version) => catalog.versionIr(toolId, version));
    const tool = buildTool();
    const call = buildCall(tool);
    await db
      .query(`INSERT INTO teams (id, slug, name) VALUES ($1, $2, $2)`, [
        TEST_CALLER.team,
        `team-runs-${tool.id}`,
      ])
      .catch(() => undefined);
    await db.query(`INSERT INTO tools (id, team_id, name) VALUES ($1, $2, $3)`, [
      tool.id,
      TEST_CALLER.team,
      `runs-${tool.id}`,
    ]);
    await db.query(
      `INSERT INTO tool_versions (id, tool_id, version, ir, schema_version, created_by)
       VALUES (gen_random_uuid(), $1, $2, $3::jsonb, $4, 'test')`,
      [tool.id, tool.version, JSON.stringify(tool), tool.schema_version],
    );
    await calls.create({ call, tool, caller: TEST_CALLER });
    const first = { worker_id: 'w1', attempt: 1, run_id: 'r1', started_at: 1_000_000 };
    expect((await calls.claim(call.id, first)).claimed).toBe(true);
    const waiting = {
      status: 'awaiting_approval' as const,
      result: { call_id: call.id, name: tool.name, ok: false },
      attempts: 0,
      latency_ms: 1,
      answered_by: undefined,
      finished_at: 1_000_500,
    };
    expect(await calls.recordOutcome(call.id, { runId: 'r1', outcome: waiting })).toBe(true);
    await db.query(`UPDATE calls SET status = 'queued' WHERE id = $1`, [call.id]);
    const second = { worker_id: 'w2', attempt: 1, run_id: 'r2', started_at: 2_000_000 };
    const claimed = await calls.claim(call.id, second);
    expect(claimed).toMatchObject({ claimed: true, record: { run: second } });
    await calls.cancel(call.id, { ok: false });

    const row = await calls.findRow(call.id);
    expect(row?.startedAt?.getTime()).toBe(first.started_at);
    expect(row?.runs).toEqual([
      { ...first, ended: { state: 'awaiting_approval', at: 1_000_500, attempts: 0 } },
      { ...second, ended: { state: 'cancelled', at: expect.any(Number), attempts: 0 } },
    ]);
  });
});
