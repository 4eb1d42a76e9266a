import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BuiltinExecutor } from '@toolgate/engine';
import { OAuth2Server, type MutableToken } from 'oauth2-mock-server';
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// The team claim the authorization server writes and the scope map reads.
const TEAM_CLAIM = 'toolgate_team';
const SCOPE_MAP = {
  team_claim: TEAM_CLAIM,
  scopes: {
    'mcp:tools': ['tools:read'],
    'mcp:call': ['calls:execute'],
    'tools:weather': ['calls:execute'],
  },
};
const CLIENT_SECRET = 'client-secret';

let authServer: OAuth2Server;
let otherServer: OAuth2Server;
let api: TestApp;
let baseUrl: string;
let team: TestTeam;
const clients: Client[] = [];
const runs = { weather: 0, stocks: 0 };

/**
 * Makes the mock authorization server issue what a real one does for a client credentials grant
 * with RFC 8707 `resource`: `aud` the resource, `sub` and `client_id` the client, and the team
 * claim (here a form field, where a real server would look the client up).
 */
function issueLikeARealServer(server: OAuth2Server): void {
  server.service.on('beforeTokenSigning', (token: MutableToken, request: IncomingMessage) => {
    const body = (request as IncomingMessage & { body: Record<string, string | undefined> }).body;
    const clientId = Buffer.from(
      (request.headers.authorization ?? '').replace(/^Basic /, ''),
      'base64',
    )
      .toString('utf8')
      .split(':')[0];
    token.payload['aud'] = body['resource'];
    token.payload['sub'] = clientId;
    token.payload['client_id'] = clientId;
    if (body[TEAM_CLAIM] !== undefined) token.payload[TEAM_CLAIM] = body[TEAM_CLAIM];
  });
}

async function startAuthServer(): Promise<OAuth2Server> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  issueLikeARealServer(server);
  return server;
}

