import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app';

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const ACCEPT = 'application/json, text/event-stream';

let api: TestApp;
let configured: TestApp;

beforeAll(async () => {
  api = await startTestApp();
  configured = await startTestApp({
    TOOLGATE_MCP_ALLOWED_HOSTS: 'toolgate.example.com,gateway.internal:8443',
    TOOLGATE_MCP_ALLOWED_ORIGINS: 'https://agent.example.org',
  });
});
afterAll(async () => {
  await api?.close();
  await configured?.close();
});

function postMcp(app: TestApp, headers: Record<string, string>) {
  return app.request({
    method: 'POST',
    url: '/mcp',
    headers: { accept: ACCEPT, ...headers },
    body: LIST_TOOLS,
  });
}

describe('DNS-rebinding protection on /mcp', () => {
  it.each([
    ['localhost', { host: 'localhost:4000' }],
    ['127.0.0.1 on any port', { host: '127.0.0.1:61234' }],
    ['[::1]', { host: '[::1]:4000' }],
    ['a loopback Origin', { host: '127.0.0.1:4000', origin: 'http://localhost:3000' }],
  ])('answers %s', async (_label, headers) => {
    const response = await postMcp(api, headers);
    expect(response.status, response.text).toBe(200);
  });

  it.each([
    ['a rebinding page: its own Host', { host: 'evil.example:4000' }],
    ['a foreign Origin', { host: '127.0.0.1:4000', origin: 'https://evil.example' }],
    ['an opaque Origin', { host: '127.0.0.1:4000', origin: 'null' }],
  ])('refuses %s with 403 before reading credentials or messages', async (_label, headers) => {
    // No key at all: the refusal comes before authentication, so it is a 403, not a 401.
    const response = await api.request({
      method: 'POST',
      url: '/mcp',
      key: null,
      headers: { accept: ACCEPT, ...headers },
      body: LIST_TOOLS,
    });
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body).toMatchObject({ code: 'forbidden', status: 403 });
    expect(response.text).not.toContain('jsonrpc');
  });

  it('guards the session stream and its end as well', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await api.request({
        method,
        url: '/mcp',
        headers: { accept: ACCEPT, host: 'evil.example' },
      });
      expect(response.status, method).toBe(403);
    }
  });

  it('answers the hosts and origins the operator lists, beside loopback', async () => {
    const answered: Array<Record<string, string>> = [
      { host: 'toolgate.example.com' },
      { host: 'toolgate.example.com:4000', origin: 'https://toolgate.example.com' },
      { host: 'gateway.internal:8443' },
      { host: 'localhost:4000', origin: 'https://agent.example.org' },
    ];
    for (const headers of answered) {
      const response = await postMcp(configured, headers);
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
    const refused: Array<Record<string, string>> = [
      { host: 'gateway.internal:9000' },
      { host: 'localhost:4000', origin: 'https://agent.example.org:8443' },
    ];
    for (const headers of refused) {
      const response = await postMcp(configured, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
  });

  it('leaves the REST API alone', async () => {
    const response = await api.request({ url: '/v1/tools', headers: { host: 'evil.example' } });
    expect(response.status).toBe(200);
  });
});
