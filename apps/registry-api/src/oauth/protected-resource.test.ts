import { describe, expect, it } from 'vitest';
import {
  mcpResourceUrl,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
} from './protected-resource';

describe('protected resource metadata', () => {
  it('puts the well-known segment between host and path (RFC 9728 §3.1)', () => {
    expect(protectedResourceMetadataUrl('https://t.example:8443/mcp')).toBe(
      'https://t.example:8443/.well-known/oauth-protected-resource/mcp',
    );
    expect(protectedResourceMetadataUrl('https://t.example/')).toBe(
      'https://t.example/.well-known/oauth-protected-resource',
    );
  });

  it('names the resource by the public URL, else by the request', () => {
    expect(mcpResourceUrl('https://t.example', { protocol: 'http', host: '10.0.0.5:4000' })).toBe(
      'https://t.example/mcp',
    );
    expect(mcpResourceUrl(undefined, { protocol: 'http', host: '127.0.0.1:4000' })).toBe(
      'http://127.0.0.1:4000/mcp',
    );
  });

  it('says header bearer tokens only', () => {
    expect(
      protectedResourceMetadata({
        resource: 'https://t.example/mcp',
        issuers: ['https://auth.example.com'],
        scopes: ['mcp:tools'],
      }),
    ).toEqual({
      resource: 'https://t.example/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'Toolgate MCP',
    });
  });
});