beforeAll(async () => {
  authServer = await startAuthServer();
  otherServer = await startAuthServer();
  const builtins = new BuiltinExecutor()
    .registerBuiltin('weather', () => {
      runs.weather += 1;
      return { forecast: 'sunny' };
    })
    .registerBuiltin('stocks', () => {
      runs.stocks += 1;
      return { price: 42 };
    });
  api = await startTestApp(
    {
      TOOLGATE_OAUTH_ISSUER: issuerOf(authServer),
      TOOLGATE_OAUTH_SCOPE_MAP: JSON.stringify(SCOPE_MAP),
    },
    { builtins },
  );
  // The SDK client speaks HTTP, so this file listens on a real port instead of using inject().
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const address = api.app.getHttpServer().address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${address.port}`;
  team = await createTeam(api);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await api?.close();
  await authServer?.stop();
  await otherServer?.stop();
});

function issuerOf(server: OAuth2Server): string {
  const url = server.issuer.url;
  if (url === undefined) throw new Error('the authorization server has no issuer URL');
  return url;
}

const resourceUrl = () => `${baseUrl}/mcp`;
const metadataUrl = () => `${baseUrl}/.well-known/oauth-protected-resource/mcp`;

/** A client credentials grant at the token endpoint the issuer's metadata names. */
async function obtainToken(
  server: OAuth2Server,
  request: { scope: string; resource?: string; teamId?: string; clientId?: string },
): Promise<string> {
  const metadata = (await (
    await fetch(`${issuerOf(server)}/.well-known/openid-configuration`)
  ).json()) as { token_endpoint: string };
  const clientId = request.clientId ?? 'weather-app';
  const response = await fetch(metadata.token_endpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${CLIENT_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: request.scope,
      resource: request.resource ?? resourceUrl(),
      [TEAM_CLAIM]: request.teamId ?? team.id,
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { access_token: string; token_type: string };
  expect(body.token_type).toBe('Bearer');
  return body.access_token;
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'toolgate-oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(resourceUrl()), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** One stateless JSON-RPC POST to /mcp, for the status and headers the SDK does not show. */
function postMcp(token: string | null, message: Record<string, unknown>): Promise<Response> {
  return fetch(resourceUrl(), {
    method: 'POST',
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  });
}

const LIST_TOOLS = { method: 'tools/list' };

async function expectInvalidToken(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  expect(response.headers.get('www-authenticate')).toBe(
    `Bearer realm="toolgate", error="invalid_token", resource_metadata="${metadataUrl()}"`,
  );
  const body = (await response.json()) as { code: string; detail: string; stack?: unknown };
  expect(body.code).toBe('unauthenticated');
  expect(body.detail).toMatch(detail);
  expect(body.stack).toBeUndefined();
}

function textOf(result: Record<string, unknown>): string {
  const content = (result['content'] ?? []) as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? '').join('\n');
}

describe('/mcp as an OAuth 2.1 resource server', () => {
  it('publishes its Protected Resource Metadata (RFC 9728) at both well-known URLs', async () => {
    for (const url of [metadataUrl(), `${baseUrl}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(await response.json()).toEqual({
        resource: resourceUrl(),
        authorization_servers: [issuerOf(authServer)],
        scopes_supported: ['mcp:tools', 'mcp:call', 'tools:weather'],
        bearer_methods_supported: ['header'],
        resource_name: 'Toolgate MCP',
      });
    }
  });

  it('answers a request without a token with 401 naming the metadata', async () => {
    const response = await postMcp(null, LIST_TOOLS);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="toolgate", resource_metadata="${metadataUrl()}"`,
    );
  });

  it('lets a client that followed the metadata list and call tools with its token', async () => {
    const weather = await createBuiltinTool(api, team, { handler: 'weather' });
    const challenge = (await postMcp(null, LIST_TOOLS)).headers.get('www-authenticate') ?? '';
    const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(named).toBe(metadataUrl());
    const metadata = (await (await fetch(named ?? '')).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(metadata.authorization_servers).toEqual([issuerOf(authServer)]);
    const token = await obtainToken(authServer, {
      scope: 'mcp:tools mcp:call',
      resource: metadata.resource,
    });
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain(weather.name);
    const before = runs.weather;
    const result = await client.callTool({ name: weather.name, arguments: { query: 'Oslo' } });
    expect(result.isError, textOf(result)).toBe(false);
    expect(runs.weather).toBe(before + 1);
    // The call is recorded for the OAuth client, in the team its token names.
    const rows = await api.sql<{ actor: string; key_id: string | null; team_id: string }>(
      'SELECT actor, key_id::text AS key_id, team_id::text AS team_id FROM calls WHERE tool_name = $1',
      [weather.name],
    );
    expect(rows).toEqual([
      { actor: `oauth:${issuerOf(authServer)}#weather-app`, key_id: null, team_id: team.id },
    ]);
  });

  it('refuses a token issued for another resource (RFC 8707 audience)', async () => {
    const token = await obtainToken(authServer, {
      scope: 'mcp:tools',
      resource: 'https://other.example.com/mcp',
    });
    await expectInvalidToken(await postMcp(token, LIST_TOOLS), /not issued for this resource/);
  });

  it('refuses an expired token, beyond the clock skew', async () => {
    authServer.service.once('beforeTokenSigning', (token: MutableToken) => {
      const now = Math.floor(Date.now() / 1000);
      token.payload.iat = now - 3_600;
      token.payload.nbf = now - 3_600;
      token.payload.exp = now - 120;
    });
    const token = await obtainToken(authServer, { scope: 'mcp:tools' });
    await expectInvalidToken(await postMcp(token, LIST_TOOLS), /expired/);
  });

  it('accepts a token that expired within the clock skew', async () => {
    authServer.service.once('beforeTokenSigning', (token: MutableToken) => {
      token.payload.exp = Math.floor(Date.now() / 1000) - 5;
    });
    const token = await obtainToken(authServer, { scope: 'mcp:tools' });
    expect((await postMcp(token, LIST_TOOLS)).status).toBe(200);
  });

  it('refuses a token of an authorization server it does not trust', async () => {
    const token = await obtainToken(otherServer, { scope: 'mcp:tools mcp:call' });
    await expectInvalidToken(await postMcp(token, LIST_TOOLS), /does not trust/);
  });

  it('refuses a token claiming a trusted issuer but signed by another key', async () => {
    const forged = await otherServer.issuer.buildToken({
      scopesOrTransform: (_header, payload) => {
        payload.iss = issuerOf(authServer);
        payload['aud'] = resourceUrl();
        payload['sub'] = 'forger';
        payload[TEAM_CLAIM] = team.id;
      },
    });
    await expectInvalidToken(await postMcp(forged, LIST_TOOLS), /signature/);
  });

  it('refuses a bearer value that is neither an API key nor a JWT', async () => {
    await expectInvalidToken(await postMcp('not-a-token', LIST_TOOLS), /not a JWT/);
  });

  it('answers a missing scope with 403 insufficient_scope naming the OAuth scope to ask for', async () => {
    const weather = await createBuiltinTool(api, team, { handler: 'weather' });
    const token = await obtainToken(authServer, { scope: 'mcp:tools' });
    expect((await postMcp(token, LIST_TOOLS)).status).toBe(200);
    const before = runs.weather;
    const response = await postMcp(token, {
      method: 'tools/call',
      params: { name: weather.name, arguments: { query: 'x' } },
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="toolgate", error="insufficient_scope", scope="mcp:call", resource_metadata="${metadataUrl()}"`,
    );
    expect(await response.json()).toMatchObject({
      code: 'forbidden',
      required_scopes: ['calls:execute'],
    });
    expect(runs.weather).toBe(before);
  });

  it('refuses a token naming a team this server does not have', async () => {
    const token = await obtainToken(authServer, {
      scope: 'mcp:tools',
      teamId: '00000000-0000-4000-8000-000000000000',
    });
    const response = await postMcp(token, LIST_TOOLS);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('forbidden');
  });

  it('keeps taking API keys beside access tokens, challenging a bad one with invalid_token', async () => {
    const client = new Client({ name: 'key-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resourceUrl()), {
        requestInit: { headers: { authorization: `Bearer ${team.key}` } },
      }),
    );
    clients.push(client);
    expect(Array.isArray((await client.listTools()).tools)).toBe(true);
    const bad = await postMcp(
      'tg_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      LIST_TOOLS,
    );
    await expectInvalidToken(bad, /API key is not valid/);
  });

  it('shows Cedar the OAuth client as the caller: a policy on it allows one tool and denies another', async () => {
    const guarded = await createTeam(api);
    const weather = await createBuiltinTool(api, guarded, { handler: 'weather' });
    const stocks = await createBuiltinTool(api, guarded, { handler: 'stocks' });
    const caller = `oauth:${issuerOf(authServer)}#weather-app`;
    const policy = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: guarded.key,
      body: {
        activate: true,
        text: `
@id("weather-app-reads-weather")
permit(principal, action == Action::"execute", resource == Tool::"${weather.name}")
when { principal.key == "${caller}" };
`,
      },
    });
    expect(policy.status, policy.text).toBe(201);
    const token = await obtainToken(authServer, {
      scope: 'mcp:tools tools:weather',
      teamId: guarded.id,
    });
    const client = await connect(token);
    const allowed = await client.callTool({ name: weather.name, arguments: { query: 'Oslo' } });
    expect(allowed.isError, textOf(allowed)).toBe(false);
    const before = runs.stocks;
    const denied = await client.callTool({ name: stocks.name, arguments: { query: 'ACME' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('policy_denied');
    expect(runs.stocks).toBe(before);
  });

  it("shows Cedar the token's OAuth scopes: a policy on one allows a tool only to tokens that carry it", async () => {
    const guarded = await createTeam(api);
    const weather = await createBuiltinTool(api, guarded, { handler: 'weather' });
    const stocks = await createBuiltinTool(api, guarded, { handler: 'stocks' });
    const policy = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: guarded.key,
      body: {
        activate: true,
        text: `
@id("weather-scope-reads-weather")
permit(principal, action == Action::"execute", resource == Tool::"${weather.name}")
when { principal.oauth_scopes.contains("tools:weather") && principal has oauth_client_id };
`,
      },
    });
    expect(policy.status, policy.text).toBe(201);
    const scoped = await connect(
      await obtainToken(authServer, { scope: 'mcp:tools tools:weather', teamId: guarded.id }),
    );
    const allowed = await scoped.callTool({ name: weather.name, arguments: { query: 'Oslo' } });
    expect(allowed.isError, textOf(allowed)).toBe(false);
    const before = runs.stocks;
    const otherTool = await scoped.callTool({ name: stocks.name, arguments: { query: 'ACME' } });
    expect(textOf(otherTool)).toContain('policy_denied');
    expect(runs.stocks).toBe(before);
    // The same tool, for a token that may call but lacks the scope, and for an API key (whose
    // oauth_scopes are empty).
    const unscoped = await connect(
      await obtainToken(authServer, { scope: 'mcp:tools mcp:call', teamId: guarded.id }),
    );
    const refused = await unscoped.callTool({ name: weather.name, arguments: { query: 'Oslo' } });
    expect(textOf(refused)).toContain('policy_denied');
    const byKey = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: guarded.key,
      body: [{ id: 'key-call', name: weather.name, arguments: { query: 'Oslo' } }],
    });
    expect(byKey.status, byKey.text).toBe(200);
    expect(byKey.body.results[0]).toMatchObject({ ok: false, error: { code: 'policy_denied' } });
  });
});

describe('/mcp with OAuth off', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(async () => {
    await plain?.close();
  });

  it('serves no Protected Resource Metadata', async () => {
    for (const url of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await plain.request({ url, key: null });
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body.code).toBe('not_found');
    }
  });

  it('answers a missing key with the plain Bearer challenge', async () => {
    const response = await plain.request({
      method: 'POST',
      url: '/mcp',
      key: null,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="toolgate"');
  });
});
