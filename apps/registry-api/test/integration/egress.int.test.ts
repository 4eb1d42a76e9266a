// The egress policy through the API: tool calls and imports connect only where the policy allows.
// On Postgres this is a real deployment (loopback and private refused unless allow-listed); on
// PGlite it is the embedded default (local services allowed, metadata and link-local never).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
} from '../factories/registry.factory';
import { onPglite, startTestApp, type TestApp } from '../support/test-app';

interface CountingServer {
  server: Server;
  url: string;
  connections: number;
}

async function countingServer(
  handler: (path: string) => { status: number; headers?: Record<string, string> },
): Promise<CountingServer> {
  const counting = { connections: 0 } as CountingServer;
  counting.server = createServer((request, response) => {
    const { status, headers } = handler(request.url ?? '/');
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ reached: request.url }));
  });
  counting.server.on('connection', () => {
    counting.connections += 1;
  });
  await new Promise<void>((resolve) => counting.server.listen(0, '127.0.0.1', resolve));
  counting.url = `http://127.0.0.1:${(counting.server.address() as AddressInfo).port}`;
  return counting;
}

async function closeServer(counting: CountingServer | undefined): Promise<void> {
  if (!counting) return;
  counting.server.closeAllConnections();
  await new Promise((resolve) => counting.server.close(resolve));
}

let api: TestApp;
let team: TestTeam;
let allowed: CountingServer;
let forbidden: CountingServer;

beforeAll(async () => {
  forbidden = await countingServer(() => ({ status: 200 }));
  allowed = await countingServer((path) =>
    path.startsWith('/redirect')
      ? { status: 302, headers: { location: `${forbidden.url}/internal` } }
      : { status: 200 },
  );
  // Only the test's own "third-party" server is allow-listed, by address and port.
  api = await startTestApp({ TOOLGATE_EGRESS_ALLOW: new URL(allowed.url).host });
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
  await closeServer(allowed);
  await closeServer(forbidden);
});

/** Publishes an http tool pointing at `url`, stable, and calls it once. */
async function callToolAt(url: string) {
  const tool = await createTool(api, team);
  const ir = tool.ir.parameters({ type: 'object', properties: {} }).with({
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5_000, max_retries: 0 },
    protocol_meta: {
      toolgate: { executor: { kind: 'http', method: 'GET', url } },
    },
  });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls/ir',
    key: team.key,
    body: [{ id: `egress-${randomUUID()}`, name: tool.name, arguments: {} }],
  });
  expect(response.status, response.text).toBe(200);
  return response.body.results[0] as {
    ok: boolean;
    error?: { code: string; message: string };
    data?: unknown;
  };
}

describe('egress policy', () => {
  it('calls the allow-listed server', async () => {
    const result = await callToolAt(`${allowed.url}/orders`);
    expect(result).toMatchObject({ ok: true, data: { reached: '/orders' } });
  });

  it('refuses the cloud metadata address on every deployment, naming the host', async () => {
    const result = await callToolAt('http://169.254.169.254/latest/meta-data/iam/');
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'egress_denied' });
    expect(result.error?.message).toContain('169.254.169.254');
    expect(result.error?.message).toContain('TOOLGATE_EGRESS_ALLOW');
    const listed = await api.request({
      url: '/v1/calls?status=failed&limit=50',
      key: team.key,
    });
    expect(
      listed.body.items.some(
        (item: { error_code?: string }) => item.error_code === 'egress_denied',
      ),
    ).toBe(true);
  });

  it.skipIf(onPglite)(
    'refuses loopback on a real deployment without connecting: an address, a name, IPv6 forms, a redirect',
    async () => {
      const port = new URL(forbidden.url).port;
      const before = forbidden.connections;
      for (const url of [
        `${forbidden.url}/admin`,
        `http://localhost:${port}/admin`,
        `http://2130706433:${port}/admin`,
        `http://[::ffff:127.0.0.1]:${port}/admin`,
        `http://[::1]:${port}/admin`,
      ]) {
        const result = await callToolAt(url);
        expect(result.error?.code, url).toBe('egress_denied');
      }
      // A redirect is never followed to where it points (the engine's tests show the dispatcher
      // refusing one that fetch follows); the model is told the tool redirected.
      const redirected = await callToolAt(`${allowed.url}/redirect`);
      expect(redirected.error).toMatchObject({ code: 'upstream_error' });
      expect(redirected.error?.message).toMatch(/redirect/);
      expect(forbidden.connections).toBe(before);
    },
  );

  it.runIf(onPglite)('lets the embedded default reach a local service', async () => {
    const result = await callToolAt(`${forbidden.url}/local`);
    expect(result).toMatchObject({ ok: true, data: { reached: '/local' } });
  });

  it.skipIf(onPglite)(
    'refuses an OpenAPI import whose base URL is private, and an MCP server import on loopback; nothing is written',
    async () => {
      const before = await api.sql<{ tools: number }>('SELECT count(*)::int AS tools FROM tools');
      const openapi = await api.request({
        method: 'POST',
        url: '/v1/imports/openapi',
        key: team.key,
        body: {
          document: {
            openapi: '3.1.0',
            info: { title: 'internal', version: '1' },
            paths: {
              '/x': { get: { operationId: 'getX', responses: { '200': { description: 'ok' } } } },
            },
          },
          base_url: 'http://10.1.2.3/api',
          publish: true,
        },
      });
      expect(openapi.status, openapi.text).toBe(422);
      expect(openapi.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(openapi.body).toMatchObject({
        code: 'egress_denied',
        errors: [{ path: '/body/base_url' }],
      });
      expect(openapi.body.detail).toContain('10.1.2.3');
      const mcp = await api.request({
        method: 'POST',
        url: '/v1/imports/mcp-servers',
        key: team.key,
        body: { name: 'internal', url: `${forbidden.url}/mcp`, publish: true },
      });
      expect(mcp.status, mcp.text).toBe(422);
      expect(mcp.body).toMatchObject({ code: 'egress_denied' });
      const after = await api.sql<{ tools: number }>('SELECT count(*)::int AS tools FROM tools');
      expect(after).toEqual(before);
    },
  );

  it('fetches a file argument given by URL under the same policy: the metadata address is refused before the upload', async () => {
    const tool = await createTool(api, team);
    const ir = tool.ir
      .parameters({
        type: 'object',
        properties: { file: { type: 'object', properties: { url: { type: 'string' } } } },
      })
      .with({
        behavior: { readonly: false, destructive: false, idempotent: true },
        constraints: { timeout_ms: 5_000, max_retries: 0 },
        protocol_meta: {
          toolgate: {
            executor: {
              kind: 'http',
              method: 'POST',
              url: `${allowed.url}/uploads`,
              body_encoding: 'multipart',
              files: ['file'],
            },
          },
        },
      });
    await publish(api, team, { ...tool, ir }, '1.0.0', ir);
    await setStable(api, team, tool, '1.0.0');
    const before = allowed.connections;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: `egress-${randomUUID()}`,
          name: tool.name,
          arguments: { file: { url: 'http://169.254.169.254/latest/meta-data/iam/key' } },
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      ok: false,
      error: { code: 'egress_denied', message: expect.stringContaining('169.254.169.254') },
    });
    // Nothing was uploaded: the file is fetched before the request is sent.
    expect(allowed.connections).toBe(before);
  });
});
