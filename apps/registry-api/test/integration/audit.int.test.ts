import type { AuditVerification } from '@toolgate/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashAuditEvent } from '../../src/audit/audit-hash';
import { appendAuditEvent, AuditRepository } from '../../src/audit/audit.repository';
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
async function tamper(statement: string, on: TestApp = api, params: unknown[] = []): Promise<void> {
  await on.database.withSession(async (session) => {
    await session.query(`SET session_replication_role = replica`);
    try {
      await session.query(statement, params);
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
    expect(intact.body).toMatchObject({ ok: true, mode: 'full', first_broken_link: null });
    expect(intact.body.checked).toBe(Number(intact.body.head.seq));
    await tamper(`UPDATE audit_events SET data = '{"name":"forged"}' WHERE seq = 3`);
    const [row] = await sql<{ id: string }>(
      `SELECT id::text AS id FROM audit_events WHERE seq = 3`,
    );
    const broken = await api.request({ url: '/v1/audit/verify?full=true' });
    expect(broken.body).toMatchObject({
      ok: false,
      first_broken_link: { seq: '3', id: row!.id, reason: 'hash_mismatch' },
    });
    expect(broken.body.checked).toBe(2);
  });

  it('detects a deleted row as a gap in the chain', async () => {
    await tamper(`DELETE FROM audit_events WHERE seq = 1`);
    const broken = await api.request({ url: '/v1/audit/verify?full=true' });
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

describe('verification from the checkpoint', () => {
  let chain: TestApp;

  beforeEach(async () => {
    chain = await startTestApp();
    // A few real mutations, so the chain starts as the API writes it.
    await createTool(chain, await createTeam(chain));
  });
  afterEach(async () => {
    await chain?.close();
  });

  /** Appends events with the appender mutations use, in one transaction. */
  async function append(count: number): Promise<void> {
    await chain.database.prisma.$transaction(
      async (tx) => {
        for (let index = 0; index < count; index += 1) {
          await appendAuditEvent(tx, {
            actor: 'admin',
            teamId: null,
            action: 'test.appended',
            entityType: 'test',
            entityId: String(index),
            data: { index },
          });
        }
      },
      { timeout: 120_000 },
    );
  }

  async function verify(query = ''): Promise<AuditVerification> {
    const response = await chain.request({ url: `/v1/audit/verify${query}` });
    expect(response.status, response.text).toBe(200);
    return response.body as AuditVerification;
  }

  async function stored(): Promise<{ seq: string; hash: string } | undefined> {
    const [row] = await chain.sql<{ seq: string; hash: string }>(
      'SELECT seq::text AS seq, hash FROM audit_checkpoint',
    );
    return row;
  }

  async function eventAt(seq: number): Promise<{ id: string; hash: string }> {
    const [row] = await chain.sql<{ id: string; hash: string }>(
      `SELECT id::text AS id, hash FROM audit_events WHERE seq = ${seq}`,
    );
    return row!;
  }

  it('walks the whole chain once, then only the events appended after the checkpoint', async () => {
    // Past a few verification batches.
    await append(1_200);
    const first = await verify();
    const head = Number(first.head.seq);
    expect(first).toMatchObject({ ok: true, mode: 'full', from_seq: '1', checkpoint: null });
    expect(first.checked).toBe(head);
    expect(await stored()).toEqual({ seq: String(head), hash: first.head.hash });

    await append(25);
    const next = await verify();
    expect(next).toMatchObject({
      ok: true,
      mode: 'incremental',
      from_seq: String(head),
      to_seq: String(head + 25),
      checked: 26,
      checkpoint: { seq: String(head), hash: first.head.hash, verified_at: first.verified_at },
      first_broken_link: null,
    });
    expect(next.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await stored()).toEqual({ seq: String(head + 25), hash: next.head.hash });

    const again = await verify('?full=true');
    expect(again).toMatchObject({ ok: true, mode: 'full', checked: head + 25 });
  });

  it('finds a row changed after the checkpoint, and keeps finding it', async () => {
    const head = Number((await verify()).head.seq);
    await append(5);
    await tamper(`UPDATE audit_events SET actor = 'mallory' WHERE seq = ${head + 3}`, chain);
    const broken = await verify();
    expect(broken).toMatchObject({
      ok: false,
      mode: 'incremental',
      to_seq: String(head + 2),
      first_broken_link: {
        seq: String(head + 3),
        id: (await eventAt(head + 3)).id,
        reason: 'hash_mismatch',
      },
    });
    expect((await stored())?.seq).toBe(String(head + 2));
    expect((await verify()).first_broken_link).toMatchObject({ seq: String(head + 3) });
  });

  it('finds rows deleted from the end, after the checkpoint and back past it', async () => {
    const head = Number((await verify()).head.seq);
    await append(3);
    await tamper(`DELETE FROM audit_events WHERE seq = ${head + 3}`, chain);
    expect((await verify()).first_broken_link).toEqual({
      seq: String(head + 3),
      id: null,
      reason: 'head_mismatch',
    });
    // Cut back past the checkpoint, the head moved back with it: the checkpoint still knows.
    await tamper(`DELETE FROM audit_events WHERE seq >= ${head - 1}`, chain);
    const last = await eventAt(head - 2);
    await tamper(`UPDATE audit_chain_head SET last_seq = $1, hash = $2`, chain, [
      head - 2,
      last.hash,
    ]);
    expect(await verify()).toMatchObject({
      ok: false,
      first_broken_link: { seq: String(head), id: null, reason: 'checkpoint_mismatch' },
    });
  });

  it('finds history rewritten up to the checkpoint, all hashes recomputed, at the checkpointed event', async () => {
    const head = Number((await verify()).head.seq);
    await append(3);
    // The forger rewrites event 2 and every hash after it, the head's too: the chain links again.
    const events = await chain.database.prisma.auditEvent.findMany({
      where: { seq: { gte: 1n } },
      orderBy: { seq: 'asc' },
    });
    let previous = events[0]!.hash;
    for (const event of events.slice(1)) {
      const data = event.seq === 2n ? { forged: true } : event.data;
      const hash = hashAuditEvent(previous, { ...event, data });
      await tamper(
        'UPDATE audit_events SET data = $1::jsonb, prev_hash = $2, hash = $3 WHERE seq = $4',
        chain,
        [JSON.stringify(data), previous, hash, event.seq.toString()],
      );
      previous = hash;
    }
    await tamper('UPDATE audit_chain_head SET hash = $1', chain, [previous]);
    const mismatch = {
      seq: String(head),
      id: (await eventAt(head)).id,
      reason: 'checkpoint_mismatch',
    };
    expect(await verify()).toMatchObject({
      ok: false,
      mode: 'incremental',
      first_broken_link: mismatch,
    });
    expect(await verify('?full=true')).toMatchObject({
      ok: false,
      mode: 'full',
      to_seq: String(head - 1),
      first_broken_link: mismatch,
    });
  });

  it('trusts the past until a full walk finds a break before the checkpoint, then reports it too', async () => {
    await verify();
    await tamper(`UPDATE audit_events SET data = '{"name":"forged"}' WHERE seq = 2`, chain);
    expect((await verify()).ok).toBe(true);
    const full = await verify('?full=true');
    expect(full).toMatchObject({
      ok: false,
      checked: 1,
      first_broken_link: { seq: '2', reason: 'hash_mismatch' },
    });
    expect(await stored()).toEqual({ seq: '1', hash: (await eventAt(1)).hash });
    expect(await verify()).toMatchObject({
      ok: false,
      mode: 'incremental',
      from_seq: '1',
      first_broken_link: { seq: '2', reason: 'hash_mismatch' },
    });
  });

  it('never moves the checkpoint back, whatever order verifications finish in', async () => {
    await append(1_200);
    const results = await Promise.all([
      verify('?full=true'),
      append(40).then(() => verify()),
      verify(),
      append(40).then(() => verify('?full=true')),
      verify(),
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    const furthest = Math.max(...results.map((result) => Number(result.to_seq)));
    expect((await stored())?.seq).toBe(String(furthest));

    // The statement itself: an older position, or one built on a checkpoint since moved back, is ignored.
    const audit = chain.app.get(AuditRepository);
    const before = await audit.checkpoint();
    const older = await eventAt(furthest - 10);
    const now = new Date(Date.now() + 60_000);
    expect(
      await audit.advanceCheckpoint(
        { seq: BigInt(furthest - 10), hash: older.hash, verifiedAt: now },
        0n,
      ),
    ).toBe(false);
    await append(1);
    const head = await audit.head();
    expect(await audit.advanceCheckpoint({ ...head, verifiedAt: now }, head.seq)).toBe(false);
    expect(await audit.checkpoint()).toEqual(before);
    expect(await audit.advanceCheckpoint({ ...head, verifiedAt: now }, before!.seq)).toBe(true);
  });
});
