import { describe, expect, it } from 'vitest';
import { bearerChallenge } from './bearer-challenge';

describe('bearerChallenge', () => {
  it('names only the realm when there is nothing more to say', () => {
    expect(bearerChallenge({})).toBe('Bearer realm="toolgate"');
  });

  it('points at the resource metadata, with an error when a token was refused', () => {
    expect(
      bearerChallenge({
        error: 'invalid_token',
        resourceMetadata: 'https://t.example/.well-known/oauth-protected-resource/mcp',
      }),
    ).toBe(
      'Bearer realm="toolgate", error="invalid_token", resource_metadata="https://t.example/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('lists needed scopes space-separated and escapes quotes', () => {
    expect(bearerChallenge({ error: 'insufficient_scope', scope: ['a', 'b"c'] })).toBe(
      'Bearer realm="toolgate", error="insufficient_scope", scope="a b\\"c"',
    );
    expect(bearerChallenge({ error: 'insufficient_scope', scope: [] })).toBe(
      'Bearer realm="toolgate", error="insufficient_scope"',
    );
  });
});
