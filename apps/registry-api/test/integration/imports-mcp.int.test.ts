import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

/** One upstream tool: its zod shape for the SDK and the JSON Schema it lists (kept in step by hand). */
interface UpstreamToolDefinition {
  name: string;
  description: string;
  shape: z.ZodRawShape;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotations;
  run: (args: Record<string, unknown>) => { text: string; structured: Record<string, unknown> };
}

const PAGE_SIZE = 2;

const echo: UpstreamToolDefinition = {
  name: 'echo',
  description: 'Echoes a text.',
  shape: { text: z.string() },
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (args) => ({ text: `echo: ${String(args['text'])}`, structured: { echoed: args['text'] } }),
};
const add: UpstreamToolDefinition = {
  name: 'add',
  description: 'Adds two numbers.',
  shape: { a: z.number(), b: z.number() },
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  annotations: { destructiveHint: false, idempotentHint: true },
  run: (args) => ({ text: 'sum', structured: { sum: Number(args['a']) + Number(args['b']) } }),
};
const legacy: UpstreamToolDefinition = {
  name: 'legacy',
  description: 'Does the old thing.',
  shape: {},
  inputSchema: { type: 'object', properties: {} },
  run: () => ({ text: 'old', structured: {} }),
};

/** The upstream's current tool list; tests change it between syncs. */
let upstreamTools: UpstreamToolDefinition[] = [echo, add, legacy];
let listRequests = 0;

/** A fresh McpServer per request (stateless Streamable HTTP) over the current tool list, listing 2 tools a page. */
function buildUpstream(): McpServer {
  const server = new McpServer({ name: 'upstream', version: '1.0.0' });
  for (const tool of upstreamTools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.shape,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      },
      (args: Record<string, unknown>) => {
        const result = tool.run(args);
        return {
          content: [{ type: 'text', text: result.text }],
          structuredContent: result.structured,
        };
      },
    );
  }
  // Replaces the SDK's single-page listing, so the import has to follow nextCursor.
  server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
    listRequests += 1;
    const start = Number(request.params?.cursor ?? '0');
    const page = upstreamTools.slice(start, start + PAGE_SIZE);
    const next = start + PAGE_SIZE;
    return {
      tools: page.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
      })),
      ...(next < upstreamTools.length ? { nextCursor: String(next) } : {}),
    };
  });
  return server;
}

let api: TestApp;
let team: TestTeam;
let upstream: Server;
let upstreamUrl: string;

async function snapshot(): Promise<unknown> {
  const rows = await api.sql(`
    SELECT
      (SELECT count(*) FROM tools)::int AS tools,
      (SELECT count(*) FROM mcp_servers)::int AS mcp_servers,
      (SELECT count(*) FROM mcp_server_tools)::int AS mcp_server_tools,
      (SELECT md5(coalesce(string_agg(v::text, '|' ORDER BY v.id), '')) FROM tool_versions v) AS versions_digest,
      (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r.tool_id), '')) FROM releases r) AS releases_digest,
      (SELECT hash FROM audit_chain_head) AS audit_head`);
  return rows[0];
}

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  upstream = createServer((request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = buildUpstream();
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  await api?.close();
});

