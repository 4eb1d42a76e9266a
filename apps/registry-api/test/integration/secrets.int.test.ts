// The secret store through the API: write-only routes, per-team resolution at call time (queued,
// inline and MCP imports) and a planted value that must never come back out of any output.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTeam,
  createTool,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const SECRETS_KEY = `test-1:${randomBytes(32).toString('base64')}`;
// Distinctive values, so a leak anywhere is found by a plain substring search.
const PLANTED = `planted-${randomBytes(12).toString('hex')}`;
const ROTATED = `rotated-${randomBytes(12).toString('hex')}`;
const COOKIE = `cookie-${randomBytes(12).toString('hex')}`;
const OTHER_TEAM = `other-${randomBytes(12).toString('hex')}`;
const MCP_TOKEN = `mcp-${randomBytes(12).toString('hex')}`;
const VALUES = [PLANTED, ROTATED, COOKIE, OTHER_TEAM, MCP_TOKEN];

const logLines: string[] = [];
let api: TestApp;
let unkeyed: TestApp;
let team: TestTeam;
let otherTeam: TestTeam;
let echo: { server: Server; url: string; seen: Array<Record<string, unknown>> };
let mcp: { server: Server; url: string; authorizations: Array<string | undefined> };

/** An upstream that answers with the headers it received: a leak path if results were not redacted. */
async function startEcho(): Promise<typeof echo> {
  const seen: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    seen.push({ ...request.headers, url: request.url });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ headers: request.headers, url: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A stateless MCP server that requires `Bearer MCP_TOKEN` and whose tool echoes the header back. */
async function startMcp(): Promise<typeof mcp> {
  const authorizations: Array<string | undefined> = [];
  const server = createServer((request, response) => {
    const authorization = request.headers.authorization;
    authorizations.push(authorization);
    if (authorization !== `Bearer ${MCP_TOKEN}`) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":"unauthorized"}');
      return;
    }
    const upstream = new McpServer({ name: 'upstream', version: '1.0.0' });
    upstream.registerTool(
      'whoami',
      { description: 'Says which credential it got.', annotations: { readOnlyHint: true } },
      () => ({
        content: [{ type: 'text', text: `you sent ${authorization}` }],
        structuredContent: { authorization },
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void upstream.close();
    });
    void upstream.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    authorizations,
  };
}

async function closeServer(server: Server | undefined): Promise<void> {
  if (server === undefined) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

beforeAll(async () => {
  [echo, mcp] = await Promise.all([startEcho(), startMcp()]);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  [api, unkeyed] = await Promise.all([
    startTestApp({ TOOLGATE_SECRETS_KEY: SECRETS_KEY }, { logger }),
    startTestApp(),
  ]);
  [team, otherTeam] = await Promise.all([createTeam(api), createTeam(api)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([api?.close(), unkeyed?.close()]);
  await Promise.all([closeServer(echo?.server), closeServer(mcp?.server)]);
});

async function createSecret(owner: TestTeam, name: string, value: string) {
  const response = await api.request({
    method: 'POST',
    url: '/v1/secrets',
    key: owner.key,
    body: { name, value },
  });
  expect(response.status, response.text).toBe(201);
  return response;
}

async function secretRows(): Promise<Array<Record<string, unknown>>> {
  return api.sql(
    `SELECT team_id::text, name, key_id, nonce, ciphertext FROM secrets ORDER BY name`,
  );
}

/** An http tool of `owner` sending the secret headers to the echo server, published and stable. */
async function echoTool(
  owner: TestTeam,
  options: { execution?: 'inline' | 'queued'; name?: string } = {},
): Promise<TestTool> {
  const tool = await createTool(
    api,
    owner,
    options.name === undefined ? {} : { name: options.name },
  );
  const ir = tool.ir.parameters({ type: 'object', properties: { q: { type: 'string' } } }).with({
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000, max_retries: 0, execution: options.execution ?? 'queued' },
    protocol_meta: {
      toolgate: {
        executor: {
          kind: 'http',
          method: 'GET',
          url: `${echo.url}/orders`,
          headers: {
            'X-Api-Key': { secret: 'ORDERS_API_KEY' },
            Authorization: { secret: 'ORDERS_API_KEY', prefix: 'Bearer ' },
            Cookie: { secret: 'SESSION_COOKIE', prefix: 'session=' },
          },
          parameters: { q: { in: 'query' } },
        },
      },
    },
  });
  const published = await api.request({
    method: 'POST',
    url: `/v1/tools/${tool.id}/versions`,
    key: owner.key,
    body: { ir: ir.version('1.0.0').build() },
  });
  expect(published.status, published.text).toBe(201);
  return tool;
}

async function call(owner: TestTeam, tool: TestTool) {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls/ir?wait_ms=10000',
    key: owner.key,
    body: [{ id: `call-${randomUUID()}`, name: tool.name, arguments: { q: 'status' } }],
  });
  expect(response.status, response.text).toBe(200);
  return response.body.results[0] as {
    ok: boolean;
    data?: { headers: Record<string, string>; url: string };
    error?: { code: string; message: string };
  };
}

describe('the secret store without a key', () => {
  it('answers 503 naming TOOLGATE_SECRETS_KEY on every route, and stores nothing', async () => {
    const unkeyedTeam = await createTeam(unkeyed);
    for (const request of [
      { method: 'POST' as const, url: '/v1/secrets', body: { name: 'A_KEY', value: 'v' } },
      { method: 'GET' as const, url: '/v1/secrets' },
      { method: 'PUT' as const, url: '/v1/secrets/A_KEY', body: { value: 'v' } },
      { method: 'DELETE' as const, url: '/v1/secrets/A_KEY' },
    ]) {
      const response = await unkeyed.request({ ...request, key: unkeyedTeam.key });
      expect(response.status, `${request.method} ${response.text}`).toBe(503);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body).toMatchObject({ code: 'secrets_unconfigured' });
      expect(response.body.detail).toContain('TOOLGATE_SECRETS_KEY');
    }
    expect(await unkeyed.sql('SELECT id FROM secrets')).toEqual([]);
  });
});

describe('secrets routes', () => {
  it('stores a value encrypted, answers without it, and lists names only', async () => {
    const created = await createSecret(team, 'ORDERS_API_KEY', PLANTED);
    expect(created.body).toMatchObject({
      name: 'ORDERS_API_KEY',
      team_id: team.id,
      last_used_at: null,
      referenced_by: [],
    });
    expect(created.text).not.toContain(PLANTED);
    await createSecret(team, 'SESSION_COOKIE', COOKIE);
    // The names an OpenAPI import writes (`<secret_prefix><scheme>`) are storable too.
    await createSecret(await createTeam(api), 'petstore/api_key', 'third-team-value');
    const rows = await secretRows();
    expect(rows.filter((row) => row['team_id'] === team.id)).toHaveLength(2);
    expect(rows.every((row) => row['key_id'] === 'test-1')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(PLANTED);
    expect(JSON.stringify(rows)).not.toContain(Buffer.from(PLANTED).toString('base64'));
    const listed = await api.request({ url: '/v1/secrets', key: team.key });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { name: string }) => item.name)).toEqual([
      'ORDERS_API_KEY',
      'SESSION_COOKIE',
    ]);
    expect(listed.text).not.toContain(PLANTED);
    // Another team sees none of them.
    const other = await api.request({ url: '/v1/secrets', key: otherTeam.key });
    expect(other.body.items).toEqual([]);
  });

  it('refuses bad input with a problem and changes nothing', async () => {
    const before = await secretRows();
    const cases: Array<{ method: 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }> = [
      { method: 'POST', url: '/v1/secrets', body: { name: 'has space', value: 'v' } },
      { method: 'POST', url: '/v1/secrets', body: { name: '_LEADING', value: 'v' } },
      { method: 'POST', url: '/v1/secrets', body: { name: '1ABC', value: 'v' } },
      { method: 'POST', url: '/v1/secrets', body: { name: `A${'B'.repeat(128)}`, value: 'v' } },
      { method: 'POST', url: '/v1/secrets', body: { name: 'EMPTY', value: '' } },
      {
        method: 'POST',
        url: '/v1/secrets',
        body: { name: 'BIG', value: 'x'.repeat(8 * 1024 + 1) },
      },
      { method: 'POST', url: '/v1/secrets', body: { name: 'NUM', value: 42 } },
      { method: 'POST', url: '/v1/secrets', body: { name: 'EXTRA', value: 'v', other: 1 } },
      { method: 'POST', url: '/v1/secrets', body: { name: 'ORDERS_API_KEY', value: 'again' } },
      { method: 'PUT', url: '/v1/secrets/ORDERS_API_KEY', body: { value: '' } },
      { method: 'PUT', url: '/v1/secrets/bad-name', body: { value: 'v' } },
      { method: 'PUT', url: '/v1/secrets/NO_SUCH_SECRET', body: { value: 'v' } },
      { method: 'DELETE', url: '/v1/secrets/NO_SUCH_SECRET' },
      { method: 'DELETE', url: '/v1/secrets/ORDERS_API_KEY?force=maybe' },
    ];
    for (const request of cases) {
      const response = await api.request({ ...request, key: team.key });
      expect(
        response.status,
        `${request.method} ${request.url} ${response.text}`,
      ).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.text).not.toContain('x'.repeat(64));
    }
    expect(await secretRows()).toEqual(before);
  });

  it('lets the admin key write a named team only, and keeps teams apart', async () => {
    const unnamed = await api.request({
      method: 'POST',
      url: '/v1/secrets',
      body: { name: 'ADMIN_MADE', value: 'v' },
    });
    expect(unnamed.status, unnamed.text).toBe(400);
    expect(unnamed.body.errors[0].path).toBe('/body/team_id');
    const named = await api.request({
      method: 'POST',
      url: '/v1/secrets',
      body: { name: 'ADMIN_MADE', value: 'v', team_id: otherTeam.id },
    });
    expect(named.status, named.text).toBe(201);
    expect(named.body.team_id).toBe(otherTeam.id);
    const rotateUnnamed = await api.request({
      method: 'PUT',
      url: '/v1/secrets/ADMIN_MADE',
      body: { value: 'w' },
    });
    expect(rotateUnnamed.status).toBe(400);
    expect(rotateUnnamed.body.errors[0].path).toBe('/query/team_id');
    // A team key naming another team, or reaching for its secret, finds nothing.
    const foreign = await api.request({
      method: 'POST',
      url: '/v1/secrets',
      key: team.key,
      body: { name: 'SNEAKY', value: 'v', team_id: otherTeam.id },
    });
    expect(foreign.status).toBe(404);
    const rotateForeign = await api.request({
      method: 'PUT',
      url: '/v1/secrets/ADMIN_MADE',
      key: team.key,
      body: { value: 'w' },
    });
    expect(rotateForeign.status).toBe(404);
    const all = await api.request({ url: '/v1/secrets' });
    expect(all.body.items.some((item: { team_id: string }) => item.team_id === otherTeam.id)).toBe(
      true,
    );
    const deleted = await api.request({
      method: 'DELETE',
      url: `/v1/secrets/ADMIN_MADE?team_id=${otherTeam.id}`,
    });
    expect(deleted.status, deleted.text).toBe(204);
    // A key with tools:read only may list but not write.
    const reader = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    expect((await api.request({ url: '/v1/secrets', key: reader })).status).toBe(200);
    const write = await api.request({
      method: 'POST',
      url: '/v1/secrets',
      key: reader,
      body: { name: 'READER', value: 'v' },
    });
    expect(write.status).toBe(403);
  });
});

