import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser } from '../factories/console.factory';
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

let api: TestApp;
let owner: TestTeam;
let caller: TestTeam;
let tool: TestTool;
let ownerKeyId: string;
let callerKeyId: string;

const DAY = 24 * 3_600_000;

/** The key's id, as the token carries it (tg_<32 hex>_<secret>). */
function keyIdOf(key: string): string {
  const id = /^tg_([0-9a-f]{32})_/.exec(key)![1]!;
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}

beforeAll(async () => {
  api = await startTestApp();
  owner = await createTeam(api);
  caller = await createTeam(api);
  tool = await createTool(api, owner, { visibility: 'public' });
  await publish(api, owner, tool, '1.0.0');
  await publish(api, owner, tool, '2.0.0');
  ownerKeyId = keyIdOf(await createKey(api, { teamId: owner.id, scopes: ['calls:execute'] }));
  callerKeyId = keyIdOf(await createKey(api, { teamId: caller.id, scopes: ['calls:execute'] }));
  const now = Date.now();
  const base = { toolId: tool.id, toolName: tool.name };
  await seedCalls(api, [
    ...[1, 2, 3].map((hours) => ({
      ...base,
      teamId: caller.id,
      keyId: callerKeyId,
      createdAt: new Date(now - hours * 3_600_000),
    })),
    { ...base, teamId: owner.id, keyId: ownerKeyId, createdAt: new Date(now - 2 * DAY) },
    // Older than the 7-day window, and another version: neither is listed.
    { ...base, teamId: owner.id, keyId: ownerKeyId, createdAt: new Date(now - 10 * DAY) },
    { ...base, teamId: caller.id, keyId: callerKeyId, toolVersion: '2.0.0' },
  ]);
});
afterAll(async () => {
  await api?.close();
});

describe('GET /v1/tools/:toolId/versions/:version/usage', () => {
  it('lists the teams and keys calling a version, busiest first', async () => {
    const response = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.0.0/usage?window=7d`,
      key: owner.key,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      tool: tool.name,
      version: '1.0.0',
      window: '7d',
      callers: [
        {
          team_id: caller.id,
          team_name: caller.slug,
          key_id: callerKeyId,
          key_name: expect.any(String),
          actor: `key:${callerKeyId}`,
          calls: 3,
          last_call_at: expect.any(String),
        },
        {
          team_id: owner.id,
          team_name: owner.slug,
          key_id: ownerKeyId,
          key_name: expect.any(String),
          actor: `key:${ownerKeyId}`,
          calls: 1,
          last_call_at: expect.any(String),
        },
      ],
    });
    const last = Date.parse(response.body.callers[0].last_call_at);
    expect(Date.now() - last).toBeGreaterThan(3_500_000);
    expect(Date.now() - last).toBeLessThan(3_700_000);
  });

  it('follows the window and defaults to 7 days', async () => {
    const month = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.0.0/usage?window=30d`,
      key: owner.key,
    });
    expect(
      month.body.callers.find((row: { team_id: string }) => row.team_id === owner.id).calls,
    ).toBe(2);
    const day = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.0.0/usage?window=24h`,
      key: owner.key,
    });
    expect(day.body.callers.map((row: { team_id: string }) => row.team_id)).toEqual([caller.id]);
    const fallback = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.0.0/usage`,
      key: owner.key,
    });
    expect(fallback.body.window).toBe('7d');
    expect(fallback.body.callers).toHaveLength(2);
  });

  it('is visible to the owning team and console users, not to a team that only calls it', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    expect(
      (await viewer.request({ url: `/v1/tools/${tool.id}/versions/1.0.0/usage` })).status,
    ).toBe(200);
    const stranger = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.0.0/usage`,
      key: caller.key,
    });
    expect(stranger.status).toBe(404);
  });

  it('answers unknown tools and versions with 404 and bad input with 400 problems', async () => {
    const unknownVersion = await api.request({
      url: `/v1/tools/${tool.id}/versions/9.9.9/usage`,
      key: owner.key,
    });
    expect(unknownVersion.status).toBe(404);
    expect(unknownVersion.body.code).toBe('version_not_found');
    const unknownTool = await api.request({
      url: `/v1/tools/${crypto.randomUUID()}/versions/1.0.0/usage`,
      key: owner.key,
    });
    expect(unknownTool.status).toBe(404);
    for (const url of [
      `/v1/tools/not-a-uuid/versions/1.0.0/usage`,
      `/v1/tools/${tool.id}/versions/latest/usage`,
      `/v1/tools/${tool.id}/versions/1.0.0/usage?window=1y`,
    ]) {
      const response = await api.request({ url, key: owner.key });
      expect(response.status, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
  });
});
