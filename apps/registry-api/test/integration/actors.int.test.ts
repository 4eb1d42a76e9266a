import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser, type ConsoleBrowser } from '../factories/console.factory';
import {
  anthropicContent,
  createBuiltinTool,
  DESTRUCTIVE_BEHAVIOR,
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
let tool: TestTool;
let caller: { id: string; key: string; name: string };
let approver: ConsoleBrowser;
let callId: string;

/** A key of the team with a name of its own, so the answers can be checked for it. */
async function namedKey(): Promise<{ id: string; key: string; name: string }> {
  const name = uniqueName('billing-bot');
  const response = await api.request({
    method: 'POST',
    url: '/v1/api-keys',
    body: { name, scopes: ['admin'], team_id: team.id },
  });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.id as string, key: response.body.key as string, name };
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('drop', () => ({ dropped: true }));
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  caller = await namedKey();
  tool = await createBuiltinTool(
    api,
    { ...team, key: caller.key },
    {
      handler: 'drop',
      behavior: DESTRUCTIVE_BEHAVIOR,
    },
  );
  approver = await createConsoleUser(api, 'approver');
  const posted = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: caller.key,
    body: {
      provider: 'anthropic',
      payload: anthropicContent([{ id: 'toolu_names_1', name: tool.name, input: { query: 'x' } }]),
    },
  });
  expect(posted.status, posted.text).toBe(202);
  callId = posted.body.call_ids[0] as string;
  const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
  const decided = await approver.request({
    method: 'POST',
    url: `/v1/approvals/${approval.id}/decision`,
    body: { decision: 'deny', reason: 'not today' },
  });
  expect(decided.status, decided.text).toBe(200);
});
afterAll(async () => {
  await api?.close();
});

describe('answers name their actors', () => {
  const keyActor = () => ({ kind: 'key', id: caller.id, name: caller.name, team_name: team.slug });
  const userActor = () => ({
    kind: 'user',
    id: approver.email,
    name: 'A approver',
    team_name: null,
  });

  it('approvals: the requesting key with its team, the deciding console user by name', async () => {
    const list = await api.request({ url: '/v1/approvals?status=denied', key: team.key });
    expect(list.status, list.text).toBe(200);
    const approval = (list.body.items as Array<Record<string, string>>).find(
      (item) => item.call_id === callId,
    );
    expect(approval).toMatchObject({
      requested_by: `key:${caller.id}`,
      decided_by: `user:${approver.email}`,
    });
    expect(list.body.actors[`key:${caller.id}`]).toEqual(keyActor());
    expect(list.body.actors[`user:${approver.email}`]).toEqual(userActor());
  });

  it('audit: every actor of the page, the bootstrap admin key included', async () => {
    const page = await api.request({ url: '/v1/audit?limit=200' });
    expect(page.status, page.text).toBe(200);
    const actors = new Set((page.body.items as Array<{ actor: string }>).map((e) => e.actor));
    expect(Object.keys(page.body.actors).sort()).toEqual([...actors].sort());
    expect(page.body.actors[`key:${caller.id}`]).toEqual(keyActor());
    expect(page.body.actors[`user:${approver.email}`]).toEqual(userActor());
    expect(page.body.actors['admin']).toMatchObject({ kind: 'admin', team_name: null });
  });

  it('call timeline: the caller and the decider', async () => {
    const timeline = await api.request({ url: `/v1/calls/${callId}/timeline`, key: team.key });
    expect(timeline.status, timeline.text).toBe(200);
    expect(timeline.body.actors).toEqual({
      [`key:${caller.id}`]: keyActor(),
      [`user:${approver.email}`]: userActor(),
    });
  });

  it('release: who made the last change', async () => {
    const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
    expect(release.status, release.text).toBe(200);
    expect(release.body.updated_by).toBe(`key:${caller.id}`);
    expect(release.body.actors).toEqual({ [`key:${caller.id}`]: keyActor() });
  });
});