describe('publishing a version that references secrets', () => {
  it('is refused with 422 naming the missing secrets and where they are referenced', async () => {
    const tool = await createTool(api, team);
    const ir = tool.ir.with({
      protocol_meta: {
        toolgate: {
          executor: {
            kind: 'http',
            method: 'GET',
            url: `${echo.url}/x`,
            headers: {
              'X-Api-Key': { secret: 'ORDERS_API_KEY' },
              'X-Missing': { secret: 'NOT_STORED' },
              'X/Odd~Name': { secret: 'ALSO_MISSING' },
            },
          },
        },
      },
    });
    const refused = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: ir.version('1.0.0').build() },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'missing_secrets',
      missing_secrets: ['NOT_STORED', 'ALSO_MISSING'],
    });
    expect(refused.body.errors.map((issue: { path: string }) => issue.path)).toEqual([
      '/body/ir/protocol_meta/toolgate/executor/headers/X-Missing/secret',
      '/body/ir/protocol_meta/toolgate/executor/headers/X~1Odd~0Name/secret',
    ]);
    const versions = await api.request({ url: `/v1/tools/${tool.id}/versions`, key: team.key });
    expect(versions.body.items).toEqual([]);
    // Another team's secret of that name does not count.
    const foreignTool = await createTool(api, otherTeam);
    const foreign = await api.request({
      method: 'POST',
      url: `/v1/tools/${foreignTool.id}/versions`,
      key: otherTeam.key,
      body: {
        ir: foreignTool.ir
          .with({
            protocol_meta: {
              toolgate: {
                executor: {
                  kind: 'http',
                  method: 'GET',
                  url: `${echo.url}/x`,
                  headers: { 'X-Api-Key': { secret: 'ORDERS_API_KEY' } },
                },
              },
            },
          })
          .version('1.0.0')
          .build(),
      },
    });
    expect(foreign.status, foreign.text).toBe(422);
    expect(foreign.body.missing_secrets).toEqual(['ORDERS_API_KEY']);
  });
});

