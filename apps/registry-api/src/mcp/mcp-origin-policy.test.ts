import { describe, expect, it } from 'vitest';
import { mcpOriginPolicyOf, refusedMcpHeader } from './mcp-origin-policy';

const defaults = mcpOriginPolicyOf({
  listenHost: '10.0.0.5',
  publicUrl: 'https://toolgate.example.com',
  allowedHosts: [],
  allowedOrigins: [],
});
const configured = mcpOriginPolicyOf({
  listenHost: '0.0.0.0',
  publicUrl: undefined,
  allowedHosts: ['gw.internal', 'api.internal:8443'],
  allowedOrigins: ['https://agent.example.org'],
});

describe('the /mcp origin policy', () => {
  it.each([
    [{ host: 'localhost:4000' }],
    [{ host: '127.0.0.1' }],
    [{ host: '[::1]:9' }],
    [{ host: '10.0.0.5:4000' }],
    [{ host: 'Toolgate.Example.com' }],
    [{ host: 'toolgate.example.com', origin: 'https://toolgate.example.com' }],
    [{ host: 'localhost:4000', origin: 'http://127.0.0.1:5173' }],
  ])('answers %j by default', (headers) => {
    expect(refusedMcpHeader(defaults, { origin: undefined, ...headers })).toBeUndefined();
  });

  it.each<[{ host?: string; origin?: string }, 'host' | 'origin']>([
    [{}, 'host'],
    [{ host: 'evil.example' }, 'host'],
    [{ host: 'localhost.evil.example' }, 'host'],
    [{ host: 'localhost/x' }, 'host'],
    [{ host: 'localhost', origin: 'https://evil.example' }, 'origin'],
    [{ host: 'localhost', origin: 'null' }, 'origin'],
    [{ host: 'localhost', origin: 'file://localhost' }, 'origin'],
  ])('refuses %j for its %s', (headers, refused) => {
    expect(refusedMcpHeader(defaults, { host: undefined, origin: undefined, ...headers })).toBe(
      refused,
    );
  });

  it('adds listed hosts (any port, or the one given) and origins; a wildcard listen host adds none', () => {
    const check = (host: string, origin?: string) => refusedMcpHeader(configured, { host, origin });
    expect(check('gw.internal:1234')).toBeUndefined();
    expect(check('api.internal:8443')).toBeUndefined();
    expect(check('api.internal:8444')).toBe('host');
    expect(check('0.0.0.0:4000')).toBe('host');
    expect(check('localhost', 'https://agent.example.org')).toBeUndefined();
    expect(check('localhost', 'https://agent.example.org:444')).toBe('origin');
  });
});
