import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

// Two API processes on one Postgres and one Redis, as two replicas behind a load balancer, and a
// worker: the `paid` tool runs inline, so each call runs in the process that took it; the `queued`
// one runs in the worker.
let setup: TestApp;
let replicaA: ApiProcess | undefined;
let replicaB: ApiProcess | undefined;
let worker: WorkerProcess | undefined;
let team: TestTeam;
let paid: TestTool;
let workerTeam: TestTeam;
let queued: TestTool;
const prefix = createTestPrefix();
const redis = connectTestRedis();

beforeAll(async () => {
  setup = await startTestApp();
  team = await createTeam(setup);
  paid = await echoTool(team, 'inline');
  // Of a team of its own: the first test spends the team's whole day.
  workerTeam = await createTeam(setup);
  queued = await echoTool(workerTeam, 'queued');
  const env = {
    DATABASE_URL: setup.databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    TOOLGATE_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
  };
  [replicaA, replicaB, worker] = await Promise.all([
    startApiProcess({ env }),
    startApiProcess({ env }),
    startWorkerProcess({
      name: 'budgets-worker',
      prefix,
      env: { DATABASE_URL: setup.databaseUrl },
    }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([replicaA?.close(), replicaB?.close(), worker?.close()]);
  await setup?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

/** A readonly echo tool whose calls cost $0.60 each, run inline or queued. */
async function echoTool(owner: TestTeam, execution: 'inline' | 'queued'): Promise<TestTool> {
  const tool = await createTool(setup, owner);
  const ir = tool.ir.with({
    behavior: { readonly: true, destructive: false, idempotent: true, requires_approval: 'never' },
    constraints: { timeout_ms: 5_000, execution, cost_estimate_usd: 0.6 },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
  });
  await publish(setup, owner, { ...tool, ir }, '1.0.0', ir);
  await setStable(setup, owner, tool, '1.0.0');
  return { ...tool, ir };
}

async function send(
  replica: ApiProcess | undefined,
  input: { method?: string; path: string; key?: string; body?: unknown },
) {
  if (replica === undefined) throw new Error('the replica did not start');
  const response = await fetch(new URL(input.path, replica.url), {
    method: input.method ?? 'GET',
    headers: {
      authorization: `Bearer ${input.key ?? ADMIN_KEY}`,
      ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests probe response bodies freely
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, any>),
  };
}

function callPaid(
  replica: ApiProcess | undefined,
  options: { tool?: TestTool; key?: string } = {},
) {
  return send(replica, {
    method: 'POST',
    path: '/v1/calls',
    key: options.key ?? team.key,
    body: {
      provider: 'openai-chat',
      wait_ms: 10_000,
      payload: openAIChatMessage([
        {
          id: `call_${uniqueName('c')}`,
          name: (options.tool ?? paid).name,
          arguments: '{"query":"x"}',
        },
      ]),
    },
  });
}

describe('a hard budget across two API processes (Postgres + Redis)', () => {
  it('refuses on one replica what was spent on the other', async () => {
    // Set on replica B once both run: replica A learns of it by the catalog's NOTIFY.
    const set = await send(replicaB, {
      method: 'PUT',
      path: `/v1/budgets/team/${team.id}/day`,
      body: { soft_usd: null, hard_usd: 1 },
    });
    expect(set.status, set.text).toBe(200);

    // A NOTIFY takes a moment to arrive: replica A may run one call before it knows the budget,
    // whose spend still counts, since spend is counted whether or not a budget is known.
    for (const _ of [1, 2]) {
      const spent = await callPaid(replicaA);
      expect(spent.status, spent.text).toBe(200);
      expect(spent.body?.['tool_results'][0].ok).toBe(true);
    }

    const refused = await callPaid(replicaB);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.headers.get('toolgate-budget')).toBe('hard_exceeded; scope=team; period=day');
    expect(refused.body?.['tool_results'][0]).toMatchObject({
      ok: false,
      error: {
        code: 'budget_exceeded',
        details: { scope: 'team', period: 'day', limit: 1, spent: 1.2 },
      },
    });

    const again = await callPaid(replicaA);
    expect(again.body?.['tool_results'][0].error.code).toBe('budget_exceeded');

    const state = await send(replicaA, { path: `/v1/budgets/team/${team.id}/day`, key: team.key });
    expect(state.body).toMatchObject({ spent_usd: 1.2, state: 'hard_exceeded' });
  });
});

describe('a hard budget on the worker path', () => {
  it("refuses a key's queued call in the worker once the key's budget is spent", async () => {
    const created = await send(replicaA, {
      method: 'POST',
      path: '/v1/api-keys',
      body: { name: uniqueName('key'), scopes: ['calls:execute'], team_id: workerTeam.id },
    });
    expect(created.status, created.text).toBe(201);
    const key = created.body?.['key'] as string;
    const set = await send(replicaA, {
      method: 'PUT',
      path: `/v1/budgets/key/${created.body?.['id'] as string}/month`,
      key: workerTeam.key,
      body: { soft_usd: 0.1, hard_usd: 0.5 },
    });
    expect(set.status, set.text).toBe(200);

    const ran = await callPaid(replicaA, { tool: queued, key });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body?.['tool_results'][0].ok).toBe(true);

    const refused = await callPaid(replicaB, { tool: queued, key });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.headers.get('toolgate-budget')).toBe('hard_exceeded; scope=key; period=month');
    expect(refused.body?.['tool_results'][0].error).toMatchObject({
      code: 'budget_exceeded',
      details: { scope: 'key', period: 'month', limit: 0.5, spent: 0.6 },
    });
  });
});
