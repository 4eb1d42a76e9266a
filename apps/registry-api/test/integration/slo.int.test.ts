import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser } from '../factories/console.factory';
import {
  createTeam,
  createTool,
  publish,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { seedCalls, type SeededCall } from '../factories/seeded-calls.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let fast: TestTool;
let slow: TestTool;
let seededAt: number;

const MINUTE = 60_000;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  fast = await createTool(api, team);
  await publish(api, team, fast, '1.0.0');
  slow = await createTool(api, team);
  const destructive = slow.ir.with({
    behavior: {
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'always',
    },
  });
  await publish(api, team, { ...slow, ir: destructive }, '1.0.0', destructive);

  seededAt = Date.now();
  const tenMinutesAgo = new Date(seededAt - 10 * MINUTE);
  const halfAnHourAgo = new Date(seededAt - 30 * MINUTE);
  const fastCall = {
    teamId: team.id,
    toolId: fast.id,
    toolName: fast.name,
    createdAt: tenMinutesAgo,
  };
  const slowCall = {
    teamId: team.id,
    toolId: slow.id,
    toolName: slow.name,
    createdAt: halfAnHourAgo,
  };
  const calls: SeededCall[] = [
    // fast: latencies 1..200 ms, one of them failed: 199 / 200 = 99.5 %.
    ...Array.from({ length: 200 }, (_, index) => ({
      ...fastCall,
      latencyMs: index + 1,
      ...(index === 0 ? { status: 'failed' as const, errorCode: 'tool_error' } : {}),
    })),
    // Refused before the tool ran: counted in error codes, not in rates or latency.
    ...Array.from({ length: 3 }, () => ({
      ...fastCall,
      status: 'failed' as const,
      errorCode: 'policy_denied',
      latencyMs: 0,
    })),
    // slow (destructive): 1000..4000 ms approved, 5000 ms without an approval, 6000 ms timed out.
    ...[1000, 2000, 3000, 4000].map((latencyMs) => ({
      ...slowCall,
      latencyMs,
      approval: { status: 'approved' as const },
    })),
    { ...slowCall, latencyMs: 5000 },
    {
      ...slowCall,
      latencyMs: 6000,
      status: 'failed',
      errorCode: 'timeout',
      approval: { status: 'approved' },
    },
    {
      ...slowCall,
      status: 'failed',
      errorCode: 'approval_denied',
      latencyMs: 0,
      approval: { status: 'denied' },
    },
    {
      ...slowCall,
      status: 'awaiting_approval',
      approval: { status: 'pending', expiresAt: new Date(seededAt - MINUTE) },
    },
    // Outside the 1 h window.
    {
      ...fastCall,
      createdAt: new Date(seededAt - 2 * 60 * MINUTE),
      status: 'failed',
      latencyMs: 99_999,
    },
  ];
  await seedCalls(api, calls);
});
afterAll(async () => {
  await api?.close();
});

