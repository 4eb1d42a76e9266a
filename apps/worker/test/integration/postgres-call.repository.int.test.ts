import { CallStore, GatewayCatalog, isClaimed, pgPoolPort } from '@toolgate/persistence';
import type { NewCall } from '@toolgate/persistence';
import { createMigratedTestDatabase } from '@toolgate/persistence/testing';
import type { MigratedTestDatabase } from '@toolgate/persistence/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCallRepositoryContract } from '@toolgate/persistence/testing';
import type { SeedableCallRepository } from '@toolgate/persistence/testing';
import { seedRegistryTool } from '../support/postgres-catalog';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';

let database: MigratedTestDatabase;
let pool: pg.Pool;
const poolErrors: Error[] = [];

// Postgres' code for a connection ended by an administrator: what dropping the test database does to
// a pooled connection still closing. Any other error on an idle connection fails the file.
const ADMIN_SHUTDOWN = '57P01';

beforeAll(async () => {
  database = await createMigratedTestDatabase('worker_calls');
  pool = new pg.Pool({ connectionString: database.url, max: 12 });
  // Without a listener, an error on an idle pooled connection is an unhandled error event.
  pool.on('error', (error: Error & { code?: string }) => {
    if (error.code !== ADMIN_SHUTDOWN) poolErrors.push(error);
  });
});

afterAll(async () => {
  await pool.end();
  await database.drop();
  expect(poolErrors).toEqual([]);
});

/** The repository, recording calls as the API does after putting their tool in the registry. */
function seedable(): SeedableCallRepository {
  const db = pgPoolPort(pool);
  const catalog = new GatewayCatalog(db);
  const calls = new CallStore(db, (toolId, version) => catalog.versionIr(toolId, version));
  const create = calls.create.bind(calls);
  return Object.assign(calls, {
    create: async (input: NewCall) => {
      await seedRegistryTool(pool, { caller: input.caller, tool: input.tool });
      return create(input);
    },
  });
}

describeCallRepositoryContract('Postgres', seedable);

describe('CallStore on Postgres', () => {
  it('keeps the columns the API reads: status, result, attempts, run, finished_at', async () => {
    const calls = seedable();
    const tool = buildTool();
    const call = buildCall(tool, { ms: 1 });
    await calls.create({ call, tool, caller: TEST_CALLER });
    const run = { worker_id: 'w1', attempt: 1, run_id: 'r1', started_at: Date.now() };
    expect(await calls.claim(call.id, run).then(isClaimed)).toBe(true);
    expect(
      await calls.recordOutcome(call.id, {
        runId: 'r1',
        outcome: {
          status: 'failed',
          result: {
            call_id: call.id,
            name: tool.name,
            ok: false,
            error: { code: 'upstream_error', message: 'boom', retryable: true, user_message: 'x' },
          },
          attempts: 3,
          latency_ms: 12.6,
          answered_by: undefined,
          finished_at: Date.now(),
          decision: { effect: 'allow', policy_revision: '2', matched_rule: 'p0' },
        },
      }),
    ).toBe(true);
    const { rows } = await pool.query<Record<string, unknown>>(
      'SELECT status, error_code, attempts, latency_ms, worker_id, run_id, decision_rule, result, finished_at FROM calls WHERE id = $1',
      [call.id],
    );
    expect(rows[0]).toMatchObject({
      status: 'failed',
      error_code: 'upstream_error',
      attempts: 3,
      latency_ms: 13,
      worker_id: 'w1',
      run_id: 'r1',
      decision_rule: 'p0',
      // The stored result has the ToolResultIR shape the API stores (no engine-only fields).
      result: { ok: false, error: { code: 'upstream_error', message: 'boom', retryable: true } },
    });
    expect(rows[0]?.['finished_at']).toBeInstanceOf(Date);
  });

  it('never starts a cancelled call and reports it final', async () => {
    const calls = seedable();
    const tool = buildTool();
    const call = buildCall(tool);
    await calls.create({ call, tool, caller: TEST_CALLER });
    await pool.query(`UPDATE calls SET status = 'cancelled' WHERE id = $1`, [call.id]);
    expect(
      await calls
        .claim(call.id, { worker_id: 'w', attempt: 1, run_id: 'r', started_at: 1 })
        .then(isClaimed),
    ).toBe(false);
    expect(await calls.getCall(call.id)).toMatchObject({ state: 'cancelled' });
  });
});
