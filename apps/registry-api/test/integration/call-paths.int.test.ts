// The same calls through every way a call can run — queued (API + BullMQ + a worker process on
// Postgres), inline (the API process, no queue hop) and the embedded default (PGlite + the
// in-process queue) — give the same results and the same call records: one runner, one data layer.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts a real worker process through the worker's own test support */
import {
  startWorkerProcess,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import { openAIChatMessage } from '../factories/gateway.factory';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const prefix = createTestPrefix();
let redis: Redis;
let fleet: TestApp;
let embedded: TestApp;
let worker: WorkerProcess;

beforeAll(async () => {
  redis = connectTestRedis();
  // No builtins passed: the API runs the same example tools (`toolgate.echo`) as the worker.
  fleet = await startTestApp(
    { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix },
    { database: 'postgres' },
  );
  embedded = await startTestApp({}, { database: 'pglite' });
  worker = await startWorkerProcess({
    name: 'paths-worker',
    prefix,
    env: { DATABASE_URL: fleet.databaseUrl, WORKER_CONCURRENCY: '4' },
  });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await fleet?.close();
  await embedded?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

/** A readonly echo tool named `name`, queued or inline, published and stable. */
async function echoTool(
  api: TestApp,
  team: TestTeam,
  input: { name: string; execution: 'inline' | 'queued' },
): Promise<void> {
  const tool = await createTool(api, team, { name: input.name });
  const ir = tool.ir
    .parameters({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    })
    .with({
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5_000, execution: input.execution },
      protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
    });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
}

/** One turn of the model: a good call, and one whose arguments the schema refuses. */
function turn(name: string) {
  return openAIChatMessage([
    { id: 'call_good', name, arguments: JSON.stringify({ city: 'Oslo', days: 3 }) },
    { id: 'call_bad', name, arguments: JSON.stringify({ days: 0 }) },
  ]);
}

/** What a path answered and recorded, without what differs by nature (ids, clocks, latency). */
async function runTurn(api: TestApp, team: TestTeam, name: string) {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls?wait_ms=10000',
    key: team.key,
    body: { provider: 'openai-chat', payload: turn(name), conversation_id: `paths-${name}` },
  });
  expect(response.status, response.text).toBe(200);
  const records = await Promise.all(
    (response.body.calls as Array<{ id: string }>).map(async ({ id }) => {
      const record = await api.request({ url: `/v1/calls/${id}`, key: team.key });
      expect(record.status, record.text).toBe(200);
      const body = record.body as Record<string, unknown> & { tool: Record<string, unknown> };
      return {
        status: body['status'],
        provider: body['provider'],
        provider_call_id: body['provider_call_id'],
        tool: { name: body.tool['name'], version: body.tool['version'] },
        arguments: body['arguments'],
        arguments_hash: body['arguments_hash'],
        result: body['result'],
        error_code: body['error_code'],
        attempts: body['attempts'],
        answered_by: body['answered_by'],
        decision: body['decision'],
        started: body['started_at'] !== null,
        finished: body['finished_at'] !== null,
      };
    }),
  );
  return { results: response.body.results as unknown, calls: response.body.calls, records };
}

describe('one call path', () => {
  it('gives the same results and records queued, inline and on the embedded default', async () => {
    const fleetTeam = await createTeam(fleet);
    const embeddedTeam = await createTeam(embedded);
    await echoTool(fleet, fleetTeam, { name: 'forecast', execution: 'queued' });
    await echoTool(fleet, fleetTeam, { name: 'forecast_inline', execution: 'inline' });
    await echoTool(embedded, embeddedTeam, { name: 'forecast', execution: 'queued' });

    const queued = await runTurn(fleet, fleetTeam, 'forecast');
    const inline = await runTurn(fleet, fleetTeam, 'forecast_inline');
    const local = await runTurn(embedded, embeddedTeam, 'forecast');

    // The inline tool has another name; everything else must be the same to the letter.
    const renamed = JSON.parse(JSON.stringify(inline).replaceAll('forecast_inline', 'forecast'));
    expect(renamed.records).toEqual(queued.records);
    expect(local.records).toEqual(queued.records);
    expect(renamed.results).toEqual(queued.results);
    expect(local.results).toEqual(queued.results);
    expect(queued.records.map((record) => [record.status, record.error_code])).toEqual([
      ['succeeded', null],
      ['failed', 'invalid_arguments'],
    ]);
  });

  it('records an inline call (its outcome written behind) as a queued one is recorded', async () => {
    const team = await createTeam(fleet);
    await echoTool(fleet, team, { name: 'lookup', execution: 'inline' });
    const first = await runTurn(fleet, team, 'lookup');
    // A replay of the turn answers from the stored rows and runs nothing again. The stored result
    // is jsonb, which keeps its own key order, so the tool messages are compared as JSON values.
    const replay = await runTurn(fleet, team, 'lookup');
    const parsed = (results: unknown) =>
      (results as Array<{ content: string }>).map((message) => ({
        ...message,
        content: JSON.parse(message.content) as unknown,
      }));
    expect(parsed(replay.results)).toEqual(parsed(first.results));
    expect(replay.records).toEqual(first.records);
    expect(replay.calls).toEqual(first.calls);
  });
});
