import { BuiltinExecutor } from '@toolgate/engine';
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
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let other: TestTeam;
let paid: TestTool;
let runs = 0;

/** A tool whose calls are counted at `costUsd` each (its version's `cost_estimate_usd`). */
async function createPaidTool(owner: TestTeam, costUsd: number): Promise<TestTool> {
  const tool = await createTool(api, owner);
  const ir = tool.ir.with({
    behavior: { readonly: true, destructive: false, idempotent: true, requires_approval: 'never' },
    constraints: { timeout_ms: 5_000, cost_estimate_usd: costUsd },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'paid' } } },
  });
  await publish(api, owner, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, owner, tool, '1.0.0');
  return { ...tool, ir };
}

async function createKeyWithId(owner: TestTeam): Promise<{ id: string; key: string }> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/api-keys',
    body: { name: uniqueName('key'), scopes: ['calls:execute', 'tools:read'], team_id: owner.id },
  });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id as string, key: response.body.key as string };
}

function callPaid(key: string) {
  return api.request({
    method: 'POST',
    url: '/v1/calls',
    key,
    body: {
      provider: 'openai-chat',
      payload: openAIChatMessage([
        { id: `call_${uniqueName('c')}`, name: paid.name, arguments: '{"query":"x"}' },
      ]),
    },
  });
}

function putBudget(input: { key?: string; path: string; body: unknown }) {
  return api.request({
    method: 'PUT',
    url: `/v1/budgets/${input.path}`,
    ...(input.key === undefined ? {} : { key: input.key }),
    body: input.body,
  });
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('paid', () => {
    runs += 1;
    return { paid: true };
  });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  other = await createTeam(api);
  paid = await createPaidTool(team, 0.6);
});
afterAll(async () => {
  await api?.close();
});

describe('budget routes', () => {
  it('lets installation admins set team budgets, and team admins only read theirs', async () => {
    const byTeam = await putBudget({
      key: team.key,
      path: `team/${team.id}/month`,
      body: { soft_usd: 1, hard_usd: 2 },
    });
    expect(byTeam.status, byTeam.text).toBe(403);
    expect(byTeam.headers['content-type']).toContain('application/problem+json');

    const set = await putBudget({
      path: `team/${team.id}/month`,
      body: { soft_usd: 1, hard_usd: 2 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({
      scope: 'team',
      subject_id: team.id,
      team_id: team.id,
      period: 'month',
      soft_usd: 1,
      hard_usd: 2,
      spent_usd: 0,
      state: 'ok',
      created_by: 'admin',
    });
    expect(Date.parse(set.body.resets_at as string)).toBeGreaterThan(Date.now());

    const read = await api.request({ url: `/v1/budgets/team/${team.id}/month`, key: team.key });
    expect(read.status, read.text).toBe(200);
    const foreign = await api.request({ url: `/v1/budgets/team/${team.id}/month`, key: other.key });
    expect(foreign.status, foreign.text).toBe(404);

    const raised = await putBudget({
      path: `team/${team.id}/month`,
      body: { soft_usd: null, hard_usd: 3 },
    });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ soft_usd: null, hard_usd: 3 });

    const deleted = await api.request({
      method: 'DELETE',
      url: `/v1/budgets/team/${team.id}/month`,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const gone = await api.request({ url: `/v1/budgets/team/${team.id}/month` });
    expect(gone.status, gone.text).toBe(404);

    const audit = await api.sql<{ action: string; data: Record<string, unknown> }>(
      `SELECT action, data FROM audit_events WHERE entity_type = 'budget' AND entity_id = $1 ORDER BY seq`,
      [`team/${team.id}/month`],
    );
    expect(audit).toEqual([
      {
        action: 'budget.set',
        data: expect.objectContaining({ soft_usd: 1, hard_usd: 2, previous: null }),
      },
      {
        action: 'budget.set',
        data: expect.objectContaining({
          soft_usd: null,
          hard_usd: 3,
          previous: { soft_usd: 1, hard_usd: 2 },
        }),
      },
      {
        action: 'budget.deleted',
        data: expect.objectContaining({ previous: { soft_usd: null, hard_usd: 3 } }),
      },
    ]);
  });

  it("lets a team's admin keys set their own keys' budgets, not another team's", async () => {
    const own = await createKeyWithId(team);
    const foreign = await createKeyWithId(other);
    const set = await putBudget({
      key: team.key,
      path: `key/${own.id}/day`,
      body: { soft_usd: 5, hard_usd: null },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ scope: 'key', subject_id: own.id, team_id: team.id });
    const refused = await putBudget({
      key: team.key,
      path: `key/${foreign.id}/day`,
      body: { soft_usd: 5, hard_usd: null },
    });
    expect(refused.status, refused.text).toBe(404);

    const listed = await api.request({ url: '/v1/budgets', key: team.key });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ scope: 'key', subject_id: own.id }),
    ]);
    const none = await api.request({ url: '/v1/budgets', key: other.key });
    expect(none.body.items).toEqual([]);
  });

  it('refuses bad limits with a 400 problem and stores nothing', async () => {
    for (const body of [
      { soft_usd: 3, hard_usd: 2 },
      { soft_usd: null, hard_usd: null },
      { soft_usd: -1, hard_usd: 2 },
      { soft_usd: 1, hard_usd: 2, currency: 'EUR' },
      { hard_usd: '2' },
    ]) {
      const response = await putBudget({ path: `team/${other.id}/day`, body });
      expect(response.status, response.text).toBe(400);
      expect(response.body.code).toBe('invalid_request');
    }
    const badPath = await putBudget({
      path: `org/${other.id}/day`,
      body: { soft_usd: 1, hard_usd: 2 },
    });
    expect(badPath.status, badPath.text).toBe(400);
    const unknownTeam = await putBudget({
      path: 'team/00000000-0000-4000-8000-000000000000/day',
      body: { soft_usd: 1, hard_usd: 2 },
    });
    expect(unknownTeam.status, unknownTeam.text).toBe(404);
    const stored = await api.sql(`SELECT id FROM budgets WHERE team_id = $1`, [other.id]);
    expect(stored).toEqual([]);
  });
});

