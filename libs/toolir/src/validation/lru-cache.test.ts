import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('evicts the least recently used entry beyond capacity', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(2, (key) => evicted.push(key));
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(evicted).toEqual(['b']);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it('releases a replaced value', () => {
    const evicted: number[] = [];
    const cache = new LruCache<string, number>(2, (_key, value) => evicted.push(value));
    cache.set('a', 1);
    cache.set('a', 2);
    expect(evicted).toEqual([1]);
    expect(cache.get('a')).toBe(2);
  });

  it('releases everything on clear and refuses a zero capacity', () => {
    const evicted: string[] = [];
    const cache = new LruCache<string, number>(3, (key) => evicted.push(key));
    cache.set('a', 1);
    cache.set('b', 2);
    cache.clear();
    expect(evicted).toEqual(['a', 'b']);
    expect(cache.size).toBe(0);
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
