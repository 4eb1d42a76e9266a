import { describe, expect, it } from 'vitest';
import { digestsEqual, generateApiKey, hashSecret, parseApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('round-trips a generated key and stores only a digest of its secret', () => {
    const key = generateApiKey();
    const parsed = parseApiKey(key.token);
    expect(parsed?.id).toBe(key.id);
    expect(digestsEqual(hashSecret(parsed!.secret), key.secretHash)).toBe(true);
    expect(key.secretHash).not.toContain(parsed!.secret);
  });

  it.each([
    '',
    'tg_',
    'tg_abc_def',
    `tg_${'0'.repeat(32)}_short`,
    `xx_${'0'.repeat(32)}_${'A'.repeat(43)}`,
  ])('rejects %j', (token) => {
    expect(parseApiKey(token)).toBeNull();
  });

  it('compares digests of different lengths as unequal', () => {
    expect(digestsEqual('abcd', 'abcdef')).toBe(false);
  });
});