describe('upstream MCP servers', () => {
  let serverId: string;
  const toolIds = new Map<string, string>();

  it('registers a server and imports every listed tool (all pages) as published tool versions', async () => {
    listRequests = 0;
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body: { name: 'upstream', url: upstreamUrl, publish: true },
    });
    expect(response.status, response.text).toBe(201);
    expect(listRequests).toBe(2);
    serverId = response.body.server.id;
    expect(response.body.added.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'add',
      'echo',
      'legacy',
    ]);
    for (const tool of response.body.added) {
      expect(tool).toMatchObject({ action: 'created', version: '1.0.0', status: 'published' });
      toolIds.set(tool.name, tool.tool_id);
    }
    expect(response.body.server.tools).toHaveLength(3);
    const version = await api.request({
      url: `/v1/tools/${toolIds.get('echo')}/versions/1.0.0`,
      key: team.key,
    });
    expect(version.body.ir.behavior).toMatchObject({
      readonly: true,
      destructive: false,
      idempotent: true,
      open_world: false,
    });
    expect(version.body.ir.parameters).toEqual(echo.inputSchema);
    expect(version.body.ir.protocol_meta.toolgate.executor).toEqual({
      kind: 'mcp',
      url: upstreamUrl,
      tool: 'echo',
      headers: {},
    });
    const legacyVersion = await api.request({
      url: `/v1/tools/${toolIds.get('legacy')}/versions/1.0.0`,
      key: team.key,
    });
    // MCP's default: a tool without annotations may be destructive.
    expect(legacyVersion.body.ir.behavior).toMatchObject({ readonly: false, destructive: true });
  });

  it('calls an imported tool through the gateway and gets the upstream result back', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [{ id: `call-${randomUUID()}`, name: 'echo', arguments: { text: 'hello upstream' } }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true, name: 'echo' });
    expect(JSON.stringify(response.body.results[0])).toContain('hello upstream');
  });

  it('lists and reads registered servers', async () => {
    const list = await api.request({ url: '/v1/imports/mcp-servers', key: team.key });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: serverId, name: 'upstream', url: upstreamUrl }),
    ]);
    const one = await api.request({ url: `/v1/imports/mcp-servers/${serverId}`, key: team.key });
    expect(one.status, one.text).toBe(200);
    expect(one.body.last_synced_at).toEqual(expect.any(String));
    const other = await createTeam(api);
    const hidden = await api.request({
      url: `/v1/imports/mcp-servers/${serverId}`,
      key: other.key,
    });
    expect(hidden.status).toBe(404);
  });

  it('re-syncs: new tools added, changed ones versioned by the breaking-change rules, removed ones deprecated', async () => {
    upstreamTools = [
      { ...echo, description: 'Echoes a text back.' },
      {
        ...add,
        shape: { a: z.number(), b: z.number(), c: z.number() },
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' }, c: { type: 'number' } },
          required: ['a', 'b', 'c'],
        },
      },
      {
        name: 'multiply',
        description: 'Multiplies two numbers.',
        shape: { a: z.number(), b: z.number() },
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
        annotations: { readOnlyHint: true },
        run: (args) => ({
          text: 'product',
          structured: { product: Number(args['a']) * Number(args['b']) },
        }),
      },
    ];
    const response = await api.request({
      method: 'POST',
      url: `/v1/imports/mcp-servers/${serverId}/sync`,
      key: team.key,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.added).toEqual([
      expect.objectContaining({ name: 'multiply', version: '1.0.0' }),
    ]);
    const changed = new Map<string, Record<string, unknown>>(
      response.body.changed.map((tool: { name: string }) => [tool.name, tool]),
    );
    expect(changed.get('add')).toMatchObject({
      version: '2.0.0',
      bump: 'major',
      previous_version: '1.0.0',
    });
    expect(changed.get('echo')).toMatchObject({ version: '1.0.1', bump: 'patch' });
    expect(response.body.removed).toEqual([
      expect.objectContaining({
        name: 'legacy',
        upstream_name: 'legacy',
        deprecated_versions: ['1.0.0'],
      }),
    ]);
    const legacyVersions = await api.request({
      url: `/v1/tools/${toolIds.get('legacy')}/versions`,
      key: team.key,
    });
    expect(legacyVersions.body.items[0]).toMatchObject({
      version: '1.0.0',
      deprecated_at: expect.any(String),
      sunset_at: expect.any(String),
    });
    const addTool = await api.request({ url: `/v1/tools/${toolIds.get('add')}`, key: team.key });
    expect(addTool.body.release).toMatchObject({ stable_version: '2.0.0' });
    const server = await api.request({ url: `/v1/imports/mcp-servers/${serverId}`, key: team.key });
    expect(
      server.body.tools.find((tool: { upstream_name: string }) => tool.upstream_name === 'legacy')
        .removed_at,
    ).toEqual(expect.any(String));
    const audit = await api.request({
      url: `/v1/audit?action=mcp_server.synced&limit=5`,
      key: team.key,
    });
    expect(audit.body.items[0].data).toMatchObject({
      removed: ['legacy'],
      added: ['multiply@1.0.0'],
    });
  });

  it('leaves unchanged tools untouched on a sync that finds nothing new', async () => {
    const versionsBefore = await api.sql(
      "SELECT md5(string_agg(v::text, '|' ORDER BY v.id)) AS digest FROM tool_versions v",
    );
    const response = await api.request({
      method: 'POST',
      url: `/v1/imports/mcp-servers/${serverId}/sync`,
      key: team.key,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ added: [], changed: [], removed: [] });
    expect(response.body.unchanged).toHaveLength(3);
    const versionsAfter = await api.sql(
      "SELECT md5(string_agg(v::text, '|' ORDER BY v.id)) AS digest FROM tool_versions v",
    );
    expect(versionsAfter).toEqual(versionsBefore);
  });

  it('brings a tool back with a new, undeprecated version when the upstream lists it again', async () => {
    upstreamTools = [...upstreamTools, legacy];
    const response = await api.request({
      method: 'POST',
      url: `/v1/imports/mcp-servers/${serverId}/sync`,
      key: team.key,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.changed).toEqual([
      expect.objectContaining({ name: 'legacy', version: '1.0.1', bump: 'patch' }),
    ]);
    const versions = await api.request({
      url: `/v1/tools/${toolIds.get('legacy')}/versions`,
      key: team.key,
    });
    expect(versions.body.items[0]).toMatchObject({ version: '1.0.1', deprecated_at: null });
    const server = await api.request({ url: `/v1/imports/mcp-servers/${serverId}`, key: team.key });
    expect(
      server.body.tools.find((tool: { upstream_name: string }) => tool.upstream_name === 'legacy')
        .removed_at,
    ).toBeNull();
  });
});

