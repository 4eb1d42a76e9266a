import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser } from '../factories/console.factory';
import {
  anthropicContent,
  createBuiltinTool,
  DESTRUCTIVE_BEHAVIOR,
  waitForCallStatus,
} from '../factories/gateway.factory';
import {
  createTeam,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let dropTable: TestTool;

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('drop', (args) => ({
    dropped: args['query'],
  }));
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

async function requestDrop(): Promise<{ callId: string; approvalId: string }> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: {
      provider: 'anthropic',
      conversation_id: 'conv-timeline',
      payload: anthropicContent([
        { id: uniqueName('toolu'), name: dropTable.name, input: { query: 'sessions' } },
      ]),
    },
  });
  expect(response.status, response.text).toBe(202);
  const callId = response.body.call_ids[0] as string;
  const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
  return { callId, approvalId: approval.id };
}

describe('GET /v1/calls/:callId/timeline', () => {
  it('shows a call that waited for approval, was approved in the console and finished', async () => {
    const { callId, approvalId } = await requestDrop();
    const waiting = await api.request({ url: `/v1/calls/${callId}/timeline`, key: team.key });
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.body.events.map((event: { type: string }) => event.type)).toEqual([
      'received',
      'queued',
      // The engine starts the call and its approval gate stops it.
      'started',
      'awaiting_approval',
    ]);

    const approver = await createConsoleUser(api, 'approver');
    const decided = await approver.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      body: { decision: 'approve', reason: 'cleanup ticket' },
    });
    expect(decided.status, decided.text).toBe(200);
    await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['succeeded'] });

    const response = await approver.request({ url: `/v1/calls/${callId}/timeline` });
    expect(response.status, response.text).toBe(200);
    const { call_id: id, events } = response.body;
    expect(id).toBe(callId);
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'received',
      'queued',
      // Each pickup: the one the approval gate stopped, and the one after the decision.
      'started',
      'awaiting_approval',
      'approval_decided',
      'started',
      'attempt',
      'finished',
    ]);
    const starts = events.filter((event: { type: string }) => event.type === 'started');
    expect(starts.map((event: { detail: { ended: string } }) => event.detail.ended)).toEqual([
      'awaiting_approval',
      'succeeded',
    ]);
    const byType = Object.fromEntries(events.map((event: { type: string }) => [event.type, event]));
    expect(byType.received.detail).toMatchObject({
      provider: 'anthropic',
      tool: dropTable.name,
      version: '1.0.0',
      conversation_id: 'conv-timeline',
    });
    expect(byType.awaiting_approval.detail).toMatchObject({ approval_id: approvalId });
    expect(byType.approval_decided.detail).toEqual({
      approval_id: approvalId,
      decision: 'approved',
      decided_by: `user:${approver.email}`,
      reason: 'cleanup ticket',
    });
    expect(byType.finished.detail).toMatchObject({ status: 'succeeded', ok: true, attempts: 1 });
    const times = events.map((event: { at: string }) => Date.parse(event.at));
    expect([...times].sort((left, right) => left - right)).toEqual(times);
  });

  it('shows a denial as the decision and the refusal as the result', async () => {
    const { callId, approvalId } = await requestDrop();
    const denied = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      body: { decision: 'deny', reason: 'not today' },
    });
    expect(denied.status, denied.text).toBe(200);
    await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['failed'] });
    const { body } = await api.request({ url: `/v1/calls/${callId}/timeline`, key: team.key });
    const decided = body.events.find(
      (event: { type: string }) => event.type === 'approval_decided',
    );
    expect(decided.detail).toMatchObject({ decision: 'denied', decided_by: 'admin' });
    expect(body.events.at(-1)).toMatchObject({
      type: 'finished',
      detail: { status: 'failed', error_code: 'approval_denied' },
    });
  });

  it("hides another team's call and answers bad ids with 400 problems", async () => {
    const { callId } = await requestDrop();
    const other = await createTeam(api);
    expect(
      (await api.request({ url: `/v1/calls/${callId}/timeline`, key: other.key })).status,
    ).toBe(404);
    expect((await api.request({ url: `/v1/calls/${crypto.randomUUID()}/timeline` })).status).toBe(
      404,
    );
    const bad = await api.request({ url: '/v1/calls/nope/timeline' });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
  });
});
