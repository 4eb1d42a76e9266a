import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogSignalRepository } from '../../src/catalog-events/catalog-signal.repository';
import { createBuiltinTool } from '../factories/gateway.factory';
import {
  createKey,
  createTeam,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { onPglite, startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let wipes = 0;
const clients: Client[] = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('search', (args) => ({ hits: [String(args['query'])] }))
    .registerBuiltin('wipe', () => {
      wipes += 1;
      return { wiped: true };
    });
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await api?.close();
});

interface Session {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Resolves at the next `notifications/tools/list_changed` after the call. */
  nextListChanged(timeoutMs?: number): Promise<boolean>;
  listChangedCount(): number;
}

async function openSession(key: string): Promise<Session> {
  const client = new Client({ name: 'toolgate-session-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  let count = 0;
  let waiters: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count += 1;
    const ready = waiters;
    waiters = [];
    for (const wake of ready) wake();
  });
  await client.connect(transport);
  clients.push(client);
  await waitForGetStream(transport, key);
  return {
    client,
    transport,
    listChangedCount: () => count,
    nextListChanged: (timeoutMs = 5_000) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      }),
  };
}

// The SDK client opens its GET stream in the background after initialize; notifications sent
// before the stream is up are not delivered, so each test waits until this session holds one.
async function waitForGetStream(
  transport: StreamableHTTPClientTransport,
  key: string,
): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const probe = await fetch(new URL('/mcp', baseUrl), {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': transport.sessionId ?? '',
        'mcp-protocol-version': transport.protocolVersion ?? '',
        authorization: `Bearer ${key}`,
      },
    });
    await probe.body?.cancel();
    // 409: the session already has its GET stream (Streamable HTTP allows one).
    if (probe.status === 409) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the client never opened its GET stream');
}

async function descriptionOf(client: Client, name: string): Promise<string | undefined> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools.find((tool) => tool.name === name)?.description;
}

async function publishDescribed(owner: TestTeam, tool: TestTool, version: string): Promise<void> {
  await publish(
    api,
    owner,
    tool,
    version,
    tool.ir.with({ description: `${tool.name} at ${version}` }),
  );
}

async function releaseCall(
  owner: TestTeam,
  tool: TestTool,
  action: 'canary' | 'promote' | 'rollback',
  body?: unknown,
): Promise<void> {
  const response = await api.request({
    method: action === 'canary' ? 'PUT' : 'POST',
    url: `/v1/tools/${tool.id}/release/${action}`,
    key: owner.key,
    ...(body === undefined ? {} : { body }),
  });
  expect(response.status, response.text).toBe(200);
}

