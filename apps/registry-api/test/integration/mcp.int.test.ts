import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import {
  cloneReleasedTool,
  createKey,
  createTeam,
  uniqueName,
  type TestTeam,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const PAGE_SIZE = 50;

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
const runs = { search: 0, wipe: 0, slow: 0 };
const clients: Client[] = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('search', (args) => {
      runs.search += 1;
      return { hits: [`result for ${String(args['query'])}`] };
    })
    .registerBuiltin('wipe', () => {
      runs.wipe += 1;
      return { wiped: true };
    })
    .registerBuiltin('slow', async (_args, { signal }) => {
      runs.slow += 1;
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 5_000);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
      return { finished: true };
    })
    .registerBuiltin('stepwise', async (_args, { reportProgress }) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reportProgress({ progress: 1, total: 2, message: 'half way' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      reportProgress({ progress: 2, total: 2, message: 'done' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { done: true };
    });
  api = await startTestApp({}, { builtins });
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
});

async function connect(key: string | null, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: {
      headers: key === null ? headers : { ...headers, authorization: `Bearer ${key}` },
    },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function listAll(client: Client): Promise<{ tools: Tool[]; pages: number }> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { tools, pages };
}

function textOf(result: Record<string, unknown>): string {
  const content = (result['content'] ?? []) as Array<{ type: string; text?: string }>;
  return content.map((block) => block.text ?? '').join('\n');
}

describe('the MCP endpoint', () => {
  it('connects with the newest protocol version and lists the published tools with annotations', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const wipe = await createBuiltinTool(api, team, {
      handler: 'wipe',
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    const client = await connect(team.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'toolgate' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport;
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);

    const { tools } = await listAll(client);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get(search.name)).toMatchObject({
      name: search.name,
      inputSchema: { type: 'object', required: ['query'] },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    });
    expect(byName.get(wipe.name)?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
  });

  it('pages tools/list with an opaque cursor when the catalog exceeds a page', async () => {
    const big = await createTeam(api);
    const names: string[] = [];
    for (let batch = 0; batch < 6; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 10 }, () =>
          createBuiltinTool(api, big, { handler: 'search', name: uniqueName('paged') }),
        ),
      );
      names.push(...created.map((tool) => tool.name));
    }
    const client = await connect(big.key);
    const first = await client.listTools();
    expect(first.tools).toHaveLength(PAGE_SIZE);
    expect(first.nextCursor).toEqual(expect.any(String));
    const { tools, pages } = await listAll(client);
    expect(pages).toBe(2);
    const listed = tools.map((tool) => tool.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining(names));
    // Another team's private tools stay out of this catalog.
    expect(listed.some((name) => name.startsWith('tool-'))).toBe(false);

    await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it('pages through every tool of a catalog larger than an export page, and calls the last one', async () => {
    const huge = await createTeam(api);
    const template = await createBuiltinTool(api, huge, { handler: 'search' });
    const prefix = uniqueName('bulk');
    await cloneReleasedTool(
      api,
      { team: huge, toolId: template.id, version: '1.0.0' },
      { count: 540, prefix },
    );
    const client = await connect(huge.key);
    const { tools, pages } = await listAll(client);
    const listed = tools.map((tool) => tool.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(
      expect.arrayContaining([template.name, `${prefix}-0001`, `${prefix}-0540`]),
    );
    expect(listed.filter((name) => name.startsWith(prefix))).toHaveLength(540);
    expect(pages).toBeGreaterThanOrEqual(11);
    const before = runs.search;
    const result = await client.callTool({ name: `${prefix}-0540`, arguments: { query: 'last' } });
    expect(result.isError).toBe(false);
    expect(runs.search).toBe(before + 1);
  });

  it('calls a builtin tool through the gateway and returns structuredContent and text', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const client = await connect(team.key);
    const before = runs.search;
    const result = await client.callTool({ name: search.name, arguments: { query: 'oslo' } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ hits: ['result for oslo'] });
    expect(textOf(result)).toContain('result for oslo');
    expect(runs.search).toBe(before + 1);
    const calls = await api.database.prisma.call.findMany({
      where: { teamId: team.id, toolName: search.name },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ provider: 'mcp', status: 'succeeded', toolVersion: '1.0.0' });

    // Without an idempotency key the same JSON-RPC id from another client is another call.
    const again = await (
      await connect(team.key)
    ).callTool({ name: search.name, arguments: { query: 'oslo' } });
    expect(again.isError).toBe(false);
    expect(runs.search).toBe(before + 2);
  });

  it('runs a call once per _meta idempotency key', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const client = await connect(team.key);
    const before = runs.search;
    const params = {
      name: search.name,
      arguments: { query: 'once' },
      _meta: { 'toolgate/idempotency_key': uniqueName('turn') },
    };
    const first = await client.callTool(params);
    const second = await client.callTool(params);
    expect(second).toEqual(first);
    expect(runs.search).toBe(before + 1);
  });

  it('answers invalid arguments with an isError result the model can fix', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const client = await connect(team.key);
    const result = await client.callTool({ name: search.name, arguments: { query: '' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('invalid_arguments');
  });

  it('answers an unknown tool with a JSON-RPC invalid params error', async () => {
    const client = await connect(team.key);
    const error: unknown = await client
      .callTool({ name: uniqueName('missing'), arguments: {} })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('returns a Cedar policy denial as an isError result with the reason', async () => {
    const guarded = await createTeam(api);
    const refund = await createBuiltinTool(api, guarded, { handler: 'search' });
    const policy = await api.request({
      method: 'POST',
      url: '/v1/policies',
      key: guarded.key,
      body: {
        activate: true,
        text: `
@id("permit-all")
permit(principal, action == Action::"execute", resource);

@id("no-vip-refunds")
@reason("VIP refunds go through the finance desk.")
forbid(principal, action, resource == Tool::"${refund.name}")
when { context.arguments has query && context.arguments.query == "vip" };
`,
      },
    });
    expect(policy.status, policy.text).toBe(201);
    const client = await connect(guarded.key);
    const before = runs.search;
    const denied = await client.callTool({ name: refund.name, arguments: { query: 'vip' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('policy_denied');
    expect(textOf(denied)).toContain('VIP refunds go through the finance desk.');
    expect(runs.search).toBe(before);
    const allowed = await client.callTool({ name: refund.name, arguments: { query: 'plain' } });
    expect(allowed.isError).toBe(false);
  });

  it('answers a call awaiting approval with an isError result naming the approval', async () => {
    const wipe = await createBuiltinTool(api, team, {
      handler: 'wipe',
      behavior: { readonly: false, destructive: true, idempotent: false },
    });
    const client = await connect(team.key);
    const before = runs.wipe;
    const result = await client.callTool({ name: wipe.name, arguments: { query: 'all' } });
    expect(result.isError).toBe(true);
    const approval = await api.database.prisma.approval.findFirstOrThrow({
      where: { teamId: team.id, toolId: wipe.id },
    });
    expect(textOf(result)).toContain('awaits approval');
    expect(textOf(result)).toContain(approval.id);
    expect(result._meta).toEqual({
      'toolgate/call_id': approval.callId,
      'toolgate/approval_id': approval.id,
    });
    expect(runs.wipe).toBe(before);
  });

  it('forwards engine progress as notifications/progress', async () => {
    const stepwise = await createBuiltinTool(api, team, { handler: 'stepwise' });
    const client = await connect(team.key);
    const updates: Progress[] = [];
    const result = await client.callTool(
      { name: stepwise.name, arguments: { query: 'go' } },
      undefined,
      { onprogress: (progress) => updates.push(progress) },
    );
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ done: true });
    expect(updates).toEqual([
      { progress: 1, total: 2, message: 'half way' },
      { progress: 2, total: 2, message: 'done' },
    ]);
  });

  it('cancels the running call when the client cancels its request', async () => {
    const slow = await createBuiltinTool(api, team, { handler: 'slow' });
    const conversation = uniqueName('conversation');
    const client = await connect(team.key, { 'x-toolgate-conversation-id': conversation });
    const before = runs.slow;
    const controller = new AbortController();
    const pending = client.callTool({ name: slow.name, arguments: { query: 'long' } }, undefined, {
      signal: controller.signal,
    });
    const deadline = Date.now() + 5_000;
    while (runs.slow === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    controller.abort('no longer needed');
    await expect(pending).rejects.toThrow();
    let status = '';
    while (Date.now() < deadline) {
      const row = await api.database.prisma.call.findFirstOrThrow({
        where: { teamId: team.id, toolName: slow.name },
      });
      status = row.status;
      if (status === 'cancelled') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe('cancelled');
  });

  it('refuses a missing or invalid key with 401 and a Bearer challenge', async () => {
    await expect(connect(null)).rejects.toThrow(/401|unauthori[sz]ed/i);
    await expect(connect('tg_not_a_key')).rejects.toThrow(/401|unauthori[sz]ed/i);
    const response = await fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('refuses a method the key has no scope for with 403 insufficient_scope', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const reader = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    const client = await connect(reader);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const before = runs.search;
    await expect(client.callTool({ name: search.name, arguments: { query: 'x' } })).rejects.toThrow(
      /403/,
    );
    expect(runs.search).toBe(before);
    const response = await fetch(new URL('/mcp', baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${reader}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: search.name, arguments: { query: 'x' } },
      }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('answers GET and DELETE without a session id with 405 (only sessions have a stream or an end)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(new URL('/mcp', baseUrl), {
        method,
        headers: { authorization: `Bearer ${team.key}`, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });
});