describe('budgets on the call path', () => {
  it('warns past the soft limit, refuses past the hard one, and runs again once raised', async () => {
    const set = await putBudget({
      path: `team/${team.id}/day`,
      body: { soft_usd: 0.5, hard_usd: 1 },
    });
    expect(set.status, set.text).toBe(200);
    const before = runs;

    const first = await callPaid(team.key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['toolgate-budget']).toBe('soft_exceeded; scope=team; period=day');
    expect(first.body.tool_results[0]).toMatchObject({
      ok: true,
      _meta: {
        toolgate: {
          budget: { state: 'soft_exceeded', scope: 'team', period: 'day', limit: 0.5, spent: 0.6 },
        },
      },
    });

    const second = await callPaid(team.key);
    expect(second.status, second.text).toBe(200);
    expect(second.body.tool_results[0].ok).toBe(true);
    expect(second.headers['toolgate-budget']).toBe('hard_exceeded; scope=team; period=day');

    const refused = await callPaid(team.key);
    expect(refused.status, refused.text).toBe(200);
    expect(refused.headers['toolgate-budget']).toBe('hard_exceeded; scope=team; period=day');
    const [result] = refused.body.tool_results;
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'budget_exceeded',
        retryable: false,
        details: { scope: 'team', period: 'day', limit: 1, spent: 1.2 },
      },
    });
    expect(result.error.message).toMatch(/daily budget of \$1\.00 is spent/);
    expect(refused.body.calls[0].status).toBe('failed');
    expect(runs - before).toBe(2);

    const state = await api.request({ url: `/v1/budgets/team/${team.id}/day`, key: team.key });
    expect(state.body).toMatchObject({ spent_usd: 1.2, state: 'hard_exceeded' });

    const raised = await putBudget({
      path: `team/${team.id}/day`,
      body: { soft_usd: null, hard_usd: 10 },
    });
    expect(raised.status, raised.text).toBe(200);
    const again = await callPaid(team.key);
    expect(again.body.tool_results[0].ok).toBe(true);
    expect(again.headers['toolgate-budget']).toBeUndefined();
    expect(runs - before).toBe(3);
  });

  it("refuses a key over its own budget while the team's other keys still call", async () => {
    const capped = await createKeyWithId(team);
    const free = await createKeyWithId(team);
    await putBudget({
      key: team.key,
      path: `key/${capped.id}/month`,
      body: { soft_usd: null, hard_usd: 0.5 },
    });
    expect((await callPaid(capped.key)).body.tool_results[0].ok).toBe(true);
    const refused = await callPaid(capped.key);
    expect(refused.body.tool_results[0].error).toMatchObject({
      code: 'budget_exceeded',
      details: { scope: 'key', period: 'month', limit: 0.5, spent: 0.6 },
    });
    expect((await callPaid(free.key)).body.tool_results[0].ok).toBe(true);
  });

  it('answers MCP tools/call over a hard budget with an isError result the model can read', async () => {
    const capped = await createKeyWithId(team);
    await putBudget({
      key: team.key,
      path: `key/${capped.id}/day`,
      body: { soft_usd: 0.1, hard_usd: 0.5 },
    });
    const mcpCall = async () => {
      const response = await api.request({
        method: 'POST',
        url: '/mcp',
        key: capped.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: paid.name, arguments: { query: 'x' } },
        },
      });
      expect(response.status, response.text).toBe(200);
      const data = /^data: (.*)$/m.exec(response.text)?.[1] ?? response.text;
      return (
        JSON.parse(data) as {
          result: {
            isError: boolean;
            content: Array<{ text: string }>;
            _meta?: Record<string, unknown>;
          };
        }
      ).result;
    };
    const warned = await mcpCall();
    expect(warned.isError).toBe(false);
    expect(warned._meta).toMatchObject({
      toolgate: { budget: { state: 'hard_exceeded', scope: 'key' } },
    });
    const refused = await mcpCall();
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain('budget_exceeded');
    expect(refused.content[0]?.text).toMatch(/API key's daily budget of \$0\.50 is spent/);
  });
});
