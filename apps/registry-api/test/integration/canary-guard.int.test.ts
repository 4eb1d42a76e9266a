import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CanaryGuardService } from '../../src/canary-guard/canary-guard.service';
import {
  createKey,
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let other: TestTeam;

/** Starts the API with the guard's timer off, so only the test decides when it evaluates. */
async function startWithGuardEnv(env: Record<string, string>): Promise<TestApp> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await startTestApp();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

beforeAll(async () => {
  api = await startWithGuardEnv({ CANARY_GUARD_INTERVAL_MS: '0' });
  team = await createTeam(api);
  other = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

/** A tool with 1.0.0 stable and 1.1.0 as a 20 % canary. */
async function toolWithCanary(app = api): Promise<TestTool> {
  const tool = await createTool(app, team);
  await publish(app, team, tool, '1.0.0');
  await publish(app, team, tool, '1.1.0');
  await setStable(app, team, tool, '1.0.0');
  const canary = await app.request({
    method: 'PUT',
    url: `/v1/tools/${tool.id}/release/canary`,
    key: team.key,
    body: { version: '1.1.0', percent: 20 },
  });
  expect(canary.status, canary.text).toBe(200);
  return tool;
}

interface CallSpec {
  status?: 'succeeded' | 'failed' | 'cancelled' | 'running';
  errorCode?: string;
  latencyMs?: number;
}

/** Finished calls of one version, written straight into the calls table as the gateway would. */
async function insertCalls(
  tool: TestTool,
  version: string,
  specs: CallSpec[],
  app = api,
): Promise<void> {
  const now = new Date();
  await app.database.prisma.call.createMany({
    data: specs.map((spec) => {
      const id = randomUUID();
      const status = spec.status ?? 'succeeded';
      return {
        id,
        teamId: team.id,
        actor: 'key:test',
        provider: 'openai-chat',
        providerCallId: `call_${id}`,
        toolId: tool.id,
        toolName: tool.name,
        toolVersion: version,
        arguments: {},
        argumentsHash: 'test',
        idempotencyKey: id,
        status,
        errorCode: status === 'succeeded' ? null : (spec.errorCode ?? 'internal'),
        latencyMs: spec.latencyMs ?? 100,
        createdAt: now,
        finishedAt: status === 'running' ? null : now,
      };
    }),
  });
}

function calls(count: number, spec: CallSpec = {}): CallSpec[] {
  return Array.from({ length: count }, () => ({ ...spec }));
}

/** `count` calls whose latencies spread evenly over [from, to] ms. */
function spread(count: number, from: number, to: number): CallSpec[] {
  return Array.from({ length: count }, (_, index) => ({
    latencyMs: Math.round(from + ((to - from) * index) / (count - 1)),
  }));
}

async function evaluateNow(tool: TestTool, key = team.key) {
  return api.request({
    method: 'POST',
    url: `/v1/tools/${tool.id}/release/guard/evaluate`,
    key,
  });
}

async function releaseOf(tool: TestTool) {
  const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
  expect(release.status, release.text).toBe(200);
  return release.body as { canary_version: string | null; canary_percent: number };
}

describe('canary guard', () => {
  it('rolls back a canary with a clearly worse success rate, with the figures in the audit trail', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', calls(30));
    await insertCalls(tool, '1.1.0', [...calls(18), ...calls(12, { status: 'failed' })]);
    // Calls the version cannot be blamed for are left out of the figures.
    await insertCalls(tool, '1.1.0', calls(5, { status: 'failed', errorCode: 'policy_denied' }));
    await insertCalls(tool, '1.1.0', calls(3, { status: 'cancelled', errorCode: 'cancelled' }));

    const evaluated = await evaluateNow(tool);
    expect(evaluated.status, evaluated.text).toBe(200);
    expect(evaluated.body).toMatchObject({
      verdict: 'unhealthy',
      action: 'rolled_back',
      stable: { version: '1.0.0', calls: 30, succeeded: 30, success_rate: 1 },
      canary: { version: '1.1.0', calls: 30, succeeded: 18, success_rate: 0.6 },
    });
    expect(evaluated.body.crossed).toEqual([
      expect.objectContaining({ rule: 'success_rate_drop', stable: 1, canary: 0.6, limit: 0.05 }),
    ]);
    expect(await releaseOf(tool)).toMatchObject({ canary_version: null, canary_percent: 0 });

    const audit = await api.request({
      url: `/v1/audit?action=release.canary_auto_rollback&entity_id=${tool.id}`,
    });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items).toHaveLength(1);
    const event = audit.body.items[0];
    expect(event).toMatchObject({
      actor: 'system:canary-guard',
      team_id: team.id,
      entity_type: 'tool',
      data: {
        before: { stableVersion: '1.0.0', canaryVersion: '1.1.0', canaryPercent: 20 },
        after: { stableVersion: '1.0.0', canaryVersion: null, canaryPercent: 0 },
        stable: { calls: 30, success_rate: 1 },
        canary: { calls: 30, success_rate: 0.6 },
        crossed: [{ rule: 'success_rate_drop', measured: 0.4, limit: 0.05 }],
        thresholds: { min_calls: 20, max_success_rate_drop: 0.05, max_p95_ratio: 1.5 },
      },
    });
    expect(event.data.reason).toContain('success rate 60%');
    const verify = await api.request({ url: '/v1/audit/verify' });
    expect(verify.body).toMatchObject({ ok: true, first_broken_link: null });

    // With the canary gone there is nothing left to judge, and nothing more is written.
    const again = await evaluateNow(tool);
    expect(again.body).toMatchObject({ verdict: 'no_canary', action: 'none', canary: null });
  });

  it('keeps a canary doing as well as stable', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', [...calls(39), ...calls(1, { status: 'failed' })]);
    await insertCalls(tool, '1.1.0', [...calls(29), ...calls(1, { status: 'failed' })]);
    const evaluated = await evaluateNow(tool);
    expect(evaluated.body).toMatchObject({ verdict: 'healthy', action: 'none', crossed: [] });
    expect(await releaseOf(tool)).toMatchObject({ canary_version: '1.1.0', canary_percent: 20 });
  });

  it('keeps a canary with too few calls to judge, however badly they went', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', calls(40));
    await insertCalls(tool, '1.1.0', calls(10, { status: 'failed' }));
    // Unfinished calls are no samples.
    await insertCalls(tool, '1.1.0', calls(15, { status: 'running' }));
    const evaluated = await evaluateNow(tool);
    expect(evaluated.body).toMatchObject({
      verdict: 'insufficient_data',
      action: 'none',
      canary: { calls: 10, succeeded: 0 },
    });
    expect(await releaseOf(tool)).toMatchObject({ canary_version: '1.1.0' });
  });

  it('reports both versions in the health endpoint and rolls back a slower canary on evaluation', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', spread(30, 80, 120));
    await insertCalls(tool, '1.1.0', spread(30, 300, 500));

    const reader = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    const health = await api.request({ url: `/v1/tools/${tool.id}/release/health`, key: reader });
    expect(health.status, health.text).toBe(200);
    expect(health.body).toMatchObject({
      tool_id: tool.id,
      stable_version: '1.0.0',
      canary_version: '1.1.0',
      canary_percent: 20,
      verdict: 'unhealthy',
      stable: { version: '1.0.0', calls: 30, success_rate: 1, validation_failure_rate: 0 },
      canary: { version: '1.1.0', calls: 30, success_rate: 1, validation_failure_rate: 0 },
    });
    expect(health.body.stable.p95_latency_ms).toBeCloseTo(118, 0);
    expect(health.body.canary.p95_latency_ms).toBeCloseTo(490, 0);
    expect(health.body.crossed).toEqual([expect.objectContaining({ rule: 'p95_latency_ratio' })]);
    // Reading the health acts on nothing.
    expect(await releaseOf(tool)).toMatchObject({ canary_version: '1.1.0' });

    // The timer's path: every running canary, no caller.
    const results = await api.app.get(CanaryGuardService).evaluate();
    expect(results.find((result) => result.tool_id === tool.id)).toMatchObject({
      verdict: 'unhealthy',
      action: 'rolled_back',
    });
    expect(await releaseOf(tool)).toMatchObject({ canary_version: null, canary_percent: 0 });
    const audit = await api.request({
      url: `/v1/audit?action=release.canary_auto_rollback&entity_id=${tool.id}`,
    });
    expect(audit.body.items[0].data).toMatchObject({
      requested_by: null,
      crossed: [{ rule: 'p95_latency_ratio', limit: 1.5 }],
    });
    expect((await api.request({ url: '/v1/audit/verify' })).body.ok).toBe(true);
  });

  it('does not count a tiny absolute slowdown on a fast tool', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', calls(30, { latencyMs: 4 }));
    await insertCalls(tool, '1.1.0', calls(30, { latencyMs: 12 }));
    const evaluated = await evaluateNow(tool);
    expect(evaluated.body).toMatchObject({ verdict: 'healthy', action: 'none' });
  });

  it('rolls back a canary whose arguments fail validation more often', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', calls(30));
    await insertCalls(tool, '1.1.0', [
      ...calls(22),
      ...calls(8, { status: 'failed', errorCode: 'invalid_arguments', latencyMs: 1 }),
    ]);
    const evaluated = await evaluateNow(tool);
    expect(evaluated.body).toMatchObject({
      verdict: 'unhealthy',
      action: 'rolled_back',
      // Refused calls never ran: the success rate is over the calls that passed validation.
      canary: { calls: 30, validation_failures: 8, success_rate: 1 },
    });
    expect(evaluated.body.crossed).toEqual([
      expect.objectContaining({ rule: 'validation_failure_increase' }),
    ]);
  });

  it('does not judge a restarted canary on calls from before it was restarted', async () => {
    const tool = await toolWithCanary();
    await insertCalls(tool, '1.0.0', calls(30));
    await insertCalls(tool, '1.1.0', calls(30, { status: 'failed' }));
    expect((await evaluateNow(tool)).body.action).toBe('rolled_back');
    const restart = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 5 },
    });
    expect(restart.status, restart.text).toBe(200);
    const evaluated = await evaluateNow(tool);
    expect(evaluated.body).toMatchObject({
      verdict: 'insufficient_data',
      action: 'none',
      canary: { calls: 0 },
    });
  });

  it('enforces scopes and team ownership on the guard routes', async () => {
    const tool = await toolWithCanary();
    const reader = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    const caller = await createKey(api, { teamId: team.id, scopes: ['calls:execute'] });
    const writer = await createKey(api, { teamId: team.id, scopes: ['tools:write'] });
    const health = `/v1/tools/${tool.id}/release/health`;

    expect((await api.request({ url: health, key: null })).status).toBe(401);
    expect((await api.request({ url: health, key: caller })).status).toBe(403);
    expect((await api.request({ url: health, key: reader })).status).toBe(200);
    const refused = await evaluateNow(tool, reader);
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect((await evaluateNow(tool, writer)).status).toBe(200);
    // Another team's private tool does not exist for it.
    expect((await api.request({ url: health, key: other.key })).status).toBe(404);
    expect((await evaluateNow(tool, other.key)).status).toBe(404);
    const badId = await api.request({ url: '/v1/tools/not-a-uuid/release/health' });
    expect(badId.status).toBe(400);
  });
});

