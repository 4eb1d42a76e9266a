import { getAdapter } from '@toolgate/adapters';
import { BuiltinExecutor } from '@toolgate/engine';
import type { ToolResultIR } from '@toolgate/toolir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalsService } from '../../src/approvals/approvals.service';
import {
  anthropicContent,
  createBuiltinTool,
  DESTRUCTIVE_BEHAVIOR,
  openAIChatMessage,
  waitForCallStatus,
} from '../factories/gateway.factory';
import { createKey, createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let dropTable: TestTool;
let runs = 0;

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('drop', (args) => {
    runs += 1;
    return { dropped: args['query'] };
  });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  dropTable = await createBuiltinTool(api, team, {
    handler: 'drop',
    behavior: DESTRUCTIVE_BEHAVIOR,
  });
});
afterAll(async () => {
  await api?.close();
});

/** A second key of the team that may decide approvals: the requester may not (four eyes). */
async function approverKey(): Promise<string> {
  return createKey(api, { teamId: team.id, scopes: ['approvals:decide'] });
}

/** Posts one destructive call and returns its id once it waits for approval. */
async function requestDrop(
  id: string,
  query: string,
): Promise<{ callId: string; approvalId: string }> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: {
      provider: 'anthropic',
      payload: anthropicContent([{ id, name: dropTable.name, input: { query } }]),
    },
  });
  expect(response.status, response.text).toBe(202);
  expect(response.body.calls[0].status).toBe('awaiting_approval');
  const callId = response.body.call_ids[0] as string;
  const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
  return { callId, approvalId: approval.id };
}

