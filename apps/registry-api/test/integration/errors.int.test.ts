import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { BuiltinExecutor } from '@toolgate/engine';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_ERROR_MESSAGE } from '../../src/problem/problem-document';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const lines: Array<Record<string, unknown>> = [];
let api: TestApp;
let team: TestTeam;
let tool: TestTool;
let port: number;

// What must never reach a client: a stack frame, a source path, SQL, a driver's message.
const INTERNALS =
  /\bat [\w.<>]+ \(|\/[\w.-]+\/[\w./-]+\.(?:ts|js)\b|\.ts:\d+|\b(?:SELECT|INSERT|UPDATE)\b|relation "|does not exist|calls_moved_away|prisma|postgres/i;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  api = await startTestApp(
    {},
    {
      logger: pino({ level: 'info' }, sink),
      builtins: new BuiltinExecutor().registerBuiltin('echo', (args) => args),
    },
  );
  team = await createTeam(api);
  tool = await createBuiltinTool(api, team, { handler: 'echo' });
  // 414 and 431 come from Node's HTTP parser, which inject() bypasses: these need a real socket.
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.getHttpServer().address() as AddressInfo).port;
});
afterAll(async () => {
  await api?.close();
});

function mcpCall(requestId: string, params: Record<string, unknown>) {
  return api.request({
    method: 'POST',
    url: '/mcp',
    key: team.key,
    headers: { 'x-request-id': requestId, accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
  });
}

/** The JSON-RPC message of an MCP answer, sent as JSON or as one SSE `message` event. */
function rpcMessage(text: string): { error?: { code: number; message: string; data?: unknown } } {
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return JSON.parse(data) as { error?: { code: number; message: string; data?: unknown } };
}

function logLinesOf(requestId: string): Array<Record<string, unknown>> {
  return lines.filter((line) => line['reqId'] === requestId);
}

/** Sends raw bytes on a fresh connection and returns everything the server wrote before closing. */
function rawExchange(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(request);
  });
}

function parseRaw(response: string): {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
} {
  const [head = '', body = ''] = response.split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

describe('an unexpected failure (the database fails mid-request)', () => {
  it('answers REST and MCP with the code, a safe message and the request id; the log has the detail', async () => {
    // The calls table vanishes under the running app: recording a call fails in the database.
    await api.sql('ALTER TABLE calls RENAME TO calls_moved_away');
    let rest: Awaited<ReturnType<TestApp['request']>>;
    let mcp: Awaited<ReturnType<TestApp['request']>>;
    try {
      rest = await api.request({
        method: 'POST',
        url: '/v1/calls',
        key: team.key,
        headers: { 'x-request-id': 'db-fails-rest' },
        body: {
          provider: 'mcp',
          payload: {
            jsonrpc: '2.0',
            id: 'c1',
            method: 'tools/call',
            params: { name: tool.name, arguments: { q: 'x' } },
          },
        },
      });
      mcp = await mcpCall('db-fails-mcp', { name: tool.name, arguments: { q: 'x' } });
    } finally {
      await api.sql('ALTER TABLE calls_moved_away RENAME TO calls');
    }

    expect(rest.status, rest.text).toBe(500);
    expect(rest.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(rest.body).toMatchObject({
      code: 'internal',
      detail: INTERNAL_ERROR_MESSAGE,
      request_id: 'db-fails-rest',
    });
    expect(rest.text).not.toMatch(INTERNALS);

    const message = rpcMessage(mcp.text);
    expect(message.error, mcp.text).toEqual({
      code: -32603,
      message: INTERNAL_ERROR_MESSAGE,
      data: { code: 'internal', request_id: 'db-fails-mcp' },
    });
    expect(mcp.text).not.toMatch(INTERNALS);

    for (const requestId of ['db-fails-rest', 'db-fails-mcp']) {
      const logged = logLinesOf(requestId);
      expect(logged, JSON.stringify(logged)).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, code: 'internal' });
      // The detail (the database's own message and the stack) is in the log line, not the answer.
      const err = logged[0]?.['err'] as { message?: string; stack?: string } | undefined;
      expect(err?.message).toMatch(/calls/);
      expect(err?.stack).toEqual(expect.any(String));
    }
  });
});

describe('MCP errors', () => {
  it('send their code once, not again inside the message', async () => {
    const response = await mcpCall('unknown-tool', { name: 'no.such.tool', arguments: {} });
    const { error } = rpcMessage(response.text);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/^Some calls name tools that cannot be called/);
    expect(error?.message).not.toMatch(/MCP error/);
  });

  it('refuse NUL and lone surrogates in arguments with the body guard, as REST does', async () => {
    for (const text of ['"\\ud800"', '"a\\u0000b"']) {
      const response = await api.request({
        method: 'POST',
        url: '/mcp',
        key: team.key,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
        },
        payload: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":{"q":${text}}}}`,
      });
      expect(response.status, response.text).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.errors[0].path).toBe('/body/params/arguments/q');
      expect(response.text).not.toMatch(INTERNALS);
    }
  });
});

describe("the web framework's own refusals are problem documents", () => {
  it('405 with Allow for a wrong method on a known path', async () => {
    const response = await api.request({ method: 'DELETE', url: '/v1/tools', key: team.key });
    expect(response.status, response.text).toBe(405);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['allow']).toBe('GET, HEAD, POST');
    expect(response.body).toMatchObject({
      code: 'method_not_allowed',
      request_id: expect.any(String),
    });
    const parameterised = await api.request({ method: 'PATCH', url: `/v1/tools/${tool.id}` });
    expect(parameterised.status).toBe(405);
    expect(parameterised.headers['allow']).toBe('GET, HEAD');
    // An unknown path stays a 404.
    expect((await api.request({ method: 'DELETE', url: '/v1/no-such-thing' })).status).toBe(404);
  });

  it('414 for a request target past the limit, on a real socket', async () => {
    for (const length of [10_000, 40_000]) {
      const response = parseRaw(
        await rawExchange(
          `GET /v1/tools?q=${'a'.repeat(length)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(response.status, `target of ${length}`).toBe(414);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ code: 'uri_too_long', status: 414 });
      expect(response.body['request_id']).toBe(response.headers['x-request-id']);
    }
  });

  it('431 for headers past the limit, on a real socket', async () => {
    const response = parseRaw(
      await rawExchange(
        `GET /v1/tools HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(response.status).toBe(431);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: 'headers_too_large', status: 431 });
    expect(response.body['request_id']).toEqual(expect.any(String));
  });
});
