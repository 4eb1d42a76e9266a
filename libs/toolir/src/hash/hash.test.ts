import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { murmur3 } from './murmur3';
import { sha1 } from './sha1';
import { NAMESPACE_URL, TOOL_ID_NAMESPACE, uuidV5 } from './uuid-v5';

describe('sha1', () => {
  it('matches node:crypto on every padding boundary and random input', () => {
    for (const length of [0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000]) {
      const bytes = randomBytes(length);
      expect(Buffer.from(sha1(bytes)).toString('hex')).toBe(
        createHash('sha1').update(bytes).digest('hex'),
      );
    }
  });

  it('matches the FIPS 180 "abc" vector', () => {
    expect(Buffer.from(sha1(new TextEncoder().encode('abc'))).toString('hex')).toBe(
      'a9993e364706816aba3e25717850c26c9cd0d89d',
    );
  });
});

describe('uuidV5', () => {
  it('matches the RFC / Python reference values', () => {
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'python.org')).toBe(
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  it('derives the tool namespace as documented', () => {
    expect(uuidV5(NAMESPACE_URL, 'https://toolgate.dev/ns/tool')).toBe(TOOL_ID_NAMESPACE);
  });

  it('sets version 5 and the RFC variant, deterministically', () => {
    const id = uuidV5(TOOL_ID_NAMESPACE, 'get_weather');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidV5(TOOL_ID_NAMESPACE, 'get_weather')).toBe(id);
    expect(uuidV5(TOOL_ID_NAMESPACE, 'get_weather_2')).not.toBe(id);
  });

  it('hashes names as UTF-8', () => {
    expect(uuidV5(TOOL_ID_NAMESPACE, 'wetter_ü')).not.toBe(uuidV5(TOOL_ID_NAMESPACE, 'wetter_u'));
  });

  it('rejects a malformed namespace', () => {
    expect(() => uuidV5('nope', 'x')).toThrow(TypeError);
  });
});

describe('murmur3', () => {
  it.each([
    ['', 0, 0],
    ['', 1, 0x514e28b7],
    ['a', 0, 0x3c2569b2],
    ['abc', 0, 0xb3dd93fa],
    ['abcd', 0, 0x43ed676a],
    ['Hello, world!', 0, 0xc0363e43],
    ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ])('murmur3(%j, %i) is the reference value', (text, seed, expected) => {
    expect(murmur3(text, seed)).toBe(expected);
  });
});