describe('approvals', () => {
  it('never runs a destructive tool without an approval, then runs it once when approved', async () => {
    const before = runs;
    const { callId, approvalId } = await requestDrop('toolu_drop_1', 'users');
    expect(runs).toBe(before);
    const call = await api.request({ url: `/v1/calls/${callId}`, key: team.key });
    expect(call.body).toMatchObject({
      status: 'awaiting_approval',
      result: { ok: false, error: { code: 'approval_required' } },
    });

    const pending = await api.request({ url: '/v1/approvals?status=pending', key: team.key });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({
        id: approvalId,
        call_id: callId,
        tool_id: dropTable.id,
        tool_version: '1.0.0',
        reason: 'destructive',
        status: 'pending',
      }),
    );

    const approver = await createKey(api, { teamId: team.id, scopes: ['approvals:decide'] });
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: approver,
      body: { decision: 'approve', reason: 'ticket OPS-17' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({
      status: 'approved',
      decided_by: expect.stringMatching(/^key:/),
    });

    const done = await waitForCallStatus(api, {
      key: team.key,
      id: callId,
      statuses: ['succeeded', 'failed'],
    });
    expect(done).toMatchObject({
      status: 'succeeded',
      result: { ok: true, data: { dropped: 'users' } },
    });
    expect(runs).toBe(before + 1);

    const again = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: approver,
      body: { decision: 'approve' },
    });
    expect(again.status).toBe(409);
    const row = await api.database.prisma.approval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(row.consumedAt).not.toBeNull();
    const audit = await api.request({
      url: `/v1/audit?entity_type=approval&entity_id=${approvalId}`,
    });
    expect(audit.body.items).toEqual([expect.objectContaining({ action: 'approval.approved' })]);
    expect(runs).toBe(before + 1);
  });

  it('gives the model approval_denied, with the reason, in its provider format', async () => {
    const before = runs;
    const { callId, approvalId } = await requestDrop('toolu_drop_2', 'orders');
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: await approverKey(),
      body: { decision: 'deny', reason: 'Not during business hours.' },
    });
    expect(decided.status, decided.text).toBe(200);
    const done = await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['failed'] });
    const result = done['result'] as ToolResultIR;
    expect(result).toMatchObject({
      call_id: 'toolu_drop_2',
      ok: false,
      error: { code: 'approval_denied' },
    });
    expect(result.error?.message).toContain('Not during business hours.');
    const wire = getAdapter('anthropic').resultsToWire([result]);
    expect(JSON.stringify(wire)).toContain('"is_error":true');
    expect(JSON.stringify(wire)).toContain('toolu_drop_2');
    expect(runs).toBe(before);
  });

  it('expires an undecided approval: the call fails with approval_expired and never runs', async () => {
    const before = runs;
    const { callId, approvalId } = await requestDrop('call_drop_3', 'logs');
    const service = api.app.get(ApprovalsService);
    const expired = await service.expireDue(new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(expired).toContain(callId);
    const done = await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['failed'] });
    expect(done['result']).toMatchObject({ ok: false, error: { code: 'approval_expired' } });
    const wire = getAdapter('openai-chat').resultsToWire([done['result'] as ToolResultIR]);
    expect(JSON.stringify(wire)).toContain('approval_expired');
    const late = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: await approverKey(),
      body: { decision: 'approve' },
    });
    expect(late.status).toBe(409);
    expect(runs).toBe(before);
  });

  it('needs approvals:decide to decide, and validates the decision', async () => {
    const { approvalId } = await requestDrop('toolu_drop_4', 'cache');
    const caller = await createKey(api, { teamId: team.id, scopes: ['calls:execute'] });
    const forbidden = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: caller,
      body: { decision: 'approve' },
    });
    expect(forbidden.status).toBe(403);
    const invalid = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: team.key,
      body: { decision: 'maybe' },
    });
    expect(invalid.status).toBe(400);
    const other = await createTeam(api);
    const hidden = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: other.key,
      body: { decision: 'approve' },
    });
    expect(hidden.status).toBe(404);
    // OpenAI payloads reach the same gate.
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_d5', name: dropTable.name, arguments: '{"query":"x"}' },
        ]),
      },
    });
    expect(response.status).toBe(202);
  });

  it('refuses a decision by the key that made the call (four eyes), changing nothing', async () => {
    const before = runs;
    const { callId, approvalId } = await requestDrop('toolu_drop_self', 'accounts');
    for (const decision of ['approve', 'deny']) {
      const refused = await api.request({
        method: 'POST',
        url: `/v1/approvals/${approvalId}/decision`,
        key: team.key,
        body: { decision },
      });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({
        status: 403,
        code: 'self_approval_forbidden',
        type: 'https://toolgate.dev/problems/self_approval_forbidden',
        requested_by: expect.stringMatching(/^key:/),
      });
      expect(refused.body.detail).toContain('another member');
      expect(refused.body.detail).toContain('allow_self_approval');
    }
    const pending = await api.request({ url: '/v1/approvals?status=pending', key: team.key });
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({ id: approvalId, status: 'pending', decided_by: null }),
    );
    const audit = await api.request({
      url: `/v1/audit?entity_type=approval&entity_id=${approvalId}`,
    });
    expect(audit.body.items).toEqual([]);
    expect(runs).toBe(before);

    // Another member decides it.
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: await approverKey(),
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['succeeded'] });
    expect(runs).toBe(before + 1);
  });

  it("lets a team admin allow self-approval with the team's setting, audited", async () => {
    const own = await createTeam(api);
    const tool = await createBuiltinTool(api, own, {
      handler: 'drop',
      behavior: DESTRUCTIVE_BEHAVIOR,
    });
    const read = async () =>
      (await api.request({ url: '/v1/teams', key: own.key })).body.items[0] as Record<
        string,
        unknown
      >;
    expect(await read()).toMatchObject({ id: own.id, allow_self_approval: false });

    // Bad input, a key without admin and another team's key change nothing.
    for (const body of [{}, { allow_self_approval: 'yes' }, { allow_self_approval: true, x: 1 }]) {
      const bad = await api.request({
        method: 'PATCH',
        url: `/v1/teams/${own.id}`,
        key: own.key,
        body,
      });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const badId = await api.request({
      method: 'PATCH',
      url: '/v1/teams/not-a-uuid',
      key: own.key,
      body: { allow_self_approval: true },
    });
    expect(badId.status).toBe(400);
    const caller = await createKey(api, {
      teamId: own.id,
      scopes: ['calls:execute', 'approvals:decide'],
    });
    const notAdmin = await api.request({
      method: 'PATCH',
      url: `/v1/teams/${own.id}`,
      key: caller,
      body: { allow_self_approval: true },
    });
    expect(notAdmin.status).toBe(403);
    const otherTeam = await api.request({
      method: 'PATCH',
      url: `/v1/teams/${own.id}`,
      key: team.key,
      body: { allow_self_approval: true },
    });
    expect(otherTeam.status).toBe(404);
    expect(otherTeam.body).toMatchObject({ code: 'not_found' });
    expect(await read()).toMatchObject({ allow_self_approval: false });
    const untouched = await api.request({ url: `/v1/audit?entity_type=team&entity_id=${own.id}` });
    expect(untouched.body.items.map((event: { action: string }) => event.action)).toEqual([
      'team.created',
    ]);

    const changed = await api.request({
      method: 'PATCH',
      url: `/v1/teams/${own.id}`,
      key: own.key,
      body: { allow_self_approval: true },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: own.id, allow_self_approval: true });
    const trail = await api.request({ url: `/v1/audit?entity_type=team&entity_id=${own.id}` });
    expect(trail.body.items).toContainEqual(
      expect.objectContaining({
        action: 'team.updated',
        actor: expect.stringMatching(/^key:/),
        data: { before: { allow_self_approval: false }, after: { allow_self_approval: true } },
      }),
    );

    // Now the key that made the call may decide it.
    const before = runs;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: own.key,
      body: {
        provider: 'anthropic',
        payload: anthropicContent([
          { id: 'toolu_self_ok', name: tool.name, input: { query: 'tmp' } },
        ]),
      },
    });
    expect(response.status, response.text).toBe(202);
    const callId = response.body.call_ids[0] as string;
    const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approval.id}/decision`,
      key: own.key,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    await waitForCallStatus(api, { key: own.key, id: callId, statuses: ['succeeded'] });
    expect(runs).toBe(before + 1);
  });
});
