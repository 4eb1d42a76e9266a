import type { AddressInfo } from 'node:net';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, publish, type TestTeam } from '../factories/registry.factory';
import { MCP_PROTOCOL, mcpSchemaChecker } from '../support/mcp-schema';
import { startTestApp, type TestApp } from '../support/test-app';

const PROTOCOL = MCP_PROTOCOL;
const conformsTo = mcpSchemaChecker(PROTOCOL);
const conformsToNext = mcpSchemaChecker('2026-07-28');

let api: TestApp;
let mcpUrl: URL;
let team: TestTeam;

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('search', (args) => ({ hits: [String(args['query'])] }))
    .registerBuiltin('stepwise', async (_args, { reportProgress }) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reportProgress({ progress: 1, total: 2, message: 'half way' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      reportProgress({ progress: 2, total: 2, message: 'done' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { done: true };
    });
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.getHttpServer().address() as AddressInfo;
  mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

interface WireMessage {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}

/** The JSON-RPC messages of an SSE body (`data:` lines; empty priming events skipped). */
function messagesOf(sse: string): WireMessage[] {
  return sse.split(/\r?\n\r?\n/).flatMap((event) => {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    return data === '' ? [] : [JSON.parse(data) as WireMessage];
  });
}

async function post(
  message: Record<string, unknown>,
  sessionId?: string,
): Promise<{ status: number; sessionId: string | null; messages: WireMessage[] }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${team.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await response.text();
  return {
    status: response.status,
    sessionId: response.headers.get('mcp-session-id'),
    messages: text === '' ? [] : messagesOf(text),
  };
}

async function initialize(protocolVersion = PROTOCOL) {
  const opened = await post({
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'toolgate-wire-test', version: '1.0.0' },
    },
  });
  expect(opened.status).toBe(200);
  const sessionId = opened.sessionId ?? '';
  expect((await post({ method: 'notifications/initialized' }, sessionId)).status).toBe(202);
  return { sessionId, response: opened.messages[0] };
}

/** Reads a GET stream until a message matches, or fails after the timeout. */
async function nextOnStream(
  body: ReadableStream<Uint8Array>,
  matches: (message: WireMessage) => boolean,
): Promise<WireMessage> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const deadline = Date.now() + 5_000;
  try {
    while (Date.now() < deadline) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffered += chunk.value;
      const found = messagesOf(buffered).find(matches);
      if (found !== undefined) return found;
    }
  } finally {
    await reader.cancel();
  }
  throw new Error('the stream ended without the message');
}

describe(`the MCP wire against the ${PROTOCOL} JSON schema`, () => {
  it('answers initialize with a conforming InitializeResult on 2025-11-25', async () => {
    const { response } = await initialize();
    expect(conformsTo('JSONRPCResultResponse', response)).toEqual([]);
    expect(conformsTo('InitializeResult', response?.result)).toEqual([]);
    expect(response?.result).toMatchObject({
      protocolVersion: PROTOCOL,
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'toolgate' },
    });
  });

  it('sends conforming tools/list and tools/call results, progress and isError results', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const stepwise = await createBuiltinTool(api, team, { handler: 'stepwise' });
    const { sessionId } = await initialize();

    const [listed] = (await post({ id: 1, method: 'tools/list' }, sessionId)).messages;
    expect(conformsTo('JSONRPCResultResponse', listed)).toEqual([]);
    expect(conformsTo('ListToolsResult', listed?.result)).toEqual([]);
    expect(JSON.stringify(listed?.result)).toContain(search.name);

    const called = await post(
      {
        id: 2,
        method: 'tools/call',
        params: { name: stepwise.name, arguments: { query: 'go' }, _meta: { progressToken: 'p1' } },
      },
      sessionId,
    );
    const progress = called.messages.filter(
      (message) => message.method === 'notifications/progress',
    );
    expect(progress).toHaveLength(2);
    for (const notification of progress) {
      expect(conformsTo('ProgressNotification', notification)).toEqual([]);
    }
    const result = called.messages.find((message) => message.id === 2);
    expect(conformsTo('CallToolResult', result?.result)).toEqual([]);
    expect(result?.result).toMatchObject({ isError: false, structuredContent: { done: true } });

    const [invalid] = (
      await post(
        { id: 3, method: 'tools/call', params: { name: search.name, arguments: { query: '' } } },
        sessionId,
      )
    ).messages;
    expect(conformsTo('CallToolResult', invalid?.result)).toEqual([]);
    expect(invalid?.result).toMatchObject({ isError: true });
  });

  it('sends a conforming notifications/tools/list_changed on the GET stream', async () => {
    const tool = await createBuiltinTool(api, team, { handler: 'search' });
    const { sessionId } = await initialize();
    const stream = await fetch(mcpUrl, {
      method: 'GET',
      headers: {
        authorization: `Bearer ${team.key}`,
        accept: 'text/event-stream',
        'mcp-protocol-version': PROTOCOL,
        'mcp-session-id': sessionId,
      },
    });
    expect(stream.status).toBe(200);
    const arrived = nextOnStream(
      stream.body ?? new ReadableStream(),
      (message) => message.method === 'notifications/tools/list_changed',
    );
    await publish(api, team, tool, '1.1.0');
    const notification = await arrived;
    expect(conformsTo('ToolListChangedNotification', notification)).toEqual([]);
    expect(conformsTo('JSONRPCNotification', notification)).toEqual([]);
  });
});

describe('protocol 2026-07-28 (not in SDK 1.32.2)', () => {
  it('is not a revision the SDK supports, so the server negotiates 2025-11-25 instead', async () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).not.toContain('2026-07-28');
    const { response } = await initialize('2026-07-28');
    expect(response?.result).toMatchObject({ protocolVersion: PROTOCOL });
  });

  it('results lack the resultType that 2026-07-28 requires: the 2025-11-25 schema is the one that applies', async () => {
    const { sessionId } = await initialize();
    const [listed] = (await post({ id: 1, method: 'tools/list' }, sessionId)).messages;
    expect(conformsTo('ListToolsResult', listed?.result)).toEqual([]);
    expect(conformsToNext('ListToolsResult', listed?.result).join('\n')).toContain('resultType');
  });
});
