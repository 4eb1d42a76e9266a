import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, REDACTED_PATHS } from '../../src/logging/logger';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

const lines: string[] = [];
let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino(
    { level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    sink,
  );
  api = await startTestApp({}, { logger });
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

describe('structured logs', () => {
  it('log every request with its request id and never a credential', async () => {
    const response = await api.request({
      url: '/v1/tools',
      key: team.key,
      headers: { 'x-request-id': 'trace-abc-123' },
    });
    expect(response.headers['x-request-id']).toBe('trace-abc-123');
    await api.request({ url: '/v1/tools', key: `${team.key}x` });
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((entry) => entry['reqId'] === 'trace-abc-123')).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(team.key.slice('tg_'.length + 32 + 1));
    expect(all).not.toContain(ADMIN_KEY);
  });

  it('replaces an unsafe request id with a generated one', async () => {
    const response = await api.request({
      url: '/healthz',
      key: null,
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** The parsed log lines written for one request id. */
function linesOf(sink: string[], requestId: string): Array<Record<string, unknown>> {
  return sink
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry['reqId'] === requestId);
}

function sinkInto(target: string[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      target.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
}

describe('one log line per request', () => {
  it('writes exactly one line for an answered, a refused and an MCP request', async () => {
    const cases: Array<{ id: string; status: number; send: () => Promise<{ status: number }> }> = [
      {
        id: 'one-line-200',
        status: 200,
        send: () =>
          api.request({
            url: '/v1/tools',
            key: team.key,
            headers: { 'x-request-id': 'one-line-200' },
          }),
      },
      {
        id: 'one-line-401',
        status: 401,
        send: () =>
          api.request({
            url: '/v1/tools',
            key: 'tg_wrong',
            headers: { 'x-request-id': 'one-line-401' },
          }),
      },
      {
        id: 'one-line-mcp',
        status: 200,
        // Hijacked by the MCP transport: Fastify's own logging never saw these finish.
        send: () =>
          api.request({
            method: 'POST',
            url: '/mcp',
            key: team.key,
            headers: {
              'x-request-id': 'one-line-mcp',
              accept: 'application/json, text/event-stream',
            },
            body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          }),
      },
    ];
    for (const { id, status, send } of cases) {
      expect((await send()).status).toBe(status);
      const entries = linesOf(lines, id);
      expect(entries, JSON.stringify(entries)).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        res: { statusCode: status },
        req: { method: expect.any(String), url: expect.any(String) },
        responseTime: expect.any(Number),
      });
    }
    expect(linesOf(lines, 'one-line-401')[0]).toMatchObject({ code: 'unauthenticated' });
  });

  it('writes no line for a 200 with LOG_LEVEL=warn', async () => {
    const quiet: string[] = [];
    const warnApi = await startTestApp(
      {},
      { logger: createLogger({ LOG_LEVEL: 'warn' }, sinkInto(quiet)) },
    );
    try {
      const response = await warnApi.request({
        url: '/healthz',
        key: null,
        headers: { 'x-request-id': 'quiet-200' },
      });
      expect(response.status).toBe(200);
      const listed = await warnApi.request({
        url: '/v1/tools',
        headers: { 'x-request-id': 'quiet-list' },
      });
      expect(listed.status).toBe(200);
      expect(linesOf(quiet, 'quiet-200')).toEqual([]);
      expect(linesOf(quiet, 'quiet-list')).toEqual([]);
      expect(quiet.filter((line) => line.includes('request completed'))).toEqual([]);
    } finally {
      await warnApi.close();
    }
  });
});
