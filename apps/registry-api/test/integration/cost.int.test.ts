import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, createTool, publish, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// The recorded whole responses the adapters' usage readers are tested with.
function recorded(file: string): Record<string, unknown> {
  const url = new URL(`../../../../libs/adapters/src/usage/__fixtures__/${file}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
}

interface CallCostBody {
  tool_usd: number | null;
  tokens_usd: number | null;
  total_usd: number | null;
  tool_source: string | null;
  tokens: Record<'input' | 'output' | 'cache_read' | 'cache_write' | 'reasoning', number> | null;
  model: string | null;
  provider: string | null;
  tokens_unpriced_reason: string | null;
}

let api: TestApp;
let team: TestTeam;

/** A builtin tool taking any arguments, at this estimated cost per call. */
async function costedTool(name: string, costEstimateUsd?: number): Promise<void> {
  const tool = await createTool(api, team, { name });
  const ir = tool.ir.with({
    parameters: { type: 'object', additionalProperties: true },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: {
      timeout_ms: 5000,
      ...(costEstimateUsd === undefined ? {} : { cost_estimate_usd: costEstimateUsd }),
    },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'echo' } } },
  });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
}

/** Posts a payload and returns each recorded call's cost, in the order of the calls. */
async function postAndReadCosts(provider: string, payload: unknown): Promise<CallCostBody[]> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    headers: { 'idempotency-key': randomUUID() },
    body: { provider, payload },
  });
  expect(response.status, response.text).toBe(200);
  const calls = response.body.calls as Array<{ id: string }>;
  const costs: CallCostBody[] = [];
  for (const call of calls) {
    const read = await api.request({ url: `/v1/calls/${call.id}`, key: team.key });
    expect(read.status, read.text).toBe(200);
    costs.push(read.body.cost as CallCostBody);
  }
  return costs;
}

function sumOf(costs: CallCostBody[], field: 'tokens_usd' | 'tool_usd' | 'total_usd'): number {
  return costs.reduce((total, cost) => total + (cost[field] ?? 0), 0);
}

function tokenTotals(costs: CallCostBody[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const cost of costs) {
    for (const [kind, count] of Object.entries(cost.tokens ?? {}))
      totals[kind] = (totals[kind] ?? 0) + count;
  }
  return totals;
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('echo', (args) => ({ echoed: args }));
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  await costedTool('get_weather', 0.002);
  await costedTool('get_current_weather');
  await costedTool('schedule_meeting', 0.01);
});
afterAll(async () => {
  await api?.close();
});

describe('the cost of a call from a whole provider response', () => {
  it('OpenAI Chat: the turn split over its two calls, priced as o4-mini, plus the tool estimate', async () => {
    const costs = await postAndReadCosts(
      'openai-chat',
      recorded('openai-chat-completion-usage.json'),
    );
    expect(costs).toHaveLength(2);
    expect(tokenTotals(costs)).toEqual({
      input: 86,
      output: 300,
      cache_read: 1920,
      cache_write: 0,
      reasoning: 192,
    });
    // (86 * 1.1 + 300 * 4.4 + 1920 * 0.275) / 1e6
    expect(sumOf(costs, 'tokens_usd')).toBeCloseTo(0.0019426, 12);
    for (const cost of costs) {
      expect(cost).toMatchObject({
        model: 'o4-mini-2025-04-16',
        provider: 'openai',
        tool_usd: 0.002,
        tool_source: 'estimate',
        tokens_unpriced_reason: null,
      });
      expect(cost.total_usd).toBeCloseTo((cost.tokens_usd ?? 0) + 0.002, 12);
    }
  });

  it('OpenAI Responses: cached input and reasoning, no tool cost known', async () => {
    const [cost] = await postAndReadCosts(
      'openai-responses',
      recorded('openai-responses-usage.json'),
    );
    expect(cost).toMatchObject({
      model: 'gpt-5-2025-08-07',
      provider: 'openai',
      tool_usd: null,
      tool_source: null,
      tokens: { input: 267, output: 223, cache_read: 1024, cache_write: 0, reasoning: 192 },
    });
    // (267 * 1.25 + 223 * 10 + 1024 * 0.125) / 1e6
    expect(cost?.tokens_usd).toBeCloseTo(0.00269175, 12);
    expect(cost?.total_usd).toBeCloseTo(0.00269175, 12);
  });

  it('Anthropic: cache writes and reads priced apart', async () => {
    const [cost] = await postAndReadCosts('anthropic', recorded('anthropic-message-usage.json'));
    expect(cost).toMatchObject({
      model: 'claude-sonnet-4-5-20250929',
      provider: 'anthropic',
      tokens: { input: 21, output: 393, cache_read: 2048, cache_write: 1554, reasoning: 0 },
    });
    // (21 * 3 + 393 * 15 + 2048 * 0.3 + 1554 * 3.75) / 1e6
    expect(cost?.tokens_usd).toBeCloseTo(0.0123999, 12);
  });

  it('Gemini: thoughts billed as output, modelVersion as the model', async () => {
    const [cost] = await postAndReadCosts('gemini', recorded('gemini-generate-content-usage.json'));
    expect(cost).toMatchObject({
      model: 'gemini-2.5-flash',
      provider: 'google',
      tool_usd: 0.01,
      tool_source: 'estimate',
      tokens: { input: 84, output: 126, cache_read: 1024, cache_write: 0, reasoning: 95 },
    });
    // (84 * 0.3 + 126 * 2.5 + 1024 * 0.03) / 1e6
    expect(cost?.tokens_usd).toBeCloseTo(0.00037092, 12);
  });

  it('a bare message carries no usage: no token cost, the tool cost still counts', async () => {
    const completion = recorded('openai-chat-completion-usage.json');
    const choices = completion['choices'] as Array<{ message: unknown }>;
    const costs = await postAndReadCosts('openai-chat', choices[0]?.message);
    for (const cost of costs) {
      expect(cost).toEqual({
        tool_usd: 0.002,
        tokens_usd: null,
        total_usd: 0.002,
        tool_source: 'estimate',
        tokens: null,
        model: null,
        provider: null,
        tokens_unpriced_reason: null,
      });
    }
  });
});

describe('the price table', () => {
  const localModel = { ...recorded('openai-responses-usage.json'), model: 'acme-local-7b' };

  it('leaves an unknown model unpriced, with a reason, until a price is set; edits are audited', async () => {
    const [unpriced] = await postAndReadCosts('openai-responses', localModel);
    expect(unpriced?.tokens_usd).toBeNull();
    expect(unpriced?.total_usd).toBeNull();
    expect(unpriced?.tokens).toMatchObject({ input: 267, output: 223 });
    expect(unpriced?.tokens_unpriced_reason).toContain('acme-local-7b');

    const byTeamKey = await api.request({
      method: 'PUT',
      url: '/v1/prices/openai/acme-local-7b',
      key: team.key,
      body: { input: 1, output: 2, cache_read: 0.5, cache_write: 1 },
    });
    expect(byTeamKey.status, byTeamKey.text).toBe(403);

    const put = await api.request({
      method: 'PUT',
      url: '/v1/prices/openai/acme-local-7b',
      body: { input: 1, output: 2, cache_read: 0.5, cache_write: 1 },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({
      provider: 'openai',
      model: 'acme-local-7b',
      source: 'custom',
    });

    const [priced] = await postAndReadCosts('openai-responses', localModel);
    // (267 * 1 + 223 * 2 + 1024 * 0.5) / 1e6
    expect(priced?.tokens_usd).toBeCloseTo(0.001225, 12);

    const list = await api.request({ url: '/v1/prices', key: team.key });
    expect(list.status, list.text).toBe(200);
    const items = list.body.items as Array<{ provider: string; model: string; source: string }>;
    expect(items).toContainEqual(
      expect.objectContaining({ provider: 'openai', model: 'acme-local-7b', source: 'custom' }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        source: 'default',
      }),
    );
    expect(list.body.defaults_taken_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const removed = await api.request({ method: 'DELETE', url: '/v1/prices/openai/acme-local-7b' });
    expect(removed.status, removed.text).toBe(204);
    const again = await api.request({ method: 'DELETE', url: '/v1/prices/openai/acme-local-7b' });
    expect(again.status, again.text).toBe(404);
    expect(again.headers['content-type']).toContain('application/problem+json');

    const audit = await api.request({ url: '/v1/audit?entity_type=price' });
    expect(audit.status, audit.text).toBe(200);
    const events = (audit.body.items as Array<{ action: string; entity_id: string; data: unknown }>)
      .filter((event) => event.entity_id === 'openai/acme-local-7b')
      .map((event) => ({ action: event.action, data: event.data }));
    expect(events).toEqual(
      expect.arrayContaining([
        {
          action: 'price.set',
          data: {
            provider: 'openai',
            model: 'acme-local-7b',
            input: 1,
            output: 2,
            cache_read: 0.5,
            cache_write: 1,
          },
        },
        { action: 'price.deleted', data: { provider: 'openai', model: 'acme-local-7b' } },
      ]),
    );
  });

  it('refuses a bad price with a 400 problem, changing nothing', async () => {
    for (const body of [
      { input: -1, output: 2, cache_read: 0, cache_write: 0 },
      { input: 1, output: 2, cache_read: 0 },
      { input: 1, output: 2, cache_read: 0, cache_write: 0, extra: 1 },
    ]) {
      const response = await api.request({
        method: 'PUT',
        url: '/v1/prices/openai/bad-input-model',
        body,
      });
      expect(response.status, response.text).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const unknownProvider = await api.request({
      method: 'PUT',
      url: '/v1/prices/mistral/any',
      body: { input: 1, output: 2, cache_read: 0, cache_write: 0 },
    });
    expect(unknownProvider.status, unknownProvider.text).toBe(400);
    const list = await api.request({ url: '/v1/prices' });
    const models = (list.body.items as Array<{ model: string }>).map((item) => item.model);
    expect(models).not.toContain('bad-input-model');
  });
});
