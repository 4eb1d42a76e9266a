import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser } from '../factories/console.factory';
import {
  createTeam,
  createTool,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { seedCalls, type SeededCall } from '../factories/seeded-calls.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let search: TestTool;
let refund: TestTool;
let tenMinutesAgo: Date;
let halfAnHourAgo: Date;

const MINUTE = 60_000;

interface Bucket {
  start: string;
  calls: number;
  by_status: Record<string, number>;
  error_rate: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
}

/** The bucket of the report that holds this instant. */
function bucketAt(buckets: Bucket[], at: Date, bucketMs: number): Bucket | undefined {
  return buckets.find(
    (bucket) =>
      Date.parse(bucket.start) <= at.getTime() &&
      at.getTime() < Date.parse(bucket.start) + bucketMs,
  );
}

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  search = await createTool(api, team);
  refund = await createTool(api, team);
  const now = Date.now();
  tenMinutesAgo = new Date(now - 10 * MINUTE);
  halfAnHourAgo = new Date(now - 30 * MINUTE);
  const at = (tool: TestTool, createdAt: Date) => ({
    teamId: team.id,
    toolId: tool.id,
    toolName: tool.name,
    createdAt,
  });
  const calls: SeededCall[] = [
    // search, ten minutes ago: 3 succeeded (100, 200, 300 ms), 1 failed, 1 still queued.
    ...[100, 200, 300].map((latencyMs) => ({ ...at(search, tenMinutesAgo), latencyMs })),
    { ...at(search, tenMinutesAgo), status: 'failed', latencyMs: 400 },
    { ...at(search, tenMinutesAgo), status: 'queued' },
    // search 2.0.0 half an hour ago: 1 failed; refund: 2 succeeded, 1 cancelled.
    {
      ...at(search, halfAnHourAgo),
      toolVersion: '2.0.0',
      status: 'failed',
      errorCode: 'timeout',
      latencyMs: 5000,
    },
    { ...at(refund, halfAnHourAgo), latencyMs: 50 },
    { ...at(refund, halfAnHourAgo), latencyMs: 70 },
    { ...at(refund, halfAnHourAgo), status: 'cancelled', latencyMs: null },
    // Outside the 1 h window.
    { ...at(search, new Date(now - 2 * 60 * MINUTE)), status: 'failed' },
  ];
  await seedCalls(api, calls);
});
afterAll(async () => {
  await api?.close();
});

describe('GET /v1/metrics/calls', () => {
  it('buckets every call by status, with error rate and latency, and each tool per bucket', async () => {
    const response = await api.request({ url: '/v1/metrics/calls?window=1h', key: team.key });
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({ window: '1h', bucket_ms: 5 * MINUTE });
    expect(body.buckets.length).toBeGreaterThanOrEqual(12);
    const buckets = body.buckets as Bucket[];
    expect(buckets.reduce((sum, bucket) => sum + bucket.calls, 0)).toBe(9);

    const recent = bucketAt(buckets, tenMinutesAgo, body.bucket_ms);
    expect(recent).toMatchObject({
      calls: 5,
      by_status: {
        queued: 1,
        running: 0,
        awaiting_approval: 0,
        succeeded: 3,
        failed: 1,
        cancelled: 0,
        outcome_unknown: 0,
      },
      error_rate: 0.25,
    });
    // percentile_cont over 100..400: p50 = 250, p95 = 300 + 0.85 * 100.
    expect(recent?.p50_ms).toBeCloseTo(250, 6);
    expect(recent?.p95_ms).toBeCloseTo(385, 6);

    const older = bucketAt(buckets, halfAnHourAgo, body.bucket_ms);
    // The cancelled call is neither a success nor an error.
    expect(older).toMatchObject({ calls: 4, error_rate: 1 / 3 });
    const empty = buckets.find((bucket) => bucket.calls === 0);
    expect(empty).toMatchObject({ error_rate: null, p50_ms: null, p95_ms: null });

    const tools = Object.fromEntries(body.tools.map((tool: { tool: string }) => [tool.tool, tool]));
    expect(Object.keys(tools).sort()).toEqual([search.name, refund.name].sort());
    expect(tools[search.name]).toMatchObject({ tool_id: search.id, calls: 6, failed: 2 });
    expect(tools[search.name].calls_per_bucket).toHaveLength(buckets.length);
    expect(tools[search.name].calls_per_bucket[buckets.indexOf(recent!)]).toBe(5);
    expect(tools[search.name].failed_per_bucket[buckets.indexOf(older!)]).toBe(1);
    expect(tools[refund.name]).toMatchObject({ calls: 3, failed: 0 });
  });

  it('narrows to one tool and version, and widens with the window', async () => {
    const version = await api.request({
      url: `/v1/metrics/calls?window=1h&tool=${search.name}&version=2.0.0`,
      key: team.key,
    });
    expect(version.status).toBe(200);
    expect(version.body.tools).toMatchObject([{ tool: search.name, calls: 1, failed: 1 }]);

    const day = await api.request({
      url: `/v1/metrics/calls?tool=${search.name}`,
      key: team.key,
    });
    expect(day.body).toMatchObject({ window: '24h', bucket_ms: 60 * MINUTE });
    expect(day.body.tools).toMatchObject([{ tool: search.name, calls: 7, failed: 3 }]);
  });

  it("shows a team's key only its own calls, and console users every team's", async () => {
    const other = await createTeam(api);
    const none = await api.request({ url: '/v1/metrics/calls?window=1h', key: other.key });
    expect(none.status).toBe(200);
    expect(none.body.tools).toEqual([]);
    expect(none.body.buckets.every((bucket: Bucket) => bucket.calls === 0)).toBe(true);

    const viewer = await createConsoleUser(api, 'viewer');
    const all = await viewer.request({ url: '/v1/metrics/calls?window=1h' });
    expect(all.status, all.text).toBe(200);
    const names = all.body.tools.map((tool: { tool: string }) => tool.tool);
    expect(names).toEqual(expect.arrayContaining([search.name, refund.name]));
  });

  it('answers bad input with 400 problems', async () => {
    for (const query of ['window=2h', 'window=1h&tool=', 'window=1h&version=', 'extra=1']) {
      const response = await api.request({ url: `/v1/metrics/calls?${query}`, key: team.key });
      expect(response.status, query).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});

describe('GET /v1/calls?from&to', () => {
  it('lists the calls received in [from, to), with the status filter', async () => {
    const from = new Date(tenMinutesAgo.getTime() - MINUTE).toISOString();
    const to = new Date(tenMinutesAgo.getTime() + MINUTE).toISOString();
    const inRange = await api.request({
      url: `/v1/calls?from=${from}&to=${to}&limit=50`,
      key: team.key,
    });
    expect(inRange.status, inRange.text).toBe(200);
    expect(inRange.body.items).toHaveLength(5);

    const failed = await api.request({
      url: `/v1/calls?status=failed&from=${from}&to=${to}`,
      key: team.key,
    });
    expect(failed.body.items.map((call: { status: string }) => call.status)).toEqual(['failed']);

    // `to` is exclusive: a range ending at the calls' instant leaves them out.
    const before = await api.request({
      url: `/v1/calls?from=${from}&to=${tenMinutesAgo.toISOString()}`,
      key: team.key,
    });
    expect(before.body.items).toEqual([]);
  });

  it('refuses a from or to that is not an ISO instant', async () => {
    for (const query of ['from=yesterday', 'to=2026-13-01T00:00:00Z']) {
      const response = await api.request({ url: `/v1/calls?${query}`, key: team.key });
      expect(response.status, query).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
