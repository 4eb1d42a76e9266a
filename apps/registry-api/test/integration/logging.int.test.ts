import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_PATHS } from '../../src/logging/logger';
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
