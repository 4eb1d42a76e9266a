import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/app-config';

const TEAM = '7f3c0f5e-4a4b-4c57-9b1e-2f1f0c6d8a11';
const MAP = JSON.stringify({ team: TEAM, scopes: { 'mcp:tools': ['tools:read'] } });

describe('OAuth settings', () => {
  it('are off by default', () => {
    const config = loadConfig({});
    expect(config.TOOLGATE_OAUTH_ISSUER).toEqual([]);
    expect(config.TOOLGATE_OAUTH_SCOPE_MAP).toBeUndefined();
    expect(config.TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS).toBe(60);
  });

  it('read issuers comma-separated, and the scope map as JSON', () => {
    const config = loadConfig({
      TOOLGATE_OAUTH_ISSUER: 'https://auth.example.com, http://127.0.0.1:9000/realms/a',
      TOOLGATE_OAUTH_SCOPE_MAP: MAP,
      TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS: '5',
    });
    expect(config.TOOLGATE_OAUTH_ISSUER).toEqual([
      'https://auth.example.com',
      'http://127.0.0.1:9000/realms/a',
    ]);
    expect(config.TOOLGATE_OAUTH_SCOPE_MAP).toEqual({
      team: TEAM,
      scopes: { 'mcp:tools': ['tools:read'] },
    });
    expect(config.TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS).toBe(5);
  });

  it.each([
    [{ TOOLGATE_OAUTH_ISSUER: 'http://auth.example.com', TOOLGATE_OAUTH_SCOPE_MAP: MAP }, /https/],
    [
      { TOOLGATE_OAUTH_ISSUER: 'https://auth.example.com?x=1', TOOLGATE_OAUTH_SCOPE_MAP: MAP },
      /query/,
    ],
    [
      { TOOLGATE_OAUTH_ISSUER: 'https://auth.example.com' },
      /TOOLGATE_OAUTH_SCOPE_MAP: is required/,
    ],
    [{ TOOLGATE_OAUTH_SCOPE_MAP: '{not json' }, /must be JSON/],
    [{ TOOLGATE_OAUTH_SCOPE_MAP: JSON.stringify({ scopes: {} }) }, /team or team_claim/],
    [
      { TOOLGATE_OAUTH_SCOPE_MAP: JSON.stringify({ team: TEAM, scopes: { x: ['admin'] } }) },
      /tools:read, calls:execute/,
    ],
    [
      { TOOLGATE_OAUTH_SCOPE_MAP: JSON.stringify({ team: TEAM, scopes: {}, teams: {} }) },
      /TOOLGATE_OAUTH_SCOPE_MAP/,
    ],
    [
      {
        TOOLGATE_OAUTH_ISSUER: 'https://a.example.com,https://b.example.com',
        TOOLGATE_OAUTH_SCOPE_MAP: MAP,
        TOOLGATE_OAUTH_JWKS_URL: 'https://a.example.com/jwks',
      },
      /TOOLGATE_OAUTH_JWKS_URL: needs exactly one/,
    ],
    [{ TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS: '-1' }, /TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS/],
  ])('refuse %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('the /mcp allow-lists and public URL', () => {
  it('read hosts, origins and the public origin in normal form', () => {
    const config = loadConfig({
      TOOLGATE_MCP_ALLOWED_HOSTS: 'Toolgate.Example.com, gateway.internal:8443,[::1]:80',
      TOOLGATE_MCP_ALLOWED_ORIGINS: 'https://agent.example.org/',
      TOOLGATE_PUBLIC_URL: 'https://toolgate.example.com/',
    });
    expect(config.TOOLGATE_MCP_ALLOWED_HOSTS).toEqual([
      'toolgate.example.com',
      'gateway.internal:8443',
      '[::1]',
    ]);
    expect(config.TOOLGATE_MCP_ALLOWED_ORIGINS).toEqual(['https://agent.example.org']);
    expect(config.TOOLGATE_PUBLIC_URL).toBe('https://toolgate.example.com');
  });

  it.each([
    [{ TOOLGATE_MCP_ALLOWED_HOSTS: 'example.com/path' }, /example.com\/path/],
    [{ TOOLGATE_MCP_ALLOWED_HOSTS: 'user@example.com' }, /user@example.com/],
    [{ TOOLGATE_MCP_ALLOWED_ORIGINS: 'https://example.com/app' }, /not an origin/],
    [{ TOOLGATE_MCP_ALLOWED_ORIGINS: 'example.com' }, /not an origin/],
    [{ TOOLGATE_PUBLIC_URL: 'https://example.com/base' }, /origin only/],
  ])('refuse %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
