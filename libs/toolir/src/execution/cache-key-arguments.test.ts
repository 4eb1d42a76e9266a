import { describe, expect, it } from 'vitest';
import { cacheKeyArguments } from './cache-key-arguments';

describe('cacheKeyArguments', () => {
  it('keys on all arguments, whatever their order, when the cache names none', () => {
    const tool = { cache: { ttl_ms: 1000, scope: 'team' as const } };
    expect(cacheKeyArguments(tool, { b: 1, a: { y: 2, x: 1 } })).toBe(
      cacheKeyArguments(tool, { a: { x: 1, y: 2 }, b: 1 }),
    );
    expect(cacheKeyArguments(tool, { a: 1 })).not.toBe(cacheKeyArguments(tool, { a: 2 }));
  });

  it('keys on the named top-level arguments and JSON Pointers only', () => {
    const tool = { cache: { ttl_ms: 1000, scope: 'team' as const, key: ['city', '/filter/day'] } };
    const base = cacheKeyArguments(tool, { city: 'Paris', filter: { day: 'mon', unit: 'c' } });
    expect(base).toBe('{"/filter/day":"mon","city":"Paris"}');
    // `unit` and `trace` are not part of the key.
    expect(
      cacheKeyArguments(tool, { city: 'Paris', filter: { day: 'mon', unit: 'f' }, trace: 'x' }),
    ).toBe(base);
    expect(cacheKeyArguments(tool, { city: 'Rome', filter: { day: 'mon' } })).not.toBe(base);
  });

  it('tells an absent key argument from one sent as null', () => {
    const tool = { cache: { ttl_ms: 1000, scope: 'shared' as const, key: ['city'] } };
    expect(cacheKeyArguments(tool, {})).not.toBe(cacheKeyArguments(tool, { city: null }));
  });
});
