import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// Publishing through the API only (no SQL), so the file runs the same on Postgres and PGlite.
let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

const executor = { kind: 'builtin', handler: 'toolgate.echo' };

function openAiDefinition(tool: TestTool, description = 'Looks things up') {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 } },
        required: ['query'],
      },
    },
  };
}

function publishBody(tool: TestTool, body: Record<string, unknown>) {
  return api.request({
    method: 'POST',
    url: `/v1/tools/${tool.id}/versions`,
    key: team.key,
    body,
  });
}

/** Everything a refused publish could have changed, read through the API. */
async function stateOf(tool: TestTool): Promise<unknown> {
  const [versions, release, audit] = await Promise.all([
    api.request({ url: `/v1/tools/${tool.id}/versions`, key: team.key }),
    api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key }),
    api.request({ url: `/v1/audit?entity_type=tool&entity_id=${tool.id}` }),
  ]);
  return { versions: versions.body, release: release.body, audit: audit.body };
}

describe('publishing from a provider format', () => {
  it('inherits behavior, constraints and executor from the version it succeeds, and reports it', async () => {
    const tool = await createTool(api, team);
    const first = await publishBody(tool, {
      ir: tool.ir
        .with({
          behavior: { readonly: true, destructive: false, idempotent: true },
          constraints: { timeout_ms: 1_500, max_retries: 2 },
          protocol_meta: { toolgate: { executor } },
        })
        .build(),
    });
    expect(first.status, first.text).toBe(201);

    const next = await publishBody(tool, {
      format: 'openai-chat',
      version: '1.1.0',
      definition: openAiDefinition(tool),
    });
    expect(next.status, next.text).toBe(201);
    expect(next.body.ir).toMatchObject({
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 1_500, max_retries: 2 },
      protocol_meta: { toolgate: { executor } },
    });
    expect(next.body.fields).toEqual({
      inherited: [
        { field: 'behavior', from_version: '1.0.0' },
        { field: 'constraints', from_version: '1.0.0' },
        { field: 'executor', from_version: '1.0.0' },
      ],
      defaulted: [],
    });
    // A later version goes into rotation only when asked: the answer says so and how.
    expect(next.body).toMatchObject({
      served: false,
      release: { stable_version: '1.0.0', canary_version: null, canary_percent: 0 },
      next: {
        method: 'PUT',
        href: `/v1/tools/${tool.id}/release/stable`,
        body: { version: '1.1.0' },
      },
    });
    const stored = await api.request({
      url: `/v1/tools/${tool.id}/versions/1.1.0`,
      key: team.key,
    });
    expect(stored.body.ir.protocol_meta).toEqual({ toolgate: { executor } });
  });

  it('defaults every missing field of a first version to the safe values, says so, and makes it stable', async () => {
    const tool = await createTool(api, team);
    const response = await publishBody(tool, {
      format: 'openai-chat',
      version: '1.0.0',
      definition: openAiDefinition(tool),
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.fields.inherited).toEqual([]);
    expect(response.body.fields.defaulted).toEqual([
      {
        field: 'behavior',
        value: {
          readonly: false,
          destructive: true,
          idempotent: false,
          open_world: true,
          requires_approval: 'if_destructive',
        },
        reason: expect.stringContaining('no earlier published version'),
      },
      {
        field: 'constraints',
        value: { timeout_ms: 30_000, max_retries: 0 },
        reason: expect.any(String),
      },
      { field: 'executor', value: null, reason: expect.stringContaining('no executor') },
    ]);
    expect(response.body.ir).not.toHaveProperty('protocol_meta');
    expect(response.body).toMatchObject({
      served: true,
      next: null,
      release: { stable_version: '1.0.0' },
    });
  });

  it('takes behavior, constraints and executor from the request over the earlier version', async () => {
    const tool = await createTool(api, team);
    await publish(
      api,
      team,
      tool,
      '1.0.0',
      tool.ir.with({ protocol_meta: { toolgate: { executor } } }),
    );
    const behavior = { readonly: false, destructive: false, idempotent: true };
    const response = await publishBody(tool, {
      format: 'openai-chat',
      version: '1.1.0',
      definition: openAiDefinition(tool),
      behavior,
      executor: { kind: 'builtin', handler: 'toolgate.sleep' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.ir.behavior).toMatchObject(behavior);
    expect(response.body.ir.protocol_meta.toolgate.executor).toEqual({
      kind: 'builtin',
      handler: 'toolgate.sleep',
    });
    expect(response.body.fields).toEqual({
      inherited: [{ field: 'constraints', from_version: '1.0.0' }],
      defaulted: [],
    });
  });

  it('refuses an override that contradicts what it inherits, at its place in the body, writing nothing', async () => {
    const tool = await createTool(api, team);
    await publish(
      api,
      team,
      tool,
      '1.0.0',
      tool.ir.with({ constraints: { timeout_ms: 1_000, execution: 'inline' } }),
    );
    const before = await stateOf(tool);
    const refused = await publishBody(tool, {
      format: 'openai-chat',
      version: '1.1.0',
      definition: openAiDefinition(tool),
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('invalid_tool_definition');
    expect(refused.body.errors).toEqual([
      {
        path: '/body/definition/constraints/execution',
        message: 'inline execution needs a readonly, idempotent, non-destructive tool',
      },
    ]);
    expect(refused.body.fields.inherited).toContainEqual({
      field: 'constraints',
      from_version: '1.0.0',
    });
    expect(await stateOf(tool)).toEqual(before);
  });

  it('checks an executor override at the trust boundary', async () => {
    const tool = await createTool(api, team);
    const refused = await publishBody(tool, {
      format: 'openai-chat',
      version: '1.0.0',
      definition: openAiDefinition(tool),
      executor: { kind: 'teleport' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toMatch(/^\/body\/executor/);
  });
});

describe('publishing and the release', () => {
  it('makes only the first published version stable by default', async () => {
    const tool = await createTool(api, team);
    const first = await publishBody(tool, { ir: tool.ir.build() });
    expect(first.body).toMatchObject({ served: true, next: null });
    const second = await publishBody(tool, { ir: tool.ir.version('1.1.0').build() });
    expect(second.body).toMatchObject({
      served: false,
      release: { stable_version: '1.0.0' },
      next: { method: 'PUT', body: { version: '1.1.0' } },
    });
    const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
    expect(release.body.stable_version).toBe('1.0.0');
    const events = await api.request({ url: `/v1/audit?entity_type=tool&entity_id=${tool.id}` });
    expect(events.body.items.map((event: { action: string }) => event.action)).toEqual([
      'tool_version.published',
      'release.stable_set',
      'tool_version.published',
      'tool.created',
    ]);
  });

  it('leaves a first version out of rotation with release "none", naming the route that serves it', async () => {
    const tool = await createTool(api, team);
    const response = await publishBody(tool, { ir: tool.ir.build(), release: 'none' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      served: false,
      release: { stable_version: null },
      next: { method: 'PUT', href: `/v1/tools/${tool.id}/release/stable` },
    });
    const one = await api.request({ url: `/v1/tools/${tool.id}`, key: team.key });
    expect(one.body.release).toBeNull();
  });

  it('makes a later version stable when asked, keeping the previous one for rollback', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    const response = await publishBody(tool, {
      ir: tool.ir.version('1.1.0').build(),
      release: 'stable',
    });
    expect(response.body).toMatchObject({ served: true, release: { stable_version: '1.1.0' } });
    const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
    expect(release.body).toMatchObject({
      stable_version: '1.1.0',
      previous_stable_version: '1.0.0',
    });
  });

  it('never releases a draft: no default, and an explicit release is a 400 that writes nothing', async () => {
    const tool = await createTool(api, team);
    const draft = await publishBody(tool, { ir: tool.ir.build(), status: 'draft' });
    expect(draft.body).toMatchObject({
      status: 'draft',
      served: false,
      next: { method: 'POST', href: `/v1/tools/${tool.id}/versions/1.0.0/publish` },
    });
    const before = await stateOf(tool);
    const refused = await publishBody(tool, {
      ir: tool.ir.version('1.1.0').build(),
      status: 'draft',
      release: 'stable',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: '/body/release', message: expect.any(String) }]);
    expect(await stateOf(tool)).toEqual(before);
    const published = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/publish`,
      key: team.key,
    });
    expect(published.body).toMatchObject({ status: 'published', served: false });
  });

  it('makes exactly one of two concurrent first versions stable', async () => {
    const tool = await createTool(api, team);
    const responses = await Promise.all(
      ['1.0.0', '1.0.1'].map((version) =>
        publishBody(tool, { ir: tool.ir.version(version).build() }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201]);
    expect(responses.filter((response) => response.body.served === true)).toHaveLength(1);
    const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
    const winner = responses.find((response) => response.body.served === true)!;
    expect(release.body.stable_version).toBe(winner.body.version);
  });
});

describe('refused publishes', () => {
  it('lists field, identity and parameters schema problems of a ToolIR in one 422', async () => {
    const tool = await createTool(api, team);
    const refused = await publishBody(tool, {
      ir: tool.ir
        .with({
          version: '1.0',
          name: 'renamed',
          constraints: { timeout_ms: 0 },
          parameters: { type: 'object', properties: { query: { type: 'strnig' } } },
        })
        .build(),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_tool_definition');
    expect(refused.body.errors.map((issue: { path: string }) => issue.path)).toEqual(
      expect.arrayContaining([
        '/body/ir/version',
        '/body/ir/constraints/timeout_ms',
        '/body/ir/parameters/properties/query/type',
        '/body/ir/name',
      ]),
    );
  });

  it('quotes the existing tool in the 409 for a duplicate name', async () => {
    const name = uniqueName('dup');
    const existing = await createTool(api, team, { name });
    const refused = await api.request({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name },
    });
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({
      code: 'conflict',
      existing_tool: { id: existing.id, name },
      errors: [{ path: '/body/name', message: expect.stringContaining(existing.id) }],
    });
    expect(refused.body.detail).toContain(existing.id);
  });

  it('quotes the existing tool in the 409 for a duplicate id', async () => {
    const existing = await createTool(api, team);
    const refused = await api.request({
      method: 'POST',
      url: '/v1/tools',
      key: team.key,
      body: { name: uniqueName('other'), id: existing.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      existing_tool: { id: existing.id, name: existing.name },
      errors: [{ path: '/body/id' }],
    });
  });
});
