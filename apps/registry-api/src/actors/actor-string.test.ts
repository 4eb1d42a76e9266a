import { describe, expect, it } from 'vitest';
import { parseActor } from './actor-string';

describe('parseActor', () => {
  const keyId = 'D9F9ECC4-1B2C-4D5E-8F90-123456789ABC';

  it.each([
    ['admin', { kind: 'admin', id: 'admin' }],
    [`key:${keyId}`, { kind: 'key', id: keyId.toLowerCase() }],
    [keyId, { kind: 'key', id: keyId.toLowerCase() }],
    ['user:ada@example.com', { kind: 'user', id: 'ada@example.com' }],
    ['oauth:https://issuer.example#sub-1', { kind: 'oauth', id: 'https://issuer.example#sub-1' }],
    ['key:not-a-uuid', { kind: 'other', id: 'key:not-a-uuid' }],
    ['system', { kind: 'other', id: 'system' }],
    ['user:', { kind: 'other', id: 'user:' }],
  ])('reads %s', (actor, expected) => {
    expect(parseActor(actor)).toEqual(expected);
  });
});
