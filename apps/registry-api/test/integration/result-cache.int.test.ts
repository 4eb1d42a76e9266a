// The result cache through the API, on the embedded in-process cache (no REDIS_URL): a local HTTP
// upstream counts how often the gateway really executed a cached tool's calls.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

interface CountingUpstream {
  server: Server;
  url: string;
  /** Requests answered, by path. */
  executions: Map<string, number>;
  /** How long each answer waits (the stampede test holds them). */
  delayMs: number;
}

// Test servers keep to the port range this development machine gives the result-cache work.
const PORT_RANGE = { low: 43000, high: 43999 };

async function listenInRange(server: Server): Promise<number> {
  const size = PORT_RANGE.high - PORT_RANGE.low + 1;
  const start = Math.floor(Math.random() * size);
  for (let offset = 0; offset < size; offset += 1) {
    const port = PORT_RANGE.low + ((start + offset) % size);
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.low}-${PORT_RANGE.high}`);
}

async function countingUpstream(): Promise<CountingUpstream> {
  const upstream = { executions: new Map<string, number>(), delayMs: 0 } as CountingUpstream;
  upstream.server = createServer((request, response) => {
    // Arguments arrive as the query; the path names the tool.
    const path = new URL(request.url ?? '/', upstream.url).pathname;
    const count = (upstream.executions.get(path) ?? 0) + 1;
    upstream.executions.set(path, count);
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path, execution: count }));
    }, upstream.delayMs);
  });
  upstream.url = `http://127.0.0.1:${await listenInRange(upstream.server)}`;
  return upstream;
}

let api: TestApp;
let team: TestTeam;
let upstream: CountingUpstream;

beforeAll(async () => {
  upstream = await countingUpstream();
  api = await startTestApp();
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
  upstream?.server.closeAllConnections();
  await new Promise((resolve) => upstream?.server.close(resolve));
});

type CacheDeclaration = { ttl_ms: number; scope?: 'team' | 'shared'; key?: string[] };

/** An http tool at its own upstream path, declaring `cache`, published as `version` and stable. */
async function cachedTool(input: {
  cache: CacheDeclaration;
  owner?: TestTeam;
  visibility?: 'private' | 'public';
}): Promise<TestTool & { path: string; irOf: (version: string) => TestTool['ir'] }> {
  const owner = input.owner ?? team;
  const tool = await createTool(api, owner, { visibility: input.visibility ?? 'private' });
  const path = `/${tool.name}`;
  const irOf = (version: string) =>
    tool.ir
      .parameters({ type: 'object', properties: { city: { type: 'string' } } })
      .with({
        behavior: { readonly: true, destructive: false, idempotent: true },
        constraints: { timeout_ms: 5_000, max_retries: 0 },
        cache: input.cache,
        protocol_meta: {
          toolgate: { executor: { kind: 'http', method: 'GET', url: `${upstream.url}${path}` } },
        },
      })
      .version(version);
  const ir = irOf('1.0.0');
  await publish(api, owner, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, owner, tool, '1.0.0');
  return { ...tool, ir, path, irOf };
}

interface CalledResult {
  id: string;
  answered_by: string | null;
  cache_age_ms: number | null;
  data: { path: string; execution: number };
}

