// The relay where a worker runs the call: the worker reaches the API process holding the caller's
// MCP session over Redis (a channel per followed call, one per worker for the answers), on the
// real Redis and Postgres, so an upstream's sampling, elicitation and log messages reach the
// client, and a REST call's are refused, as in the embedded default.
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts a real worker process through the worker's own test support */
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import {
  startWorkerProcess,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import { createTeam, type TestTeam } from '../factories/registry.factory';
import {
  askModelOverRest,
  connectAskedClient,
  importAskingUpstream,
  REST_REFUSAL,
  resultText,
  startAskingUpstream,
  type AskedClient,
  type AskingUpstream,
} from '../support/asking-upstream';
import { startTestApp, type TestApp } from '../support/test-app';

const WORKER = 'relay-worker';
const prefix = createTestPrefix();
let api: TestApp;
let redis: Redis;
let worker: WorkerProcess;
let upstream: AskingUpstream;
let team: TestTeam;
let baseUrl: string;
const clients: AskedClient[] = [];

beforeAll(async () => {
  redis = connectTestRedis();
  api = await startTestApp({ REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  upstream = await startAskingUpstream();
  await importAskingUpstream(api, team, upstream);
  worker = await startWorkerProcess({
    name: WORKER,
    prefix,
    env: { DATABASE_URL: api.databaseUrl },
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((asked) => asked.client.close()));
  await worker?.close();
  await api?.close();
  await upstream?.[Symbol.asyncDispose]();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

async function connect(answers?: { elicitation: 'accept' | 'decline' }): Promise<AskedClient> {
  const asked = await connectAskedClient(baseUrl, team.key, answers);
  clients.push(asked);
  return asked;
}

describe('relaying what an upstream asks, with the call run by a worker', () => {
  it('relays sampling and elicitation from the worker to the session and the answers back', async () => {
    const asked = await connect({ elicitation: 'accept' });
    const sampled = await asked.client.callTool({
      name: 'ask_model',
      arguments: { prompt: 'from the worker' },
    });
    expect(resultText(sampled)).toBe('model said: echo from the worker');
    const elicited = await asked.client.callTool({ name: 'ask_user', arguments: {} });
    expect(resultText(elicited)).toBe('user accept: {"city":"Porto"}');
    const rows = await api.sql<{ worker_id: string | null }>(
      `SELECT worker_id FROM calls WHERE team_id = $1 AND client_relay IS NOT NULL`,
      [team.id],
    );
    expect(rows.map((row) => row.worker_id)).toEqual([WORKER, WORKER]);
    // The worker's first calls start its upstream connections and relay subscription.
  }, 60_000);

  it("relays the upstream's log messages from the worker", async () => {
    const asked = await connect();
    await asked.client.setLoggingLevel('warning');
    const result = await asked.client.callTool({ name: 'log_steps', arguments: {} });
    expect(resultText(result)).toBe('logged');
    expect(asked.logs).toEqual(['warning: step 2: slow disk']);
  });

  it('refuses sampling at once for a REST call run by the worker', async () => {
    expect(await askModelOverRest(api, team)).toContain(REST_REFUSAL);
  });
});