describe('calls resolve their team secrets', () => {
  let queued: TestTool;
  let inline: TestTool;

  beforeAll(async () => {
    queued = await echoTool(team);
    inline = await echoTool(team, { execution: 'inline' });
  });

  it('sends the values upstream in headers and cookies, queued and inline, and redacts them from results', async () => {
    for (const tool of [queued, inline]) {
      const before = echo.seen.length;
      const result = await call(team, tool);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const seen = echo.seen.at(-1);
      expect(echo.seen.length).toBe(before + 1);
      expect(seen).toMatchObject({
        'x-api-key': PLANTED,
        authorization: `Bearer ${PLANTED}`,
        cookie: `session=${COOKIE}`,
        url: '/orders?q=status',
      });
      expect(result.data?.headers).toMatchObject({
        'x-api-key': '[redacted]',
        authorization: 'Bearer [redacted]',
        cookie: 'session=[redacted]',
      });
    }
    const listed = await api.request({ url: '/v1/secrets', key: team.key });
    const orders = listed.body.items.find(
      (item: { name: string }) => item.name === 'ORDERS_API_KEY',
    );
    expect(orders.referenced_by).toEqual(
      expect.arrayContaining([
        {
          tool_id: queued.id,
          tool_name: queued.name,
          version: '1.0.0',
          status: 'published',
          release: 'stable',
          pointer: '/headers/X-Api-Key/secret',
        },
      ]),
    );
    // last_used_at is written behind the call, once a minute at most.
    await expect
      .poll(async () => {
        const rows = await api.sql<{ last_used_at: Date | null }>(
          `SELECT last_used_at FROM secrets WHERE team_id = $1 AND name = 'ORDERS_API_KEY'`,
          [team.id],
        );
        return rows[0]?.last_used_at !== null;
      })
      .toBe(true);
  });

  it("uses the rotated value at once, and another team's same-named secret for its own calls", async () => {
    const rotated = await api.request({
      method: 'PUT',
      url: '/v1/secrets/ORDERS_API_KEY',
      key: team.key,
      body: { value: ROTATED },
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.text).not.toContain(ROTATED);
    await call(team, queued);
    expect(echo.seen.at(-1)?.['x-api-key']).toBe(ROTATED);

    await createSecret(otherTeam, 'ORDERS_API_KEY', OTHER_TEAM);
    await createSecret(otherTeam, 'SESSION_COOKIE', `${OTHER_TEAM}-cookie`);
    const theirs = await echoTool(otherTeam);
    const result = await call(otherTeam, theirs);
    expect(result.ok).toBe(true);
    expect(echo.seen.at(-1)?.['x-api-key']).toBe(OTHER_TEAM);
    await call(team, queued);
    expect(echo.seen.at(-1)?.['x-api-key']).toBe(ROTATED);
  });

  it('refuses to delete a secret served versions reference, naming them, unless forced', async () => {
    const refused = await api.request({
      method: 'DELETE',
      url: '/v1/secrets/SESSION_COOKIE',
      key: team.key,
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe('secret_in_use');
    expect(refused.body.detail).toContain(`${queued.name}@1.0.0 (stable)`);
    expect(
      refused.body.referenced_by.map((use: { tool_name: string }) => use.tool_name).sort(),
    ).toEqual([queued.name, inline.name].sort());
    expect((await secretRows()).some((row) => row['name'] === 'SESSION_COOKIE')).toBe(true);
    const forced = await api.request({
      method: 'DELETE',
      url: '/v1/secrets/SESSION_COOKIE?force=true',
      key: team.key,
    });
    expect(forced.status, forced.text).toBe(204);
    // The cache of this process was dropped: the next call fails naming the secret only.
    const failed = await call(team, queued);
    expect(failed.ok).toBe(false);
    const record = await api.request({
      url: `/v1/calls?tool=${encodeURIComponent(queued.name)}&status=failed`,
      key: team.key,
    });
    expect(record.body.items.length).toBeGreaterThan(0);
  });

  it('audits every change by name, never by value', async () => {
    const events = await api.sql<{ action: string; data: { name?: string } }>(
      `SELECT action, data FROM audit_events WHERE entity_type = 'secret' AND team_id = $1 ORDER BY seq`,
      [team.id],
    );
    expect(events.map((event) => event.action)).toEqual([
      'secret.created',
      'secret.created',
      'secret.rotated',
      'secret.deleted',
    ]);
    expect(events.map((event) => event.data.name)).toEqual([
      'ORDERS_API_KEY',
      'SESSION_COOKIE',
      'ORDERS_API_KEY',
      'SESSION_COOKIE',
    ]);
  });
});

describe('MCP server imports', () => {
  it("resolve auth.secret_ref from the team's store at import and at call time", async () => {
    await createSecret(team, 'MCP_TOKEN', MCP_TOKEN);
    const imported = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: team.key,
      body: {
        name: uniqueName('secured'),
        url: mcp.url,
        auth: { header: 'authorization', secret_ref: 'MCP_TOKEN', prefix: 'Bearer ' },
        name_prefix: 'sec_',
        publish: true,
      },
    });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.text).not.toContain(MCP_TOKEN);
    expect(mcp.authorizations.length).toBeGreaterThan(0);
    expect(mcp.authorizations.every((value) => value === `Bearer ${MCP_TOKEN}`)).toBe(true);
    // The other team has no MCP_TOKEN: the same import is refused for it, nothing reaches upstream.
    const before = mcp.authorizations.length;
    const refused = await api.request({
      method: 'POST',
      url: '/v1/imports/mcp-servers',
      key: otherTeam.key,
      body: {
        name: uniqueName('secured'),
        url: mcp.url,
        auth: { header: 'authorization', secret_ref: 'MCP_TOKEN', prefix: 'Bearer ' },
      },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(mcp.authorizations.length).toBe(before);

    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir?wait_ms=10000',
      key: team.key,
      body: [{ id: `call-${randomUUID()}`, name: 'sec_whoami', arguments: {} }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      ok: true,
      data: { authorization: 'Bearer [redacted]' },
    });
    expect(mcp.authorizations.at(-1)).toBe(`Bearer ${MCP_TOKEN}`);
  });
});

describe('the planted values', () => {
  it('appear in no call record, event stream, log line or table other than as ciphertext', async () => {
    const calls = await api.request({ url: '/v1/calls?limit=100', key: team.key });
    expect(calls.status).toBe(200);
    const ids = (calls.body.items as Array<{ id: string }>).map((item) => item.id);
    expect(ids.length).toBeGreaterThan(4);
    const outputs: string[] = [calls.text];
    for (const id of ids) {
      for (const url of [`/v1/calls/${id}`, `/v1/calls/${id}/events`, `/v1/calls/${id}/decision`])
        outputs.push((await api.request({ url, key: team.key })).text);
    }
    const otherCalls = await api.request({ url: '/v1/calls?limit=100', key: otherTeam.key });
    outputs.push(otherCalls.text);
    outputs.push((await api.request({ url: '/v1/audit?limit=200' })).text);
    outputs.push((await api.request({ url: '/v1/secrets' })).text);
    const tables = await api.sql<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.map((table) => table.table_name)).toEqual(
      expect.arrayContaining(['calls', 'secrets', 'audit_events']),
    );
    for (const { table_name: table } of tables) {
      const rows = await api.sql<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
      outputs.push(rows.map((row) => row.row).join('\n'));
    }
    expect(logLines.length).toBeGreaterThan(0);
    outputs.push(logLines.join(''));
    const everything = outputs.join('\n');
    expect(everything).toContain('[redacted]');
    for (const value of VALUES) expect(everything.includes(value), value).toBe(false);
  });
});