/** One call through POST /v1/calls/ir, then its record. */
async function call(
  tool: TestTool,
  args: Record<string, unknown>,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<CalledResult> {
  const key = options.key ?? team.key;
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls/ir',
    key,
    body: [{ id: `call-${randomUUID()}`, name: tool.name, arguments: args }],
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  expect(response.status, response.text).toBe(200);
  const result = response.body.results[0] as { ok: boolean; data: CalledResult['data'] };
  expect(result.ok, JSON.stringify(result)).toBe(true);
  const id = response.body.calls[0].id as string;
  const record = await api.request({ url: `/v1/calls/${id}`, key });
  expect(record.status, record.text).toBe(200);
  return {
    id,
    answered_by: record.body.answered_by,
    cache_age_ms: record.body.cache_age_ms,
    data: result.data,
  };
}

describe('result cache', () => {
  it('answers a repeated call from the cache, recorded as answered_by cache with its age', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 60_000 } });
    const first = await call(tool, { city: 'Oslo' });
    const second = await call(tool, { city: 'Oslo' });
    expect(upstream.executions.get(tool.path)).toBe(1);
    expect(first).toMatchObject({ answered_by: tool.name, cache_age_ms: null });
    expect(second.answered_by).toBe('cache');
    expect(second.cache_age_ms).toBeGreaterThanOrEqual(0);
    expect(second.data).toEqual(first.data);
    // Other key arguments are another entry.
    await call(tool, { city: 'Rome' });
    expect(upstream.executions.get(tool.path)).toBe(2);
    const slo = await api.request({
      url: `/v1/metrics/slo?window=1h&tool=${tool.name}`,
      key: team.key,
    });
    expect(slo.status, slo.text).toBe(200);
    expect(slo.body.tools[0]).toMatchObject({ calls: 2, cached: 1 });
  });

  it('executes again once the entry expired', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 50 } });
    await call(tool, { city: 'Oslo' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const later = await call(tool, { city: 'Oslo' });
    expect(later.answered_by).toBe(tool.name);
    expect(upstream.executions.get(tool.path)).toBe(2);
  });

  it('bypasses the lookup on Cache-Control: no-cache and refreshes the entry', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 60_000 } });
    await call(tool, { city: 'Oslo' });
    const fresh = await call(tool, { city: 'Oslo' }, { headers: { 'cache-control': 'no-cache' } });
    expect(fresh.answered_by).toBe(tool.name);
    expect(fresh.data.execution).toBe(2);
    const next = await call(tool, { city: 'Oslo' });
    expect(next.answered_by).toBe('cache');
    expect(next.data.execution).toBe(2);
    expect(upstream.executions.get(tool.path)).toBe(2);
  });

  it('misses after a new version and after a release change', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 60_000 } });
    await call(tool, { city: 'Oslo' });
    const next = tool.irOf('1.0.1');
    await publish(api, team, { ...tool, ir: next }, '1.0.1', next, { release: 'none' });
    await setStable(api, team, tool, '1.0.1');
    expect((await call(tool, { city: 'Oslo' })).answered_by).toBe(tool.name);
    expect((await call(tool, { city: 'Oslo' })).answered_by).toBe('cache');
    // A canary at 0 % serves nobody a new version, but the release changed: entries start over.
    const canary = await api.request({
      method: 'PUT',
      url: `/v1/tools/${tool.id}/release/canary`,
      key: team.key,
      body: { version: '1.0.0', percent: 0 },
    });
    expect(canary.status, canary.text).toBe(200);
    expect((await call(tool, { city: 'Oslo' })).answered_by).toBe(tool.name);
    expect(upstream.executions.get(tool.path)).toBe(3);
  });

  it('keeps a team-scoped entry to its team and shares a shared one', async () => {
    const other = await createTeam(api);
    const perTeam = await cachedTool({ cache: { ttl_ms: 60_000 }, visibility: 'public' });
    await call(perTeam, { city: 'Oslo' });
    expect((await call(perTeam, { city: 'Oslo' }, { key: other.key })).answered_by).toBe(
      perTeam.name,
    );
    expect(upstream.executions.get(perTeam.path)).toBe(2);
    const shared = await cachedTool({
      cache: { ttl_ms: 60_000, scope: 'shared' },
      visibility: 'public',
    });
    await call(shared, { city: 'Oslo' });
    expect((await call(shared, { city: 'Oslo' }, { key: other.key })).answered_by).toBe('cache');
    expect(upstream.executions.get(shared.path)).toBe(1);
  });

  it('runs one execution for 100 concurrent identical calls', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 60_000 } });
    upstream.delayMs = 300;
    try {
      const results = await Promise.all(
        Array.from({ length: 100 }, () => call(tool, { city: 'Oslo' })),
      );
      expect(upstream.executions.get(tool.path)).toBe(1);
      expect(results.filter((result) => result.answered_by === 'cache')).toHaveLength(99);
      expect(new Set(results.map((result) => result.data.execution))).toEqual(new Set([1]));
    } finally {
      upstream.delayMs = 0;
    }
  });

  it('bypasses the lookup for an MCP tools/call whose _meta asks for no-cache', async () => {
    const tool = await cachedTool({ cache: { ttl_ms: 60_000 } });
    // The MCP SDK client speaks HTTP: the app listens on a port of this work's range.
    let port = 0;
    for (let attempt = 0; port === 0 && attempt < 50; attempt += 1) {
      const candidate = PORT_RANGE.low + Math.floor(Math.random() * 1000);
      port = await api.app.listen({ port: candidate, host: '127.0.0.1' }).then(
        () => candidate,
        () => 0,
      );
    }
    const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${team.key}` } },
      }),
    );
    try {
      const args = { city: 'Oslo' };
      await client.callTool({ name: tool.name, arguments: args });
      await client.callTool({ name: tool.name, arguments: args });
      expect(upstream.executions.get(tool.path)).toBe(1);
      const fresh = await client.callTool({
        name: tool.name,
        arguments: args,
        _meta: { 'toolgate/cache_control': 'no-cache' },
      });
      expect(fresh.isError ?? false).toBe(false);
      expect(upstream.executions.get(tool.path)).toBe(2);
    } finally {
      await client.close();
    }
  });

  it('refuses a cache on a version that is not readonly, naming the rule', async () => {
    const tool = await createTool(api, team);
    const response = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: {
        ir: tool.ir
          .with({
            behavior: { readonly: false, destructive: false, idempotent: true },
            cache: { ttl_ms: 1000 },
          })
          .version('1.0.0')
          .build(),
      },
    });
    expect(response.status, response.text).toBe(422);
    expect(response.text).toContain('/cache');
    expect(response.text).toContain('readonly, idempotent');
  });
});
