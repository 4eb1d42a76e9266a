import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app';

let api: TestApp;
let owner: TestTeam;
let other: TestTeam;
let privateTool: TestTool;
let publicTool: TestTool;

beforeAll(async () => {
  api = await startTestApp();
  owner = await createTeam(api);
  other = await createTeam(api);
  privateTool = await createTool(api, owner, { visibility: 'private' });
  publicTool = await createTool(api, owner, { visibility: 'public' });
  await publish(api, owner, privateTool, '1.0.0');
  await setStable(api, owner, privateTool, '1.0.0');
});
afterAll(async () => {
  await api?.close();
});

function expectProblem(response: TestResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({
    status,
    code,
    type: `https://toolgate.dev/problems/${code}`,
  });
}

describe('authentication', () => {
  const cases: Array<[string, string | null, Record<string, string>?]> = [
    ['no credentials', null],
    ['a malformed header', null, { authorization: 'Basic dXNlcjpwYXNz' }],
    [
      'an unknown key',
      'tg_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
    ['a key of the wrong shape', 'not-a-toolgate-key'],
  ];
  it.each(cases)('refuses %s with 401 and a Bearer challenge', async (_label, key, headers) => {
    const response = await api.request({ url: '/v1/tools', key, ...(headers ? { headers } : {}) });
    expectProblem(response, 401, 'unauthenticated');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="toolgate"');
  });

  it('refuses a key whose secret is wrong', async () => {
    const key = await createKey(api, { teamId: owner.id, scopes: ['tools:read'] });
    const tampered = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expectProblem(await api.request({ url: '/v1/tools', key: tampered }), 401, 'unauthenticated');
  });

  it('refuses a revoked key at once', async () => {
    const key = await createKey(api, { teamId: owner.id, scopes: ['tools:read'] });
    expect((await api.request({ url: '/v1/tools', key })).status).toBe(200);
    const id = key.split('_')[1]!.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect(
      (await api.request({ method: 'POST', url: `/v1/api-keys/${id}/revoke`, key: owner.key }))
        .status,
    ).toBe(200);
    const refused = await api.request({ url: '/v1/tools', key });
    expectProblem(refused, 401, 'unauthenticated');
    expect(refused.body.detail).toMatch(/revoked/);
    const again = await api.request({
      method: 'POST',
      url: `/v1/api-keys/${id}/revoke`,
      key: owner.key,
    });
    expectProblem(again, 409, 'conflict');
  });

  it('records when a key was last used', async () => {
    const key = await createKey(api, { teamId: owner.id, scopes: ['tools:read'] });
    await api.request({ url: '/v1/tools', key });
    await expect
      .poll(async () => {
        const keys = await api.request({ url: '/v1/api-keys', key: owner.key });
        const row = keys.body.items.find((item: { id: string }) =>
          key.includes(item.id.replace(/-/g, '')),
        ) as { last_used_at: string | null } | undefined;
        return row?.last_used_at;
      })
      .toEqual(expect.any(String));
  });
});

describe('scopes', () => {
  it('lets tools:read read but not write', async () => {
    const reader = await createKey(api, { teamId: owner.id, scopes: ['tools:read'] });
    expect((await api.request({ url: `/v1/tools/${privateTool.id}`, key: reader })).status).toBe(
      200,
    );
    const write = await api.request({
      method: 'POST',
      url: '/v1/tools',
      key: reader,
      body: { name: 'nope' },
    });
    expectProblem(write, 403, 'forbidden');
    expect(write.body.required_scopes).toEqual(['tools:write']);
  });

  it('keeps keys, teams and audit to admin keys', async () => {
    const writer = await createKey(api, {
      teamId: owner.id,
      scopes: ['tools:read', 'tools:write'],
    });
    expectProblem(await api.request({ url: '/v1/api-keys', key: writer }), 403, 'forbidden');
    expectProblem(await api.request({ url: '/v1/audit', key: writer }), 403, 'forbidden');
    expectProblem(await api.request({ url: '/v1/audit/verify', key: writer }), 403, 'forbidden');
    expectProblem(
      await api.request({
        method: 'POST',
        url: '/v1/teams',
        key: writer,
        body: { slug: 'x-team', name: 'X' },
      }),
      403,
      'forbidden',
    );
  });

  it('keeps team creation to the installation admin key', async () => {
    expectProblem(
      await api.request({
        method: 'POST',
        url: '/v1/teams',
        key: owner.key,
        body: { slug: 'another-team', name: 'A' },
      }),
      403,
      'forbidden',
    );
  });

  it('lets calls:execute alone read nothing', async () => {
    const executor = await createKey(api, { teamId: owner.id, scopes: ['calls:execute'] });
    expectProblem(await api.request({ url: '/v1/tools', key: executor }), 403, 'forbidden');
    expectProblem(
      await api.request({ url: '/v1/exports?format=openai-chat', key: executor }),
      403,
      'forbidden',
    );
  });
});

describe('cross-team access', () => {
  it("answers 404 for another team's private tool, on every route", async () => {
    const urls = [
      `/v1/tools/${privateTool.id}`,
      `/v1/tools/${privateTool.id}/versions`,
      `/v1/tools/${privateTool.id}/versions/1.0.0`,
      `/v1/tools/${privateTool.id}/release`,
      `/v1/tools/${privateTool.id}/diff?from=1.0.0&to=1.0.0`,
    ];
    for (const url of urls)
      expectProblem(await api.request({ url, key: other.key }), 404, 'not_found');
    const writes = [
      {
        method: 'POST' as const,
        url: `/v1/tools/${privateTool.id}/versions`,
        body: { ir: privateTool.ir.version('1.0.1').build() },
      },
      {
        method: 'PUT' as const,
        url: `/v1/tools/${privateTool.id}/release/stable`,
        body: { version: '1.0.0' },
      },
      {
        method: 'POST' as const,
        url: `/v1/tools/${privateTool.id}/versions/1.0.0/deprecate`,
        body: { sunset_at: '2999-01-01T00:00:00Z' },
      },
    ];
    for (const write of writes)
      expectProblem(await api.request({ ...write, key: other.key }), 404, 'not_found');
  });

  it("never lists, searches or exports another team's private tools", async () => {
    const list = await api.request({ url: '/v1/tools?limit=200', key: other.key });
    const ids = list.body.items.map((tool: { id: string }) => tool.id);
    expect(ids).not.toContain(privateTool.id);
    expect(ids).toContain(publicTool.id);
    const search = await api.request({
      url: `/v1/tools/search?q=${encodeURIComponent(privateTool.name)}`,
      key: other.key,
    });
    expect(search.body.items.map((tool: { id: string }) => tool.id)).not.toContain(privateTool.id);
    const exported = await api.request({
      url: `/v1/exports?format=openai-chat&names=${privateTool.name}`,
      key: other.key,
    });
    expect(exported.status).toBe(200);
    expect(exported.body.resolution).toEqual([]);
  });

  it('lets another team read a public tool but not change it', async () => {
    expect((await api.request({ url: `/v1/tools/${publicTool.id}`, key: other.key })).status).toBe(
      200,
    );
    const write = await api.request({
      method: 'POST',
      url: `/v1/tools/${publicTool.id}/versions`,
      key: other.key,
      body: { ir: publicTool.ir.version('1.0.0').build() },
    });
    expectProblem(write, 403, 'forbidden');
  });

  it("refuses keys and tools in another team's name", async () => {
    expectProblem(
      await api.request({
        method: 'POST',
        url: '/v1/api-keys',
        key: other.key,
        body: { name: 'x', scopes: ['admin'], team_id: owner.id },
      }),
      404,
      'not_found',
    );
    const id = owner.key
      .split('_')[1]!
      .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expectProblem(
      await api.request({ method: 'POST', url: `/v1/api-keys/${id}/revoke`, key: other.key }),
      404,
      'not_found',
    );
  });
});
