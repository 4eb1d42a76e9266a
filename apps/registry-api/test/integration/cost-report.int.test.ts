import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTeam,
  createTool,
  publish,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { seedCalls } from '../factories/seeded-calls.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const HOUR = 3_600_000;

interface Amounts {
  tool_usd: number;
  tokens_usd: number;
  total_usd: number;
  calls: number;
  cached_calls: number;
}
interface Series {
  key: string;
  label: string;
  totals: Amounts;
  points: Array<Amounts & { start: string }>;
}

let api: TestApp;
let teamA: TestTeam;
let teamB: TestTeam;
let search: TestTool;
let fetcher: TestTool;
let keyA: { id: string; name: string };

beforeAll(async () => {
  api = await startTestApp();
  teamA = await createTeam(api);
  teamB = await createTeam(api);
  search = await createTool(api, teamA);
  await publish(api, teamA, search, '1.0.0');
  await publish(api, teamA, search, '2.0.0', search.ir, { release: 'none' });
  fetcher = await createTool(api, teamB);
  await publish(api, teamB, fetcher, '1.0.0');
  await createKey(api, { teamId: teamA.id, scopes: ['tools:read'] });
  const keys = await api.database.prisma.apiKey.findMany({
    where: { teamId: teamA.id },
    orderBy: { createdAt: 'asc' },
  });
  keyA = { id: keys[0]!.id, name: keys[0]!.name };

  const now = Date.now();
  const twoHoursAgo = new Date(now - 2 * HOUR - 60_000);
  // The same minute past the hour as twoHoursAgo, so the two always fall exactly two buckets apart.
  const aMinuteAgo = new Date(now - 60_000);
  const a = { teamId: teamA.id, toolId: search.id, toolName: search.name, keyId: keyA.id };
  await seedCalls(api, [
    // search@1.0.0: 0.01 tool + 0.002 tokens each, two hours ago and now.
    { ...a, createdAt: twoHoursAgo, toolCostUsd: 0.01, tokensUsd: 0.002 },
    { ...a, createdAt: aMinuteAgo, toolCostUsd: 0.01, tokensUsd: 0.002 },
    // search@2.0.0, the canary: twice the cost, one answered from the cache.
    { ...a, toolVersion: '2.0.0', createdAt: aMinuteAgo, toolCostUsd: 0.02, tokensUsd: 0.004 },
    { ...a, toolVersion: '2.0.0', createdAt: aMinuteAgo, cacheAgeMs: 500, tokensUsd: 0.004 },
    // No cost known: counted as a call, spends nothing.
    { ...a, createdAt: aMinuteAgo },
    // Outside the window.
    { ...a, createdAt: new Date(now - 30 * HOUR), toolCostUsd: 5 },
    {
      teamId: teamB.id,
      toolId: fetcher.id,
      toolName: fetcher.name,
      createdAt: aMinuteAgo,
      toolCostUsd: 1,
    },
  ]);
});
afterAll(async () => {
  await api?.close();
});

async function report(query: string, key?: string) {
  const response = await api.request({
    url: `/v1/metrics/cost?${query}`,
    ...(key === undefined ? {} : { key }),
  });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    bucket_ms: number;
    totals: Amounts;
    series: Series[];
    currency: string;
  };
}

describe('GET /v1/metrics/cost', () => {
  it("groups a team's spend by version, every hourly bucket present, the canary visible", async () => {
    const body = await report('group_by=version&window=24h', teamA.key);
    expect(body.bucket_ms).toBe(HOUR);
    expect(body.currency).toBe('USD');
    expect(body.series.map((series) => series.key)).toEqual([
      `${search.name}@2.0.0`,
      `${search.name}@1.0.0`,
    ]);
    const [canary, stable] = body.series;
    expect(canary?.totals).toMatchObject({ calls: 2, cached_calls: 1 });
    expect(canary?.totals.tool_usd).toBeCloseTo(0.02, 10);
    expect(canary?.totals.tokens_usd).toBeCloseTo(0.008, 10);
    expect(stable?.totals).toMatchObject({ calls: 3, cached_calls: 0 });
    expect(stable?.totals.total_usd).toBeCloseTo(0.024, 10);
    for (const series of body.series) {
      expect(series.points.length).toBeGreaterThanOrEqual(24);
      expect(series.points.reduce((sum, point) => sum + point.calls, 0)).toBe(series.totals.calls);
    }
    // The stable version spent in two buckets two hours apart; the rest are zeros.
    const spent = stable?.points.filter((point) => point.calls > 0) ?? [];
    expect(spent).toHaveLength(2);
    expect(Date.parse(spent[1]!.start) - Date.parse(spent[0]!.start)).toBeGreaterThanOrEqual(
      2 * HOUR,
    );
    expect(body.totals.calls).toBe(5);
    expect(body.totals.total_usd).toBeCloseTo(0.052, 10);
  });

  it("labels teams and keys by name; a team's key sees only its own team", async () => {
    const byTeam = await report('group_by=team&window=24h');
    const labels = new Map(byTeam.series.map((series) => [series.key, series.label]));
    expect(labels.get(teamA.id)).toBe(teamA.slug);
    expect(labels.get(teamB.id)).toBe(teamB.slug);
    expect(byTeam.series[0]?.key).toBe(teamB.id);

    const ownTeam = await report('group_by=team&window=24h', teamA.key);
    expect(ownTeam.series.map((series) => series.key)).toEqual([teamA.id]);

    const byKey = await report('group_by=key&window=24h', teamA.key);
    expect(byKey.series).toEqual([expect.objectContaining({ key: keyA.id, label: keyA.name })]);
  });

  it('narrows to one tool, and refuses an unknown grouping with a 400 problem', async () => {
    const byTool = await report(`group_by=tool&window=7d&tool=${search.name}`);
    expect(byTool.series.map((series) => series.key)).toEqual([search.name]);
    expect(byTool.bucket_ms).toBe(6 * HOUR);
    expect(byTool.series[0]?.totals.calls).toBe(6);
    const bad = await api.request({ url: '/v1/metrics/cost?group_by=region' });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
  });
});
