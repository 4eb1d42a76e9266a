import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { seedCalls, type SeededCall } from '../factories/seeded-calls.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let tool: TestTool;
let tenMinutesAgo: Date;

const MINUTE = 60_000;

interface Bucket {
  start: string;
  served: number;
  share: number | null;
  calls: number;
  succeeded: number;
  validation_failures: number;
  success_rate: number | null;
  validation_failure_rate: number | null;
  p95_latency_ms: number | null;
}
interface Version {
  version: string;
  role: string;
  served: number;
  buckets: Bucket[];
}

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  tool = await createTool(api, team);
  await publish(api, team, tool, '1.0.0');
  await publish(api, team, tool, '1.1.0');
  await publish(api, team, tool, '0.9.0', tool.ir, { release: 'none' });
  await setStable(api, team, tool, '1.0.0');
  const canary = await api.request({
    method: 'PUT',
    url: `/v1/tools/${tool.id}/release/canary`,
    key: team.key,
    body: { version: '1.1.0', percent: 20 },
  });
  expect(canary.status, canary.text).toBe(200);

  tenMinutesAgo = new Date(Date.now() - 10 * MINUTE);
  const call = (toolVersion: string, extra: Partial<SeededCall> = {}): SeededCall => ({
    teamId: team.id,
    toolId: tool.id,
    toolName: tool.name,
    toolVersion,
    createdAt: tenMinutesAgo,
    ...extra,
  });
  await seedCalls(api, [
    // Stable: 8 calls, all fine, 100..800 ms.
    ...Array.from({ length: 8 }, (_, index) => call('1.0.0', { latencyMs: (index + 1) * 100 })),
    // Canary: 1 validation failure, 1 tool error, 1 success; a policy refusal it is not judged by.
    call('1.1.0', { status: 'failed', errorCode: 'invalid_arguments', latencyMs: 1 }),
    call('1.1.0', { status: 'failed', errorCode: 'tool_error', latencyMs: 3000 }),
    call('1.1.0', { latencyMs: 1000 }),
    call('1.1.0', { status: 'failed', errorCode: 'policy_denied', latencyMs: 0 }),
    // A pinned caller still on 0.9.0; and a call outside the 1 h window.
    call('0.9.0'),
    call('1.0.0', { createdAt: new Date(Date.now() - 3 * 60 * MINUTE) }),
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe('GET /v1/tools/:toolId/release/history', () => {
  it("charts each version's guard figures and share per bucket, stable and canary first", async () => {
    const response = await api.request({
      url: `/v1/tools/${tool.id}/release/history?window=1h`,
      key: team.key,
    });
    expect(response.status, response.text).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      tool_id: tool.id,
      window: '1h',
      bucket_ms: 5 * MINUTE,
      stable_version: '1.0.0',
      canary_version: '1.1.0',
      canary_percent: 20,
    });
    const versions = body.versions as Version[];
    expect(versions.map((entry) => [entry.version, entry.role, entry.served])).toEqual([
      ['1.0.0', 'stable', 8],
      ['1.1.0', 'canary', 4],
      ['0.9.0', 'other', 1],
    ]);
    const index = versions[0]!.buckets.findIndex((bucket) => bucket.served > 0);
    expect(versions.every((entry) => entry.buckets.length === versions[0]!.buckets.length)).toBe(
      true,
    );

    const stable = versions[0]!.buckets[index]!;
    expect(stable).toMatchObject({ served: 8, calls: 8, succeeded: 8, success_rate: 1 });
    expect(stable.share).toBeCloseTo(8 / 13, 10);
    expect(stable.p95_latency_ms).toBeCloseTo(765, 6);

    const canary = versions[1]!.buckets[index]!;
    // The policy refusal is served but not judged; the validation failure leaves the success rate.
    expect(canary).toMatchObject({
      served: 4,
      calls: 3,
      succeeded: 1,
      validation_failures: 1,
      success_rate: 0.5,
    });
    expect(canary.share).toBeCloseTo(4 / 13, 10);
    expect(canary.validation_failure_rate).toBeCloseTo(1 / 3, 10);
    expect(canary.p95_latency_ms).toBeCloseTo(2900, 6);

    const empty = versions[1]!.buckets.find((bucket) => bucket.served === 0);
    expect(empty).toMatchObject({ share: null, success_rate: null, p95_latency_ms: null });
  });

  it('counts the older call in a longer window', async () => {
    const { body } = await api.request({
      url: `/v1/tools/${tool.id}/release/history`,
      key: team.key,
    });
    expect(body.window).toBe('24h');
    expect(body.versions[0]).toMatchObject({ version: '1.0.0', served: 9 });
  });

  it("lists stable without calls, and hides another team's private tool", async () => {
    const quiet = await createTool(api, team);
    await publish(api, team, quiet, '1.0.0');
    const { body } = await api.request({
      url: `/v1/tools/${quiet.id}/release/history?window=1h`,
      key: team.key,
    });
    expect(body.versions).toHaveLength(1);
    expect(body.versions[0]).toMatchObject({ version: '1.0.0', role: 'stable', served: 0 });

    const other = await createTeam(api);
    const hidden = await api.request({
      url: `/v1/tools/${tool.id}/release/history`,
      key: other.key,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.headers['content-type']).toContain('application/problem+json');
  });

  it('answers bad input with 400 problems', async () => {
    for (const query of ['window=2h', 'extra=1']) {
      const response = await api.request({
        url: `/v1/tools/${tool.id}/release/history?${query}`,
        key: team.key,
      });
      expect(response.status, query).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
