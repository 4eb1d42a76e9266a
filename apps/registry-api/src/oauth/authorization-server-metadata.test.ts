import { describe, expect, it } from 'vitest';
import {
  discoverJwksUri,
  IssuerDiscoveryError,
  metadataUrlsOf,
} from './authorization-server-metadata';

function fakeFetch(documents: Record<string, unknown>): typeof fetch {
  return (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const document = documents[url];
    return Promise.resolve(
      document === undefined ? new Response('not found', { status: 404 }) : Response.json(document),
    );
  };
}

describe('authorization server metadata', () => {
  it('tries RFC 8414 before OpenID Connect, inserting the well-known segment before a path', () => {
    expect(metadataUrlsOf('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
    expect(metadataUrlsOf('https://kc.example.com/realms/a/')).toEqual([
      'https://kc.example.com/.well-known/oauth-authorization-server/realms/a',
      'https://kc.example.com/.well-known/openid-configuration/realms/a',
      'https://kc.example.com/realms/a/.well-known/openid-configuration',
    ]);
  });

  it('takes jwks_uri from the first document naming the same issuer', async () => {
    const issuer = 'https://kc.example.com/realms/a';
    const jwks = await discoverJwksUri(
      issuer,
      fakeFetch({
        'https://kc.example.com/.well-known/oauth-authorization-server/realms/a': {
          issuer: 'https://kc.example.com/realms/b',
          jwks_uri: 'https://kc.example.com/realms/b/certs',
        },
        'https://kc.example.com/realms/a/.well-known/openid-configuration': {
          issuer,
          jwks_uri: 'https://kc.example.com/realms/a/certs',
        },
      }),
    );
    expect(jwks.href).toBe('https://kc.example.com/realms/a/certs');
  });

  it('fails naming every place it tried', async () => {
    await expect(discoverJwksUri('https://auth.example.com', fakeFetch({}))).rejects.toThrow(
      IssuerDiscoveryError,
    );
    await expect(discoverJwksUri('https://auth.example.com', fakeFetch({}))).rejects.toThrow(
      /openid-configuration: HTTP 404/,
    );
  });
});
