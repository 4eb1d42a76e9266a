import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { ADMIN_KEY, onPglite, startTestApp, type TestApp } from '../support/test-app';

// Two API processes on one Postgres and one Redis, as two replicas behind a load balancer; the
// tool runs inline, so each call runs in the process that took it.
let setup: TestApp;
let replicaA: ApiProcess | undefined;
let replicaB: ApiProcess | undefined;
let team: TestTeam;
let paid: TestTool;
const prefix = createTestPrefix();
const redis = connectTestRedis();

beforeAll(async () => {
  if (onPglite) return;
  setup = await startTestApp();
  team = await createTeam(setup);
  const tool = await createTool(setup, team);
  const ir = tool.ir.with({
    behavior: { readonly: true, destructive: false, idempotent: true, requires_approval: 'never' },
    constraints: { timeout_ms: 5_000, execution: 'inline', cost_estimate_usd: 0.6 },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
  });
  await publish(setup, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(setup, team, tool, '1.0.0');
  paid = { ...tool, ir };
  const env = {
    DATABASE_URL: setup.databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    TOOLGATE_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
  };
  [replicaA, replicaB] = await Promise.all([startApiProcess({ env }), startApiProcess({ env })]);
}, 180_000);
afterAll(async () => {
  await Promise.all([replicaA?.close(), replicaB?.close()]);
  await setup?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

async function send(
  replica: ApiProcess | undefined,
  input: { method?: string; path: string; key?: string; body?: unknown },
) {
  if (replica === undefined) throw new Error('the replica did not start');
  const response = await fetch(new URL(input.path, replica.baseUrl), {
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

function callPaid(replica: ApiProcess | undefined) {
  return send(replica, {
    method: 'POST',
    path: '/v1/calls',
    key: team.key,
    body: {
      provider: 'openai-chat',
      payload: openAIChatMessage([
        { id: `call_${uniqueName('c')}`, name: paid.name, arguments: '{"query":"x"}' },
      ]),
    },
  });
}

describe.skipIf(onPglite)('a hard budget across two API processes (Postgres + Redis)', () => {
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
