import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTeam,
  createTool,
  publish,
  setStable,
  uniqueName,
  type TestTeam,
} from '../factories/registry.factory';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/create-app';
import { openDatabase } from '../../src/database/database';
import { startTestApp, testDatabaseKind, type TestApp } from '../support/test-app';
import { databaseUrl } from '@toolgate/persistence/testing';

let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

describe('health', () => {
  it('answers liveness and readiness without credentials', async () => {
    expect((await api.request({ url: '/healthz', key: null })).body).toEqual({ status: 'ok' });
    const ready = await api.request({ url: '/readyz', key: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: testDatabaseKind() });
  });

  it('answers readiness with a 503 problem when the database is unreachable', async () => {
    const url = databaseUrl('toolgate_test_does_not_exist');
    const database = await openDatabase({ kind: 'postgres', url });
    const app = await createApp({
      config: loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }),
      database,
    });
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(ready.json()).toMatchObject({ code: 'unavailable', status: 503 });
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('tools', () => {
  it('creates, gets, lists with filters and paginates', async () => {
    const tag = uniqueName('t');
    const created = await Promise.all(
      ['alpha', 'bravo', 'charlie'].map((prefix) =>
        createTool(api, team, { name: `${prefix}-${tag}`, tags: [tag] }),
      ),
    );
    const one = await api.request({ url: `/v1/tools/${created[0]!.id}`, key: team.key });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: created[0]!.id,
      name: created[0]!.name,
      tags: [tag],
      visibility: 'private',
      release: null,
    });

    const first = await api.request({ url: `/v1/tools?tag=${tag}&limit=2`, key: team.key });
    expect(first.status).toBe(200);
    expect(first.body.items.map((tool: { name: string }) => tool.name)).toEqual([
      `alpha-${tag}`,
      `bravo-${tag}`,
    ]);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api.request({
      url: `/v1/tools?tag=${tag}&limit=2&cursor=${first.body.next_cursor}`,
      key: team.key,
    });
    expect(second.body.items.map((tool: { name: string }) => tool.name)).toEqual([
      `charlie-${tag}`,
    ]);
    expect(second.body.next_cursor).toBeNull();

    const byTeam = await api.request({
      url: `/v1/tools?team=${team.id}&tag=${tag}`,
      key: team.key,
    });
    expect(byTeam.body.items).toHaveLength(3);
  });

  it('filters by status and by text query', async () => {
    const tag = uniqueName('s');
    const live = await createTool(api, team, { name: `weather-${tag}`, tags: [tag] });
    await createTool(api, team, { name: `empty-${tag}`, tags: [tag] });
    await publish(
      api,
      team,
      live,
      '1.0.0',
      live.ir.with({ description: 'Current weather for a city', tags: [tag] }),
    );
    const published = await api.request({
      url: `/v1/tools?tag=${tag}&status=published`,
      key: team.key,
    });
    expect(published.body.items.map((tool: { name: string }) => tool.name)).toEqual([live.name]);
    const text = await api.request({ url: `/v1/tools?q=weather&tag=${tag}`, key: team.key });
    expect(text.body.items.map((tool: { name: string }) => tool.name)).toEqual([live.name]);
  });

  it('ranks full-text search results', async () => {
    const word = `zebra${uniqueName('x').replace(/-/g, '')}`;
    const inName = await createTool(api, team, { name: `${word}-lookup` });
    const inDescription = await createTool(api, team, {
      name: uniqueName('other'),
      description: `Finds a ${word} in the zoo`,
    });
    const search = await api.request({ url: `/v1/tools/search?q=${word}`, key: team.key });
    expect(search.status).toBe(200);
    expect(search.body.items.map((tool: { id: string }) => tool.id)).toEqual([
      inName.id,
      inDescription.id,
    ]);
    expect(search.body.items[0].rank).toBeGreaterThan(search.body.items[1].rank);
  });
});