describe('MCP sessions and notifications/tools/list_changed (in-process events + Postgres LISTEN/NOTIFY)', () => {
  it('opens a session on initialize and declares tools.listChanged', async () => {
    const { client, transport } = await openSession(team.key);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it('notifies a session of every release change and a new tools/list shows it', async () => {
    const tool = await createBuiltinTool(api, team, { handler: 'search' });
    const session = await openSession(team.key);
    const { client } = session;
    expect(await descriptionOf(client, tool.name)).toBe(`The ${tool.name} tool.`);

    // Publishing a version changes what the catalog could serve.
    let notified = session.nextListChanged();
    await publishDescribed(team, tool, '1.1.0');
    expect(await notified).toBe(true);

    notified = session.nextListChanged();
    await setStable(api, team, tool, '1.1.0');
    expect(await notified).toBe(true);
    expect(await descriptionOf(client, tool.name)).toBe(`${tool.name} at 1.1.0`);

    await publishDescribed(team, tool, '1.2.0');
    await session.nextListChanged();
    notified = session.nextListChanged();
    await releaseCall(team, tool, 'canary', { version: '1.2.0', percent: 100 });
    expect(await notified).toBe(true);
    expect(await descriptionOf(client, tool.name)).toBe(`${tool.name} at 1.2.0`);

    notified = session.nextListChanged();
    await releaseCall(team, tool, 'rollback');
    expect(await notified).toBe(true);
    expect(await descriptionOf(client, tool.name)).toBe(`${tool.name} at 1.1.0`);

    await releaseCall(team, tool, 'canary', { version: '1.2.0', percent: 10 });
    await session.nextListChanged();
    notified = session.nextListChanged();
    await releaseCall(team, tool, 'promote');
    expect(await notified).toBe(true);
    expect(await descriptionOf(client, tool.name)).toBe(`${tool.name} at 1.2.0`);

    notified = session.nextListChanged();
    const deprecated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.1.0/deprecate`,
      key: team.key,
      body: { sunset_at: new Date(Date.now() + 86_400_000).toISOString(), successor: '1.2.0' },
    });
    expect(deprecated.status, deprecated.text).toBe(200);
    expect(await notified).toBe(true);

    notified = session.nextListChanged();
    const added = await createBuiltinTool(api, team, { handler: 'search' });
    expect(await notified).toBe(true);
    expect(await descriptionOf(client, added.name)).toBe(`The ${added.name} tool.`);
  });

  it("does not tell a session about another team's private tool, but does about a public one", async () => {
    const watcher = await createTeam(api);
    const other = await createTeam(api);
    const session = await openSession(watcher.key);
    await createBuiltinTool(api, other, { handler: 'search', visibility: 'private' });
    // Longer than the poll interval, so a change found by polling would have arrived too.
    expect(await session.nextListChanged(2_500)).toBe(false);
    const notified = session.nextListChanged();
    const shared = await createBuiltinTool(api, other, { handler: 'search', visibility: 'public' });
    expect(await notified).toBe(true);
    expect(await descriptionOf(session.client, shared.name)).toBe(`The ${shared.name} tool.`);
  });

  // Replicas exist only on Postgres; the embedded default is one process and uses in-process events.
  it.skipIf(onPglite)(
    'delivers a NOTIFY from another connection to every listener (the cross-replica path)',
    async () => {
      const signals = api.app.get(CatalogSignalRepository);
      let heard = 0;
      const stop = await signals.listen(() => {
        heard += 1;
      });
      try {
        await signals.signal();
        const deadline = Date.now() + 5_000;
        while (heard === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(heard).toBe(1);
      } finally {
        await stop();
      }
    },
  );

  it('ends a session on DELETE; its id then answers 404', async () => {
    const { transport } = await openSession(team.key);
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    const response = await fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${team.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it("answers another key's session id with 404, as if it did not exist", async () => {
    const { transport } = await openSession(team.key);
    const stranger = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(new URL('/mcp', baseUrl), {
        method,
        headers: {
          authorization: `Bearer ${stranger}`,
          accept: 'text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': '2025-11-25',
        },
      });
      expect(response.status).toBe(404);
    }
  });

  it('keeps stateless POST working for clients that skip initialize', async () => {
    const tool = await createBuiltinTool(api, team, { handler: 'search' });
    const response = await fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${team.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.text()).toContain(tool.name);
  });
});

describe('tools/call awaiting approval on protocol 2025-11-25 (SDK 1.32.2 has no 2026-07-28, so no input_required)', () => {
  async function pendingApproval(toolId: string): Promise<string> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const approval = await api.database.prisma.approval.findFirst({ where: { toolId } });
      if (approval !== null) return approval.id;
      if (Date.now() > deadline) throw new Error('no approval was requested');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('waits for the decision when _meta asks to, and returns the real result once approved', async () => {
    const wipe = await createBuiltinTool(api, team, {
      handler: 'wipe',
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    const { client } = await openSession(team.key);
    const before = wipes;
    const pending = client.callTool({
      name: wipe.name,
      arguments: { query: 'all' },
      _meta: { 'toolgate/approval_wait_ms': 10_000 },
    });
    const approvalId = await pendingApproval(wipe.id);
    // Four eyes: another key than the one that made the call decides it.
    const approver = await createKey(api, { teamId: team.id, scopes: ['approvals:decide'] });
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      key: approver,
      body: { decision: 'approve', reason: 'cleanup ticket' },
    });
    expect(decided.status, decided.text).toBe(200);
    const result = await pending;
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ wiped: true });
    expect(wipes).toBe(before + 1);
  });

  it('answers with an isError result naming the approval when the wait runs out', async () => {
    const wipe = await createBuiltinTool(api, team, {
      handler: 'wipe',
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    const { client } = await openSession(team.key);
    const started = Date.now();
    const result = await client.callTool({
      name: wipe.name,
      arguments: { query: 'all' },
      _meta: { 'toolgate/approval_wait_ms': 600 },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(result.isError).toBe(true);
    const approvalId = await pendingApproval(wipe.id);
    expect(result._meta).toMatchObject({ 'toolgate/approval_id': approvalId });
    const content = result.content as Array<{ text?: string }>;
    expect(content[0]?.text).toContain(`awaits approval ${approvalId}`);
  });

  it('refuses an approval wait that is not a whole number of ms in range', async () => {
    const tool = await createBuiltinTool(api, team, { handler: 'search' });
    const { client } = await openSession(team.key);
    await expect(
      client.callTool({
        name: tool.name,
        arguments: { query: 'x' },
        _meta: { 'toolgate/approval_wait_ms': -1 },
      }),
    ).rejects.toThrow(/approval_wait_ms/);
  });
});