describe('GET /v1/metrics/slo', () => {
  it('computes success rate, p50/p95 and approvals per tool, and judges the SLOs', async () => {
    const response = await api.request({ url: '/v1/metrics/slo?window=1h', key: team.key });
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body.window).toBe('1h');
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(60 * MINUTE);

    const fastFigures = body.tools.find((tool: { tool: string }) => tool.tool === fast.name);
    expect(fastFigures).toMatchObject({
      tool_id: fast.id,
      calls: 200,
      success_rate: 0.995,
      destructive: false,
      error_codes: { tool_error: 1, policy_denied: 3 },
      approvals: { required: 0, approved: 0, denied: 0, expired: 0 },
    });
    // percentile_cont over 1..200: p50 = 100.5, p95 = 1 + 0.95 * 199 = 190.05.
    expect(fastFigures.p50_ms).toBeCloseTo(100.5, 6);
    expect(fastFigures.p95_ms).toBeCloseTo(190.05, 6);

    const slowFigures = body.tools.find((tool: { tool: string }) => tool.tool === slow.name);
    expect(slowFigures).toMatchObject({
      calls: 6,
      destructive: true,
      error_codes: { timeout: 1, approval_denied: 1 },
      approvals: { required: 7, approved: 5, denied: 1, expired: 1 },
    });
    expect(slowFigures.success_rate).toBeCloseTo(5 / 6, 10);
    // 1000..6000: p50 = 3500, p95 = 5000 + 0.75 * 1000.
    expect(slowFigures.p50_ms).toBeCloseTo(3500, 6);
    expect(slowFigures.p95_ms).toBeCloseTo(5750, 6);

    // Overall: 204 of 206 succeeded; p95 over 1..200 and 1000..6000 sits at 195.75.
    const [success, latency, destructive] = body.slos;
    expect(success).toMatchObject({ name: 'success_rate', target: 0.995, met: false });
    expect(success.actual).toBeCloseTo(204 / 206, 10);
    expect(latency).toMatchObject({ name: 'p95_latency_ms', target: 2000, met: true });
    expect(latency.actual).toBeCloseTo(195.75, 6);
    // 5 of the 6 destructive runs had an approval.
    expect(destructive).toMatchObject({ name: 'destructive_approval_rate', target: 1, met: false });
    expect(destructive.actual).toBeCloseTo(5 / 6, 10);
  });

  it('charts the window in 5-minute buckets for 1h', async () => {
    const { body } = await api.request({ url: '/v1/metrics/slo?window=1h', key: team.key });
    expect(body.buckets.length).toBeGreaterThanOrEqual(12);
    expect(body.buckets.length).toBeLessThanOrEqual(13);
    const total = body.buckets.reduce(
      (sum: number, bucket: { calls: number }) => sum + bucket.calls,
      0,
    );
    expect(total).toBe(206);
    const slowAt = seededAt - 30 * MINUTE;
    const slowBucket = body.buckets.find(
      (bucket: { start: string }) =>
        Date.parse(bucket.start) <= slowAt && slowAt < Date.parse(bucket.start) + 5 * MINUTE,
    );
    expect(slowBucket).toMatchObject({ calls: 6, succeeded: 5, failed: 1 });
    expect(slowBucket.p50_ms).toBeCloseTo(3500, 6);
    const empty = body.buckets.find((bucket: { calls: number }) => bucket.calls === 0);
    expect(empty).toMatchObject({ succeeded: 0, failed: 0, p50_ms: null, p95_ms: null });
  });

  it('narrows to one tool, and meets every SLO it has data for', async () => {
    const { body } = await api.request({
      url: `/v1/metrics/slo?window=1h&tool=${fast.name}`,
      key: team.key,
    });
    expect(body.tools.map((tool: { tool: string }) => tool.tool)).toEqual([fast.name]);
    expect(body.slos).toEqual([
      { name: 'success_rate', target: 0.995, actual: 0.995, met: true },
      { name: 'p95_latency_ms', target: 2000, actual: expect.closeTo(190.05, 6), met: true },
      { name: 'destructive_approval_rate', target: 1, actual: null, met: null },
    ]);
  });

  it('includes older calls in a longer window, and answers null with no data', async () => {
    const day = await api.request({
      url: `/v1/metrics/slo?window=24h&tool=${fast.name}`,
      key: team.key,
    });
    expect(day.body.tools[0].calls).toBe(201);
    expect(day.body.buckets.length).toBeGreaterThanOrEqual(24);

    const other = await createTeam(api);
    const none = await api.request({ url: '/v1/metrics/slo?window=7d', key: other.key });
    expect(none.status).toBe(200);
    expect(none.body.tools).toEqual([]);
    expect(
      none.body.slos.map((slo: { actual: unknown; met: unknown }) => [slo.actual, slo.met]),
    ).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
  });

  it('is readable by a console viewer', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const response = await viewer.request({ url: '/v1/metrics/slo?window=30d' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.buckets.length).toBeGreaterThanOrEqual(30);
    expect(response.body.tools.length).toBeGreaterThanOrEqual(2);
  });

  it('splits the window per tool and per version, with approval rates and waits per bucket', async () => {
    const releaseTeam = await createTeam(api);
    const tool = await createTool(api, releaseTeam);
    const destructive = tool.ir.with({
      behavior: {
        readonly: false,
        destructive: true,
        idempotent: false,
        requires_approval: 'always',
      },
    });
    await publish(api, releaseTeam, { ...tool, ir: destructive }, '1.0.0', destructive);
    await publish(api, releaseTeam, { ...tool, ir: destructive }, '1.1.0', destructive);
    const at = new Date(Date.now() - 10 * MINUTE);
    const base = { teamId: releaseTeam.id, toolId: tool.id, toolName: tool.name, createdAt: at };
    await seedCalls(api, [
      ...[1000, 2000, 3000].map((waitedMs) => ({
        ...base,
        toolVersion: '1.0.0',
        latencyMs: 100,
        approval: { status: 'approved' as const, waitedMs },
      })),
      {
        ...base,
        toolVersion: '1.1.0',
        latencyMs: 5000,
        status: 'failed',
        errorCode: 'tool_error',
        approval: { status: 'approved', waitedMs: 10_000 },
      },
      { ...base, toolVersion: '1.1.0', latencyMs: 300 },
    ]);

    const { status, body } = await api.request({
      url: '/v1/metrics/slo?window=1h',
      key: releaseTeam.key,
    });
    expect(status).toBe(200);
    const overall = body.buckets.find((bucket: { calls: number }) => bucket.calls > 0);
    // Four of the five runs were approved; waits 1, 2, 3 and 10 s.
    expect(overall).toMatchObject({ calls: 5, destructive_runs: 5, destructive_approved: 4 });
    expect(overall.approval_wait_p50_ms).toBeCloseTo(2500, 6);
    expect(overall.approval_wait_p95_ms).toBeCloseTo(3000 + 0.85 * 7000, 6);

    expect(
      body.by_tool.map((series: { key: string; version: unknown; calls: number }) => [
        series.key,
        series.version,
        series.calls,
      ]),
    ).toEqual([[tool.name, null, 5]]);
    expect(body.by_tool[0].buckets).toHaveLength(body.buckets.length);

    const versions = Object.fromEntries(
      body.by_version.map((series: { version: string }) => [series.version, series]),
    );
    expect(Object.keys(versions).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(versions['1.0.0']).toMatchObject({
      key: `${tool.name}@1.0.0`,
      tool_id: tool.id,
      calls: 3,
    });
    const canaryBucket = versions['1.1.0'].buckets.find(
      (bucket: { calls: number }) => bucket.calls > 0,
    );
    expect(canaryBucket).toMatchObject({
      calls: 2,
      succeeded: 1,
      failed: 1,
      destructive_runs: 2,
      destructive_approved: 1,
      approval_wait_p50_ms: 10_000,
    });
    expect(canaryBucket.p95_ms).toBeCloseTo(300 + 0.95 * 4700, 6);
  });

  it('answers bad input with 400 problems', async () => {
    for (const query of ['window=2h', 'window=1h&tool=', 'window=1h&extra=1']) {
      const response = await api.request({ url: `/v1/metrics/slo?${query}`, key: team.key });
      expect(response.status, query).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