describe('canary guard timer', () => {
  it('rolls back a failing canary on its own and stops with the app', async () => {
    const timed = await startWithGuardEnv({ CANARY_GUARD_INTERVAL_MS: '50' });
    try {
      const owner = await createTeam(timed);
      const tool = await createTool(timed, owner);
      await publish(timed, owner, tool, '1.0.0');
      await publish(timed, owner, tool, '1.1.0');
      await setStable(timed, owner, tool, '1.0.0');
      const canary = await timed.request({
        method: 'PUT',
        url: `/v1/tools/${tool.id}/release/canary`,
        key: owner.key,
        body: { version: '1.1.0', percent: 50 },
      });
      expect(canary.status, canary.text).toBe(200);
      const saved = team;
      team = owner;
      try {
        await insertCalls(tool, '1.0.0', calls(25), timed);
        await insertCalls(tool, '1.1.0', calls(25, { status: 'failed' }), timed);
      } finally {
        team = saved;
      }
      const deadline = Date.now() + 5_000;
      for (;;) {
        const release = await timed.request({
          url: `/v1/tools/${tool.id}/release`,
          key: owner.key,
        });
        if (release.body.canary_version === null) break;
        if (Date.now() > deadline) throw new Error('the guard did not roll the canary back');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const audit = await timed.request({ url: '/v1/audit?action=release.canary_auto_rollback' });
      expect(audit.body.items).toHaveLength(1);
      expect(audit.body.items[0].actor).toBe('system:canary-guard');
    } finally {
      await timed.close();
    }
  });
});
