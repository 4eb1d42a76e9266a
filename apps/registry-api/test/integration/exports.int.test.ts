import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cloneReleasedTool,
  createTeam,
  createTool,
  publish,
  setStable,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { onPglite, startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

async function releasedTool(tag: string, versions: string[], stable: string): Promise<TestTool> {
  const tool = await createTool(api, team, { tags: [tag] });
  for (const version of versions)
    await publish(api, team, tool, version, tool.ir.with({ tags: [tag] }));
  await setStable(api, team, tool, stable);
  return tool;
}

describe('exports', () => {
  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'mcp'])(
    'exports stable versions as %s',
    async (format) => {
      const tag = uniqueName('fmt');
      const tool = await releasedTool(tag, ['1.0.0'], '1.0.0');
      const response = await api.request({
        url: `/v1/exports?format=${format}&tags=${tag}`,
        key: team.key,
      });
      expect(response.status, response.text).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.format).toBe(format);
      expect(response.body.tools).toHaveLength(1);
      expect(response.body.resolution).toEqual([
        {
          tool_id: tool.id,
          name: tool.name,
          version: '1.0.0',
          reason: 'stable',
          deprecated: false,
          sunset_at: null,
          successor_version: null,
        },
      ]);
      expect(response.body.downgrades).toEqual(
        expect.objectContaining({ entries: expect.any(Array) }),
      );
      expect(response.text).toContain(tool.name);
    },
  );

  it('answers concurrent first exports of one selection alike, with one snapshot', async () => {
    const tag = uniqueName('race');
    await releasedTool(tag, ['1.0.0'], '1.0.0');
    const responses = await Promise.all(
      ['openai-chat', 'anthropic', 'gemini', 'mcp', 'openai-responses'].map((format) =>
        api.request({ url: `/v1/exports?format=${format}&tags=${tag}`, key: team.key }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((response) => String(response.body.snapshot))).size).toBe(1);
  });

  it('pins exact versions, ranges and labels', async () => {
    const tag = uniqueName('pin');
    const tool = await releasedTool(tag, ['1.0.0', '1.1.0', '1.2.3', '2.0.0'], '1.0.0');
    const versionFor = async (pin: string) => {
      const response = await api.request({
        url: `/v1/exports?format=mcp&tags=${tag}&pin=${encodeURIComponent(`${tool.name}@${pin}`)}`,
        key: team.key,
      });
      expect(response.status, response.text).toBe(200);
      const [first] = response.body.resolution as Array<{ version: string; reason: string }>;
      return [first?.version, first?.reason];
    };
    expect(await versionFor('1.1.0')).toEqual(['1.1.0', 'pinned']);
    expect(await versionFor('^1.1')).toEqual(['1.2.3', 'pinned']);
    expect(await versionFor('~1.1.0')).toEqual(['1.1.0', 'pinned']);
    expect(await versionFor('stable')).toEqual(['1.0.0', 'stable']);
  });

  it('skips tools without a stable release unless pinned', async () => {
    const tag = uniqueName('norel');
    const tool = await createTool(api, team, { tags: [tag] });
    await publish(api, team, tool, '1.0.0', tool.ir.with({ tags: [tag] }), { release: 'none' });
    const plain = await api.request({ url: `/v1/exports?format=mcp&tags=${tag}`, key: team.key });
    expect(plain.body.resolution).toEqual([]);
    expect(plain.body.skipped).toEqual([
      { tool_id: tool.id, name: tool.name, reason: 'no_stable_release' },
    ]);
    const pinned = await api.request({
      url: `/v1/exports?format=mcp&tags=${tag}&pin=${tool.name}@1.0.0`,
      key: team.key,
    });
    expect(pinned.body.resolution[0]).toMatchObject({ version: '1.0.0', reason: 'pinned' });
  });

  it('splits subjects between stable and canary close to the canary percent, stably per subject', async () => {
    const tag = uniqueName('canary');
    const tool = await releasedTool(tag, ['1.0.0', '1.1.0'], '1.0.0');
    const canary = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '1.1.0', percent: 30 },
    });
    expect(canary.status).toBe(200);
    const subjects = Array.from({ length: 400 }, (_, index) => `user-${index}`);
    const served = new Map<string, string>();
    for (const subject of subjects) {
      const response = await api.request({
        url: `/v1/exports?format=openai-chat&tags=${tag}`,
        key: team.key,
        headers: { 'x-toolgate-subject': subject },
      });
      served.set(
        subject,
        `${response.body.resolution[0].version}/${response.body.resolution[0].reason}`,
      );
    }
    const canaryShare =
      [...served.values()].filter((value) => value === '1.1.0/canary').length / subjects.length;
    expect(canaryShare).toBeGreaterThan(0.22);
    expect(canaryShare).toBeLessThan(0.38);
    expect(new Set(served.values())).toEqual(new Set(['1.0.0/stable', '1.1.0/canary']));
    // The same subject always lands on the same side.
    for (const subject of subjects.slice(0, 20)) {
      const again = await api.request({
        url: `/v1/exports?format=openai-chat&tags=${tag}`,
        key: team.key,
        headers: { 'x-toolgate-subject': subject },
      });
      expect(`${again.body.resolution[0].version}/${again.body.resolution[0].reason}`).toBe(
        served.get(subject),
      );
    }
    // Promotion moves everyone; the cached exports are invalidated at once.
    await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/release/promote`,
      key: team.key,
    });
    const after = await api.request({
      url: `/v1/exports?format=openai-chat&tags=${tag}`,
      key: team.key,
      headers: { 'x-toolgate-subject': 'user-1' },
    });
    expect(after.body.resolution[0]).toMatchObject({ version: '1.1.0', reason: 'stable' });
  });

  it('answers If-None-Match with 304 and changes the ETag when the release changes', async () => {
    const tag = uniqueName('etag');
    const tool = await releasedTool(tag, ['1.0.0', '1.1.0'], '1.0.0');
    const url = `/v1/exports?format=anthropic&tags=${tag}`;
    const first = await api.request({ url, key: team.key });
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const second = await api.request({ url, key: team.key });
    expect(second.headers['etag']).toBe(etag);
    expect(second.text).toBe(first.text);
    const notModified = await api.request({
      url,
      key: team.key,
      headers: { 'if-none-match': etag },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['etag']).toBe(etag);
    const listed = await api.request({
      url,
      key: team.key,
      headers: { 'if-none-match': `"other", W/${etag}` },
    });
    expect(listed.status).toBe(304);
    await setStable(api, team, tool, '1.1.0');
    const changed = await api.request({ url, key: team.key, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers['etag']).not.toBe(etag);
  });

  // A second replica needs a second process on the database: Postgres only.
  it.skipIf(onPglite)(
    'notices a change made by another replica within the revalidation window',
    async () => {
      const tag = uniqueName('replica');
      const tool = await releasedTool(tag, ['1.0.0', '1.1.0'], '1.0.0');
      const url = `/v1/exports?format=mcp&tags=${tag}`;
      expect((await api.request({ url, key: team.key })).body.resolution[0].version).toBe('1.0.0');
      // Another replica: its own app on the same database, so this app's cache is not told.
      const { createApp } = await import('../../src/create-app');
      const { loadConfig } = await import('../../src/config/app-config');
      const { openDatabase } = await import('../../src/database/database');
      const config = loadConfig({ DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' });
      const database = await openDatabase({ kind: 'postgres', url: api.databaseUrl });
      const replica = await createApp({ config, database });
      try {
        const response = await replica.inject({
          method: 'PUT',
          url: `/v1/tools/${tool.id}/release/stable`,
          headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ version: '1.1.0' }),
        });
        expect(response.statusCode).toBe(200);
      } finally {
        await replica.close();
        await database.close();
      }
      await expect
        .poll(
          async () =>
            (
              (await api.request({ url, key: team.key })).body.resolution as Array<{
                version: string;
              }>
            )[0]?.version,
          { timeout: 3000, interval: 200 },
        )
        .toBe('1.1.0');
    },
  );
});

describe('strict exports', () => {
  type StrictBody = {
    tools: Array<{ strict?: boolean; function?: { strict: boolean } }>;
    downgrades: { entries: Array<{ tool: string; keyword: string; action: string }> };
  };
  const strictOf = (format: string, body: StrictBody) =>
    body.tools.map((tool) => (format === 'openai-chat' ? tool.function?.strict : tool.strict));

  it.each(['openai-chat', 'openai-responses', 'anthropic'])(
    '%s: strict=true for every tool, false for none, and absent as each version asks',
    async (format) => {
      const tag = uniqueName('strict');
      const plain = await releasedTool(tag, ['1.0.0'], '1.0.0');
      const asks = await createTool(api, team, { tags: [tag], name: `zz_${uniqueName('strict')}` });
      const hint = format === 'anthropic' ? 'anthropic' : 'openai';
      await publish(
        api,
        team,
        asks,
        '1.0.0',
        asks.ir.with({ tags: [tag], provider_hints: { [hint]: { strict: true } } }),
      );
      const exported = async (query: string) => {
        const response = await api.request({
          url: `/v1/exports?format=${format}&tags=${tag}${query}`,
          key: team.key,
        });
        expect(response.status, response.text).toBe(200);
        return response.body as StrictBody;
      };
      const [asked, all, none] = await Promise.all([
        exported(''),
        exported('&strict=true'),
        exported('&strict=false'),
      ]);
      // Tools by name: the plain one first, the one that asks for strict second.
      expect(plain.name < asks.name).toBe(true);
      expect(strictOf(format, asked)).toEqual(
        format === 'anthropic' ? [undefined, true] : [false, true],
      );
      expect(strictOf(format, all)).toEqual([true, true]);
      expect(strictOf(format, none)).toEqual([false, false]);
    },
  );

  it('reports strict as dropped on a format without it, and refuses a bad value', async () => {
    const tag = uniqueName('strict');
    await releasedTool(tag, ['1.0.0'], '1.0.0');
    const gemini = await api.request({
      url: `/v1/exports?format=gemini&tags=${tag}&strict=true`,
      key: team.key,
    });
    expect(gemini.status).toBe(200);
    expect((gemini.body as StrictBody).downgrades.entries).toContainEqual(
      expect.objectContaining({ tool: '*', keyword: 'strict', action: 'dropped' }),
    );
    const bad = await api.request({
      url: `/v1/exports?format=openai-chat&tags=${tag}&strict=yes`,
      key: team.key,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('/query/strict');
  });
});

describe('export pages', () => {
  interface Page {
    status: number;
    link: string | undefined;
    etag: string;
    names: string[];
    total: number;
    snapshot: string;
    next: string | null;
  }
  const pageAt = async (url: string, key = team.key): Promise<Page> => {
    const response = await api.request({ url, key });
    expect(response.status, response.text).toBe(200);
    const body = response.body as {
      resolution: Array<{ name: string }>;
      skipped: Array<{ name: string }>;
      total: number;
      snapshot: string;
      next_cursor: string | null;
    };
    return {
      status: response.status,
      link: response.headers['link'] as string | undefined,
      etag: response.headers['etag'] as string,
      names: [...body.resolution, ...body.skipped].map((entry) => entry.name).sort(),
      total: body.total,
      snapshot: body.snapshot,
      next: body.next_cursor,
    };
  };

  it('pages the selection by name, with the total, a next cursor and a Link to the next page', async () => {
    const tag = uniqueName('paged');
    const tools = [
      await releasedTool(tag, ['1.0.0'], '1.0.0'),
      await releasedTool(tag, ['1.0.0'], '1.0.0'),
      await releasedTool(tag, ['1.0.0'], '1.0.0'),
      await releasedTool(tag, ['1.0.0'], '1.0.0'),
    ];
    // A tool without a release is still part of the selection: it is listed as skipped on its page.
    const unreleased = await createTool(api, team, { tags: [tag] });
    await publish(api, team, unreleased, '1.0.0', unreleased.ir.with({ tags: [tag] }), {
      release: 'none',
    });
    const everyName = [...tools, unreleased].map((tool) => tool.name).sort();

    const pages: Page[] = [];
    let url: string | undefined = `/v1/exports?format=openai-chat&tags=${tag}&limit=2`;
    while (url !== undefined) {
      const page: Page = await pageAt(url);
      pages.push(page);
      const next = /<([^>]+)>; rel="next"/.exec(page.link ?? '')?.[1];
      expect(next !== undefined).toBe(page.next !== null);
      if (next !== undefined) {
        const linked = new URL(next, 'http://api.invalid');
        expect(linked.pathname).toBe('/v1/exports');
        expect(linked.searchParams.get('tags')).toBe(tag);
        expect(linked.searchParams.get('limit')).toBe('2');
        expect(linked.searchParams.get('cursor')).toBe(page.next);
      }
      url = next;
    }
    expect(pages.map((page) => page.names.length)).toEqual([2, 2, 1]);
    expect(pages.every((page) => page.total === 5)).toBe(true);
    expect(pages.flatMap((page) => page.names)).toEqual(everyName);
    expect(new Set(pages.map((page) => page.snapshot)).size).toBe(3);

    // Each page is its own representation: its ETag revalidates it.
    const again = await api.request({
      url: `/v1/exports?format=openai-chat&tags=${tag}&limit=2&cursor=${pages[0]?.next ?? ''}`,
      key: team.key,
      headers: { 'if-none-match': pages[1]?.etag ?? '' },
    });
    expect(again.status).toBe(304);

    const whole = await pageAt(`/v1/exports?format=openai-chat&tags=${tag}`);
    expect(whole).toMatchObject({ names: everyName, total: 5, next: null, link: undefined });
  });

  it('exports every tool of a catalog larger than the default page of 500', async () => {
    const big = await createTeam(api);
    const template = await createTool(api, big);
    await publish(api, big, template, '1.0.0');
    await cloneReleasedTool(
      api,
      { team: big, toolId: template.id, version: '1.0.0' },
      { count: 520, prefix: uniqueName('bulk') },
    );
    const first = await pageAt('/v1/exports?format=anthropic', big.key);
    expect(first.names).toHaveLength(500);
    expect(first.total).toBe(521);
    expect(first.next).not.toBeNull();
    const second = await pageAt(`/v1/exports?format=anthropic&cursor=${first.next ?? ''}`, big.key);
    expect(second).toMatchObject({ total: 521, next: null });
    expect(new Set([...first.names, ...second.names]).size).toBe(521);
    const large = await pageAt('/v1/exports?format=anthropic&limit=1000', big.key);
    expect(large).toMatchObject({ total: 521, next: null });
    expect(large.names).toHaveLength(521);
  });

  it.each([
    ['a cursor it did not give out', 'cursor=bm90LWEtY3Vyc29y', '/query/cursor'],
    ['a cursor that is not base64url', 'cursor=%2F%2F', '/query/cursor'],
    ['a page of none', 'limit=0', '/query/limit'],
    ['a page above 1000', 'limit=1001', '/query/limit'],
  ])('refuses %s with a problem naming the parameter', async (_what, query, path) => {
    const response = await api.request({ url: `/v1/exports?format=mcp&${query}`, key: team.key });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path })]),
    );
  });
});

describe('deprecation', () => {
  it('serves a deprecated version with Deprecation, Sunset and successor Link headers', async () => {
    const tag = uniqueName('dep');
    const tool = await releasedTool(tag, ['1.0.0', '2.0.0'], '1.0.0');
    const sunset = new Date(Date.now() + 7 * 86_400_000);
    sunset.setUTCMilliseconds(0);
    const deprecated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: sunset.toISOString(), successor: '2.0.0' },
    });
    expect(deprecated.status, deprecated.text).toBe(200);
    const deprecatedAt = Date.parse(deprecated.body.deprecated_at as string);
    const served = await api.request({ url: `/v1/tools/${tool.id}/versions/1.0.0`, key: team.key });
    expect(served.status).toBe(200);
    expect(served.headers['deprecation']).toBe(`@${Math.floor(deprecatedAt / 1000)}`);
    expect(served.headers['sunset']).toBe(sunset.toUTCString());
    expect(served.headers['link']).toBe(
      `</v1/tools/${tool.id}/versions/2.0.0>; rel="successor-version"`,
    );
    const exported = await api.request({
      url: `/v1/exports?format=gemini&tags=${tag}`,
      key: team.key,
    });
    expect(exported.headers['sunset']).toBe(sunset.toUTCString());
    expect(exported.headers['deprecation']).toMatch(/^@\d+$/);
    expect(exported.body.resolution[0]).toMatchObject({
      version: '1.0.0',
      deprecated: true,
      successor_version: '2.0.0',
    });
  });

  it('answers 410 naming the successor once the sunset has passed, and drops the version from exports', async () => {
    const tag = uniqueName('sunset');
    const tool = await releasedTool(tag, ['1.0.0', '2.0.0'], '1.0.0');
    await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: new Date(Date.now() + 86_400_000).toISOString(), successor: '2.0.0' },
    });
    // Time travel: move the sunset into the past directly in the database.
    await api.sql(
      `UPDATE tool_versions SET sunset_at = now() - interval '1 minute' WHERE tool_id = $1 AND version = '1.0.0'`,
      [tool.id],
    );
    const gone = await api.request({ url: `/v1/tools/${tool.id}/versions/1.0.0`, key: team.key });
    expect(gone.status).toBe(410);
    expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({
      code: 'version_sunset',
      successor_version: '2.0.0',
      version: '1.0.0',
    });
    expect(gone.headers['link']).toBe(
      `</v1/tools/${tool.id}/versions/2.0.0>; rel="successor-version"`,
    );
    const pinned = await api.request({
      url: `/v1/exports?format=mcp&tags=${tag}&pin=${tool.name}@1.0.0`,
      key: team.key,
    });
    expect(pinned.status).toBe(410);
    expect(pinned.body.successor_version).toBe('2.0.0');
    const unpinned = await api.request({
      url: `/v1/exports?format=mcp&tags=${tag}`,
      key: team.key,
    });
    expect(unpinned.status).toBe(200);
    expect(unpinned.body.resolution).toEqual([]);
    expect(unpinned.body.skipped).toEqual([
      { tool_id: tool.id, name: tool.name, reason: 'sunset' },
    ]);
    const stable = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/stable`,
      key: team.key,
      body: { version: '1.0.0' },
    });
    expect(stable.status).toBe(410);
  });

  it('answers 410 during a scheduled brownout', async () => {
    const tool = await releasedTool(uniqueName('brown'), ['1.0.0', '2.0.0'], '1.0.0');
    const response = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: {
        sunset_at: new Date(Date.now() + 86_400_000).toISOString(),
        successor: '2.0.0',
        brownouts: [
          {
            start: new Date(Date.now() - 60_000).toISOString(),
            end: new Date(Date.now() + 3_600_000).toISOString(),
          },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    const served = await api.request({ url: `/v1/tools/${tool.id}/versions/1.0.0`, key: team.key });
    expect(served.status).toBe(410);
  });
});
