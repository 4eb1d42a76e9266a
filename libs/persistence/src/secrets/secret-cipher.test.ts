import { describe, expect, it } from 'vitest';
import { SecretKeyError, SecretKeyring, SecretSealError } from './secret-cipher';

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64');
const BINDING = { teamId: '00000000-0000-4000-8000-000000000001', name: 'ORDERS_API_KEY' };

function ring(current: string, old?: string): SecretKeyring {
  const keyring = SecretKeyring.fromSettings({ current, old });
  if (keyring === undefined) throw new Error('no keyring');
  return keyring;
}

describe('SecretKeyring', () => {
  it('round-trips a value with a fresh nonce each time, never storing it in clear', () => {
    const keyring = ring(`k1:${KEY_A}`);
    const first = keyring.seal('s3cr3t-välue', BINDING);
    const second = keyring.seal('s3cr3t-välue', BINDING);
    expect(first.keyId).toBe('k1');
    expect(first.nonce).not.toBe(second.nonce);
    expect(JSON.stringify(first)).not.toContain('s3cr3t');
    expect(keyring.open(first, BINDING)).toBe('s3cr3t-välue');
  });

  it('names a key without an id by its fingerprint, the same on every start', () => {
    expect(ring(KEY_A).currentKeyId).toMatch(/^sha256-[0-9a-f]{12}$/);
    expect(ring(KEY_A).currentKeyId).toBe(ring(` ${KEY_A} `).currentKeyId);
    expect(ring(KEY_A).currentKeyId).not.toBe(ring(KEY_B).currentKeyId);
  });

  it('refuses a value sealed under a key id it does not hold', () => {
    const sealed = ring(`k1:${KEY_A}`).seal('v', BINDING);
    expect(() => ring(`k2:${KEY_B}`).open(sealed, BINDING)).toThrow(SecretSealError);
    expect(() => ring(`k2:${KEY_B}`).open(sealed, BINDING)).toThrow(/key k1/);
  });

  it('detects tampering with the ciphertext, the tag, the nonce, the team or the name', () => {
    const keyring = ring(`k1:${KEY_A}`);
    const sealed = keyring.seal('value-to-protect', BINDING);
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64');
    };
    expect(() => keyring.open({ ...sealed, ciphertext: flip(sealed.ciphertext) }, BINDING)).toThrow(
      SecretSealError,
    );
    expect(() => keyring.open({ ...sealed, authTag: flip(sealed.authTag) }, BINDING)).toThrow(
      SecretSealError,
    );
    expect(() => keyring.open({ ...sealed, nonce: flip(sealed.nonce) }, BINDING)).toThrow(
      SecretSealError,
    );
    expect(() => keyring.open(sealed, { ...BINDING, name: 'OTHER' })).toThrow(SecretSealError);
    expect(() =>
      keyring.open(sealed, { ...BINDING, teamId: '00000000-0000-4000-8000-000000000002' }),
    ).toThrow(SecretSealError);
  });

  it('opens values of old keys after a rotation and seals under the new one', () => {
    const sealed = ring(`k1:${KEY_A}`).seal('rotated', BINDING);
    const rotated = ring(`k2:${KEY_B}`, `k1:${KEY_A}`);
    expect(rotated.open(sealed, BINDING)).toBe('rotated');
    expect(rotated.seal('rotated', BINDING).keyId).toBe('k2');
    expect(rotated.has('k1')).toBe(true);
  });

  it('reads no keyring without a key and refuses malformed settings without echoing them', () => {
    expect(SecretKeyring.fromSettings({ current: undefined })).toBeUndefined();
    expect(SecretKeyring.fromSettings({ current: '  ' })).toBeUndefined();
    const short = Buffer.alloc(16, 3).toString('base64');
    expect(() => ring(short)).toThrow(SecretKeyError);
    expect(() => ring('not base64 at all!')).toThrow(/base64 of exactly 32 bytes/);
    expect(() => ring(`bad id:${KEY_A}`)).toThrow(/key id/);
    expect(() => ring(`k1:${KEY_A}`, `k1:${KEY_B}`)).toThrow(/given twice/);
    try {
      ring(short);
    } catch (error) {
      expect(String(error)).not.toContain(short);
    }
    expect(Buffer.from(SecretKeyring.generateKey(), 'base64')).toHaveLength(32);
  });
});