describe('upstream MCP servers: bad input writes nothing', () => {
  const closedPort = async (): Promise<string> => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return `http://127.0.0.1:${port}/mcp`;
  };

  it('answers 502 with what to do next when the upstream is unreachable', async () => {
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body: { name: 'down', url: await closedPort(), publish: true },
    });
    expect(response.status, response.text).toBe(502);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'upstream_unavailable' });
    expect(response.body.detail).toMatch(/retry/);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a missing url', { name: 'x' }, 400],
    ['a non-http url', { name: 'x', url: 'file:///etc/passwd' }, 400],
    [
      'a bad header name',
      { name: 'x', url: 'http://127.0.0.1:1/mcp', auth: { header: 'bad header', secret_ref: 'S' } },
      400,
    ],
    ['an unknown field', { name: 'x', url: 'http://127.0.0.1:1/mcp', extra: true }, 400],
  ])('%s is a 400', async (_name, body, status) => {
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body,
    });
    expect(response.status, response.text).toBe(status);
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a secret the registry cannot resolve, a taken name and an unknown server', async () => {
    const before = await snapshot();
    const secret = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body: {
        name: 'with-auth',
        url: upstreamUrl,
        auth: { header: 'authorization', secret_ref: 'NO_SUCH_SECRET', prefix: 'Bearer ' },
      },
    });
    expect(secret.status, secret.text).toBe(400);
    expect(secret.body.errors[0].path).toBe('/body/auth/secret_ref');
    const taken = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body: { name: 'upstream', url: upstreamUrl },
    });
    expect(taken.status, taken.text).toBe(409);
    const unknown = await api.request({
      method: 'POST',
      url: `/v1/imports/mcp-servers/${randomUUID()}/sync`,
      key: team.key,
    });
    expect(unknown.status, unknown.text).toBe(404);
    const malformed = await api.request({
      url: '/v1/imports/mcp-servers/not-a-uuid',
      key: team.key,
    });
    expect(malformed.status, malformed.text).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
