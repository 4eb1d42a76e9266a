import { getAdapter } from '@toolgate/adapters';
import { BuiltinExecutor } from '@toolgate/engine';
import type { ToolResultIR } from '@toolgate/toolir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicContent,
  createBuiltinTool,
  openAIChatMessage,
} from '../factories/gateway.factory';
import { createKey, createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { createConsoleUser } from '../factories/console.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let refund: TestTool;
let runs = 0;

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('refund', (args) => {
    runs += 1;
    return { refunded: args['query'] };
  });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  refund = await createBuiltinTool(api, team, { handler: 'refund' });
});
afterAll(async () => {
  await api?.close();
});

function denyText(toolName: string): string {
  return `
@id("permit-all")
permit(principal, action == Action::"execute", resource);

@id("no-vip-refunds")
@reason("VIP refunds go through the finance desk.")
forbid(principal, action, resource == Tool::"${toolName}")
when { context.arguments has query && context.arguments.query == "vip" };
`;
}

describe('policies', () => {
  it('refuses invalid Cedar with 422 and every error inline, saving nothing', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: team.key,
      body: { text: 'permit(principal, action, resource) when { resource.destrutive };\nforbid(' },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body.code).toBe('invalid_policy');
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(response.body.errors[0].path).toBe('/body/text');
    expect(response.body.policy_errors.length).toBeGreaterThan(0);
    const history = await api.request({ url: '/v1/policies', key: team.key });
    expect(history.body.items).toEqual([]);
  });

  it('tests a text against a sample call without saving it', async () => {
    const denied = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: team.key,
      body: {
        text: denyText(refund.name),
        call: { name: refund.name, arguments: { query: 'vip' } },
      },
    });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body).toMatchObject({
      effect: 'deny',
      reason: 'VIP refunds go through the finance desk.',
      matched_rule: 'no-vip-refunds',
    });
    const allowed = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: team.key,
      body: {
        text: denyText(refund.name),
        call: { name: refund.name, arguments: { query: 'small' } },
      },
    });
    expect(allowed.body).toMatchObject({ effect: 'allow', matched_rule: 'permit-all' });
    const invalid = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: team.key,
      body: { text: 'forbid(', call: { name: refund.name } },
    });
    expect(invalid.status).toBe(422);
    expect((await api.request({ url: '/v1/policies', key: team.key })).body.items).toEqual([]);
  });

  it('tests against a team the admin key or a console admin names; a team key only its own', async () => {
    const sample = {
      text: denyText(refund.name),
      call: { name: refund.name, arguments: { query: 'vip' } },
    };
    // The admin key and console users span every team: they name the one to test against.
    const byAdmin = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      body: { ...sample, team_id: team.id },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect(byAdmin.body).toMatchObject({ effect: 'deny', matched_rule: 'no-vip-refunds' });
    const consoleAdmin = await createConsoleUser(api, 'admin');
    const byConsole = await consoleAdmin.request({
      method: 'POST',
      url: '/v1/policies/test',
      body: { ...sample, team_id: team.id },
    });
    expect(byConsole.status, byConsole.text).toBe(200);
    expect(byConsole.body).toMatchObject({ effect: 'deny', matched_rule: 'no-vip-refunds' });

    // Without a team, with a malformed or unknown one: a problem naming team_id.
    const unnamed = await api.request({ method: 'POST', url: '/v1/policies/test', body: sample });
    expect(unnamed.status).toBe(400);
    expect(unnamed.headers['content-type']).toContain('application/problem+json');
    expect(unnamed.body.errors).toEqual([expect.objectContaining({ path: '/body/team_id' })]);
    const malformed = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      body: { ...sample, team_id: 'team-1' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([expect.objectContaining({ path: '/body/team_id' })]);
    const unknown = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      body: { ...sample, team_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');

    // A team key tests its own team, naming it or not, and cannot pick another.
    const own = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: team.key,
      body: { ...sample, team_id: team.id },
    });
    expect(own.status, own.text).toBe(200);
    const other = await createTeam(api);
    const foreign = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: other.key,
      body: { ...sample, team_id: team.id },
    });
    expect(foreign.status).toBe(404);
    // The other team cannot call this team's private tool either.
    const ownOther = await api.request({
      method: 'POST',
      url: '/v1/policies/test',
      key: other.key,
      body: sample,
    });
    expect(ownOther.status).toBe(422);
    expect(ownOther.body.code).toBe('unknown_tool');
    expect((await api.request({ url: '/v1/policies', key: team.key })).body.items).toEqual([]);
  });

  it('denies a call by the active policy: policy_denied with the reason, explained by /decision', async () => {
    const created = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: team.key,
      body: { text: denyText(refund.name) },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ revision: 1, active: false, scope: team.id });
    const activated = await api.request({
      method: 'POST',
      url: `/v1/policies/${created.body.revision}/activate`,
      key: team.key,
    });
    expect(activated.status, activated.text).toBe(200);
    expect(activated.body.active).toBe(true);

    const before = runs;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_vip', name: refund.name, arguments: '{"query":"vip"}' },
        ]),
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(runs).toBe(before);
    expect(response.body.calls[0].status).toBe('failed');
    expect(response.body.results[0].content).toContain('policy_denied');
    expect(response.body.results[0].content).toContain('VIP refunds go through the finance desk.');

    const callId = response.body.calls[0].id as string;
    const call = await api.request({ url: `/v1/calls/${callId}`, key: team.key });
    const wire = getAdapter('anthropic').resultsToWire([call.body.result as ToolResultIR]);
    expect(JSON.stringify(wire)).toContain('"is_error":true');
    const decision = await api.request({ url: `/v1/calls/${callId}/decision`, key: team.key });
    expect(decision.body).toEqual({
      call_id: callId,
      effect: 'deny',
      matched_rule: 'no-vip-refunds',
      policy_revision: '1',
      reason: expect.stringContaining('VIP refunds go through the finance desk.'),
    });

    const allowed = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        payload: anthropicContent([
          { id: 'toolu_ok', name: refund.name, input: { query: 'small' } },
        ]),
      },
    });
    expect(allowed.body.calls[0].status).toBe('succeeded');
    expect(runs).toBe(before + 1);
  });

  it('keeps the history, activates an older revision and audits each change', async () => {
    const second = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: team.key,
      body: { text: 'permit(principal, action, resource);', activate: true },
    });
    expect(second.status, second.text).toBe(201);
    expect(second.body).toMatchObject({ revision: 2, active: true });
    const history = await api.request({ url: '/v1/policies', key: team.key });
    expect(
      history.body.items.map((item: { revision: number; active: boolean }) => [
        item.revision,
        item.active,
      ]),
    ).toEqual([
      [2, true],
      [1, false],
    ]);
    const missing = await api.request({
      method: 'POST',
      url: '/v1/policies/99/activate',
      key: team.key,
    });
    expect(missing.status).toBe(404);
    const audit = await api.request({ url: '/v1/audit?entity_type=policy' });
    const actions = audit.body.items.map((item: { action: string }) => item.action);
    expect(actions).toEqual(expect.arrayContaining(['policy.created', 'policy.activated']));
  });

  it('holds a call for approval when a policy requires it, with the policy reason on the approval', async () => {
    const other = await createTeam(api);
    const tool = await createBuiltinTool(api, other, { handler: 'refund' });
    const created = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: other.key,
      body: {
        activate: true,
        text: `
@id("review-big")
@approval("required")
@reason("Big refunds need a second pair of eyes.")
permit(principal, action, resource) when { context.arguments has query && context.arguments.query == "big" };

@id("permit-rest")
permit(principal, action, resource) unless { context.arguments has query && context.arguments.query == "big" };
`,
      },
    });
    expect(created.status, created.text).toBe(201);
    const before = runs;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: other.key,
      body: {
        provider: 'anthropic',
        payload: anthropicContent([{ id: 'toolu_big', name: tool.name, input: { query: 'big' } }]),
      },
    });
    expect(response.status, response.text).toBe(202);
    expect(response.body.calls[0].status).toBe('awaiting_approval');
    const pending = await api.request({ url: '/v1/approvals?status=pending', key: other.key });
    expect(pending.body.items).toEqual([
      expect.objectContaining({
        call_id: response.body.call_ids[0],
        reason: 'policy',
        policy_reason: 'Big refunds need a second pair of eyes.',
      }),
    ]);
    expect(runs).toBe(before);
  });

  it('needs the admin scope', async () => {
    const caller = await createKey(api, { teamId: team.id, scopes: ['calls:execute'] });
    const response = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: caller,
      body: { text: 'permit(principal, action, resource);' },
    });
    expect(response.status).toBe(403);
  });
});
