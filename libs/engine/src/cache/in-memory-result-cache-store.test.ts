import { describe, expect, it } from 'vitest';
import { FakeClock } from '../__fixtures__/engine-harness';
import { InMemoryResultCacheStore } from './in-memory-result-cache-store';

const entry = (data: unknown) => ({ data, stored_at: 0 });

describe('InMemoryResultCacheStore', () => {
  it('serves an entry until its ttl runs out', async () => {
    const clock = new FakeClock();
    const store = new InMemoryResultCacheStore({ clock });
    await store.set('k', entry('v'), 1000);
    clock.time += 999;
    expect((await store.get('k'))?.data).toBe('v');
    clock.time += 1;
    expect(await store.get('k')).toBeUndefined();
    expect(store.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const store = new InMemoryResultCacheStore({ maxEntries: 2 });
    await store.set('a', entry(1), 60_000);
    await store.set('b', entry(2), 60_000);
    await store.get('a');
    await store.set('c', entry(3), 60_000);
    expect(await store.get('b')).toBeUndefined();
    expect((await store.get('a'))?.data).toBe(1);
    expect((await store.get('c'))?.data).toBe(3);
    expect(store.size.entries).toBe(2);
  });

  it('keeps at most maxBytes, dropping the least recently used until the new entry fits', async () => {
    const store = new InMemoryResultCacheStore({ maxBytes: 200, maxEntryBytes: 200 });
    const value = 'x'.repeat(60);
    for (const key of ['a', 'b', 'c', 'd']) await store.set(key, entry(value), 60_000);
    expect(store.size.bytes).toBeLessThanOrEqual(200);
    expect(await store.get('a')).toBeUndefined();
    expect((await store.get('d'))?.data).toBe(value);
  });

  it('refuses an entry over maxEntryBytes and keeps what it had', async () => {
    const store = new InMemoryResultCacheStore({ maxEntryBytes: 100 });
    await store.set('small', entry('ok'), 60_000);
    expect(await store.set('big', entry('x'.repeat(200)), 60_000)).toBe(false);
    expect(await store.get('big')).toBeUndefined();
    expect((await store.get('small'))?.data).toBe('ok');
  });

  it('replaces an entry under the same key without counting it twice', async () => {
    const store = new InMemoryResultCacheStore();
    await store.set('k', entry('one'), 60_000);
    const bytes = store.size.bytes;
    await store.set('k', entry('two'), 60_000);
    expect(store.size).toEqual({ entries: 1, bytes });
    expect((await store.get('k'))?.data).toBe('two');
  });
});
