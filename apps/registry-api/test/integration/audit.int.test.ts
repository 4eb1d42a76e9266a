import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let other: TestTeam;
let tool: TestTool;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  other = await createTeam(api);
  tool = await createTool(api, team);
  // A tool's first published version becomes stable in the same request (release.stable_set).
  await publish(api, team, tool, '1.0.0');
});
afterAll(async () => {
  await api?.close();
});

function sql<TRow extends Record<string, unknown>>(text: string): Promise<TRow[]> {
  return api.sql<TRow>(text);
}

/** A superuser session that skips triggers, as an attacker with database access would. */
async function tamper(statement: string): Promise<void> {
  await api.database.withSession(async (session) => {
    await session.query(`SET session_replication_role = replica`);
    try {
      await session.query(statement);
    } finally {
      // On PGlite this is the app's own connection: the triggers must come back.
      await session.query(`RESET session_replication_role`);
    }
  });
}

describe('audit trail', () => {
  it('records every mutation with its actor, newest first', async () => {
    const events = await api.request({ url: `/v1/audit?entity_type=tool&entity_id=${tool.id}` });
    expect(events.status).toBe(200);
    expect(events.body.items.map((event: { action: string }) => event.action)).toEqual([
      'release.stable_set',
      'tool_version.published',
      'tool.created',
    ]);
    const keyId = team.key
      .split('_')[1]!
      .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect(events.body.items[0]).toMatchObject({
      actor: `key:${keyId}`,
      team_id: team.id,
      entity_id: tool.id,
    });
    expect(events.body.items[0].data).toEqual({
      before: null,
      after: {
        stableVersion: '1.0.0',
        canaryVersion: null,
        canaryPercent: 0,
        previousStableVersion: null,
      },
    });
  });

  it('filters by actor, action and time, and paginates with a cursor', async () => {
    const byAction = await api.request({ url: '/v1/audit?action=team.created' });
    expect(byAction.body.items.map((event: { entity_id: string }) => event.entity_id)).toEqual([
      other.id,
      team.id,
    ]);
    const byActor = await api.request({
      url: '/v1/audit?actor=admin&action=api_key.created&limit=1',
    });
    expect(byActor.body.items).toHaveLength(1);
    const next = await api.request({
      url: `/v1/audit?actor=admin&action=api_key.created&limit=1&cursor=${byActor.body.next_cursor}`,
    });
    expect(next.body.items).toHaveLength(1);
    expect(Number(next.body.items[0].seq)).toBeLessThan(Number(byActor.body.items[0].seq));
    const future = await api.request({
      url: `/v1/audit?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    });
    expect(future.body.items).toEqual([]);
    const past = await api.request({
      url: `/v1/audit?to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=200`,
    });
    expect(past.body.items.length).toBeGreaterThanOrEqual(6);
  });

  it("shows a team's admin key only its own team's events", async () => {
    const own = await api.request({ url: '/v1/audit?limit=200', key: other.key });
    expect(own.body.items.length).toBeGreaterThan(0);
    expect(own.body.items.every((event: { team_id: string }) => event.team_id === other.id)).toBe(
      true,
    );
  });

  it('refuses UPDATE and DELETE on audit events (append-only trigger)', async () => {
    await expect(
      sql(`UPDATE audit_events SET actor = 'someone-else' WHERE seq = 1`),
    ).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM audit_events WHERE seq = 1`)).rejects.toThrow(/append-only/);
    await expect(sql(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
  });

  it('verifies the chain, then names the first row tampered with in SQL', async () => {
    const intact = await api.request({ url: '/v1/audit/verify' });
    expect(intact.status).toBe(200);
    expect(intact.body).toMatchObject({ ok: true, first_broken_link: null });
    expect(intact.body.checked).toBe(Number(intact.body.head.seq));
    await tamper(`UPDATE audit_events SET data = '{"name":"forged"}' WHERE seq = 3`);
    const [row] = await sql<{ id: string }>(
      `SELECT id::text AS id FROM audit_events WHERE seq = 3`,
    );
    const broken = await api.request({ url: '/v1/audit/verify' });
    expect(broken.body).toMatchObject({
      ok: false,
      first_broken_link: { seq: '3', id: row!.id, reason: 'hash_mismatch' },
    });
    expect(broken.body.checked).toBe(2);
  });

  it('detects a deleted row as a gap in the chain', async () => {
    await tamper(`DELETE FROM audit_events WHERE seq = 1`);
    const broken = await api.request({ url: '/v1/audit/verify' });
    expect(broken.body.first_broken_link).toMatchObject({ seq: '2', reason: 'sequence_gap' });
  });
});

describe('concurrent appends', () => {
  it('keep one unbroken chain when mutations race', async () => {
    const fresh = await startTestApp();
    try {
      const owner = await createTeam(fresh);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          fresh.request({
            method: 'POST',
            url: '/v1/tools',
            key: owner.key,
            body: { name: `racer-${index}` },
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(Array.from({ length: 12 }, () => 201));
      const verify = await fresh.request({ url: '/v1/audit/verify' });
      expect(verify.body).toMatchObject({ ok: true, checked: 14 });
    } finally {
      await fresh.close();
    }
  });
});