describe('versions', () => {
  it('publishes, lists, gets and diffs versions', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    const widened = tool.ir.parameters({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer' } },
      required: ['query'],
    });
    await publish(api, team, tool, '1.1.0', widened);
    const list = await api.request({ url: `/v1/tools/${tool.id}/versions`, key: team.key });
    expect(list.body.items.map((version: { version: string }) => version.version)).toEqual([
      '1.1.0',
      '1.0.0',
    ]);
    const one = await api.request({ url: `/v1/tools/${tool.id}/versions/1.1.0`, key: team.key });
    expect(one.status).toBe(200);
    expect(one.body.ir.parameters.properties.limit).toEqual({ type: 'integer' });
    expect(one.headers['deprecation']).toBeUndefined();
    const diff = await api.request({
      url: `/v1/tools/${tool.id}/diff?from=1.0.0&to=1.1.0`,
      key: team.key,
    });
    expect(diff.body).toMatchObject({
      breaking: false,
      changes: [{ kind: 'property_added', path: '/parameters/properties/limit' }],
    });
  });

  it('refuses a breaking change without a major bump, listing the breaks, and accepts it as a major', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    const breaking = tool.ir.parameters({
      type: 'object',
      properties: { query: { type: 'string', minLength: 3 }, page: { type: 'integer' } },
      required: ['query', 'page'],
      additionalProperties: false,
    });
    const refused = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: breaking.version('1.1.0').build() },
    });
    expect(refused.status).toBe(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('breaking_change');
    expect(
      refused.body.breaking_changes.map((change: { kind: string }) => change.kind).sort(),
    ).toEqual(['additional_properties_closed', 'constraint_tightened', 'required_added']);
    await publish(api, team, tool, '2.0.0', breaking);
    const diff = await api.request({
      url: `/v1/tools/${tool.id}/diff?from=1.0.0&to=2.0.0`,
      key: team.key,
    });
    expect(diff.body.breaking).toBe(true);
  });

  it('keeps drafts out of rotation until they are published, with the same breaking-change rule', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    const breaking = tool.ir
      .version('1.1.0')
      .parameters({ type: 'object', properties: {} })
      .build();
    const draft = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: breaking, status: 'draft' },
    });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.body.status).toBe('draft');
    const stable = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/stable`,
      key: team.key,
      body: { version: '1.1.0' },
    });
    expect(stable.status).toBe(409);
    const refused = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.1.0/publish`,
      key: team.key,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('breaking_change');
    await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: tool.ir.version('1.2.0').build(), status: 'draft' },
    });
    const published = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.2.0/publish`,
      key: team.key,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body.status).toBe('published');
    const again = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.2.0/publish`,
      key: team.key,
    });
    expect(again.status).toBe(409);
  });

  it('imports a provider-format definition', async () => {
    const tool = await createTool(api, team, { name: uniqueName('imported') });
    const response = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: {
        format: 'openai-chat',
        version: '1.0.0',
        definition: {
          type: 'function',
          function: {
            name: tool.name,
            description: 'Imported from OpenAI',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.ir).toMatchObject({
      id: tool.id,
      name: tool.name,
      version: '1.0.0',
      description: 'Imported from OpenAI',
    });
  });

  it('answers exactly one of two concurrent publishes of the same version with 409', async () => {
    const tool = await createTool(api, team);
    const body = { ir: tool.ir.version('1.0.0').build() };
    const responses = await Promise.all(
      [0, 1].map(() =>
        api.request({ method: 'POST', url: `/v1/tools/${tool.id}/versions`, key: team.key, body }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const loser = responses.find((response) => response.status === 409)!;
    expect(loser.body.code).toBe('conflict');
    const versions = await api.request({ url: `/v1/tools/${tool.id}/versions`, key: team.key });
    expect(versions.body.items).toHaveLength(1);
  });
});

describe('releases', () => {
  it('sets stable, runs a canary, promotes and rolls back', async () => {
    const tool = await createTool(api, team);
    await publish(api, team, tool, '1.0.0');
    await publish(api, team, tool, '1.1.0');
    await setStable(api, team, tool, '1.0.0');
    const canary = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 25 },
    });
    expect(canary.body).toMatchObject({
      stable_version: '1.0.0',
      canary_version: '1.1.0',
      canary_percent: 25,
    });
    const promoted = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/release/promote`,
      key: team.key,
    });
    expect(promoted.body).toMatchObject({
      stable_version: '1.1.0',
      canary_version: null,
      canary_percent: 0,
      previous_stable_version: '1.0.0',
    });
    const rolledBack = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/release/rollback`,
      key: team.key,
    });
    expect(rolledBack.body).toMatchObject({ stable_version: '1.0.0', canary_version: null });
    const release = await api.request({ url: `/v1/tools/${tool.id}/release`, key: team.key });
    expect(release.body.stable_version).toBe('1.0.0');
    const tool2 = await api.request({ url: `/v1/tools/${tool.id}`, key: team.key });
    expect(tool2.body.release).toEqual({
      stable_version: '1.0.0',
      canary_version: null,
      canary_percent: 0,
    });
  });
});

describe('api keys and teams', () => {
  it('creates a key shown once, lists keys without secrets, revokes', async () => {
    const key = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    expect(key).toMatch(/^tg_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect((await api.request({ url: '/v1/tools', key })).status).toBe(200);
    const list = await api.request({ url: '/v1/api-keys', key: team.key });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key.slice('tg_'.length + 32 + 1));
    const row = list.body.items.find((item: { id: string }) =>
      key.includes(item.id.replace(/-/g, '')),
    );
    expect(row).toMatchObject({ scopes: ['tools:read'], revoked_at: null });
    const revoked = await api.request({
      method: 'POST',
      url: `/v1/api-keys/${row.id}/revoke`,
      key: team.key,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const teams = await api.request({ url: '/v1/teams', key: team.key });
    expect(teams.body.items).toEqual([expect.objectContaining({ id: team.id, slug: team.slug })]);
  });
});

describe('the API index', () => {
  it('answers GET /v1 without a key, with links to the docs, OpenAPI, health and MCP', async () => {
    const response = await api.request({ url: '/v1', key: null });
    expect(response.status, response.text).toBe(200);
    expect(response.body.links).toMatchObject({
      docs: '/v1/docs',
      openapi: '/v1/openapi.json',
      health: '/healthz',
      mcp: '/mcp',
    });
  });
});
