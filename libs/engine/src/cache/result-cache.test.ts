import { describe, expect, it } from 'vitest';
import { FakeClock } from '../__fixtures__/engine-harness';
import { InMemoryResultCacheStore } from './in-memory-result-cache-store';
import { ResultCache, resultCacheKey, type ResultCacheRequest } from './result-cache';
import type { CachedResult, ResultCacheStore } from './result-cache-store';

const TOOL = { id: '6f1f3c9e-3b0a-4f55-9a51-0d3c2b1a0e11', version: '1.0.0' };

function request(overrides: Partial<ResultCacheRequest> = {}): ResultCacheRequest {
  return { key: 'k', ttlMs: 60_000, refresh: false, executionBudgetMs: 5000, ...overrides };
}

/** An execution the test releases by hand, counting how often it ran. */
function gatedExecution(result: { ok: boolean }) {
  let runs = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const execute = async () => {
    runs += 1;
    await gate;
    return result.ok
      ? { value: 'fresh', cacheable: { data: { n: runs } } }
      : { value: 'failed', cacheable: undefined };
  };
  return { execute, open, runs: () => runs };
}

describe('resultCacheKey', () => {
  const base = {
    tool: { ...TOOL, cache: { ttl_ms: 1, scope: 'team' as const } },
    generation: 'g1',
    team: 'team-a',
    args: { city: 'Paris', unit: 'c' },
  };

  it('is the same for the same version, generation, team and arguments in any order', () => {
    expect(resultCacheKey(base)).toBe(
      resultCacheKey({ ...base, args: { unit: 'c', city: 'Paris' } }),
    );
  });

  it('differs by version, generation, team and arguments', () => {
    const key = resultCacheKey(base);
    expect(resultCacheKey({ ...base, tool: { ...base.tool, version: '1.0.1' } })).not.toBe(key);
    expect(resultCacheKey({ ...base, generation: 'g2' })).not.toBe(key);
    expect(resultCacheKey({ ...base, team: 'team-b' })).not.toBe(key);
    expect(resultCacheKey({ ...base, args: { city: 'Rome', unit: 'c' } })).not.toBe(key);
  });

  it('leaves the team out of a shared cache, and arguments outside the key out of any', () => {
    const shared = {
      ...base,
      tool: { ...TOOL, cache: { ttl_ms: 1, scope: 'shared' as const, key: ['city'] } },
    };
    expect(resultCacheKey({ ...shared, team: 'team-b', args: { city: 'Paris', unit: 'f' } })).toBe(
      resultCacheKey(shared),
    );
  });
});

describe('ResultCache', () => {
  it('executes once, then answers from the store with the entry age', async () => {
    const clock = new FakeClock();
    const cache = new ResultCache(new InMemoryResultCacheStore({ clock }), { clock });
    const first = await cache.through(request(), () =>
      Promise.resolve({ value: 'fresh', cacheable: { data: 42 } }),
    );
    expect(first).toMatchObject({ source: 'execution', value: 'fresh' });
    clock.time += 250;
    const second = await cache.through(request(), () => Promise.reject(new Error('not run')));
    expect(second).toEqual({
      source: 'cache',
      entry: { data: 42, stored_at: clock.time - 250 },
      age_ms: 250,
    });
  });

  it('runs one execution for concurrent calls of a key; the others are answered by it', async () => {
    const cache = new ResultCache(new InMemoryResultCacheStore());
    const execution = gatedExecution({ ok: true });
    const calls = Array.from({ length: 100 }, () => cache.through(request(), execution.execute));
    execution.open();
    const outcomes = await Promise.all(calls);
    expect(execution.runs()).toBe(1);
    expect(outcomes.filter((outcome) => outcome.source === 'execution')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.source === 'cache')).toHaveLength(99);
  });

  it('stores nothing after a failed execution and lets each waiter execute for itself', async () => {
    const cache = new ResultCache(new InMemoryResultCacheStore());
    const failing = gatedExecution({ ok: false });
    const calls = Array.from({ length: 5 }, () => cache.through(request(), failing.execute));
    failing.open();
    const outcomes = await Promise.all(calls);
    expect(failing.runs()).toBe(5);
    expect(outcomes.every((outcome) => outcome.source === 'execution')).toBe(true);
    const next = await cache.through(request(), () =>
      Promise.resolve({ value: 'later', cacheable: { data: 1 } }),
    );
    expect(next).toMatchObject({ source: 'execution', value: 'later' });
  });

  it('releases waiters when the execution throws', async () => {
    const cache = new ResultCache(new InMemoryResultCacheStore());
    const leader = cache.through(request(), () => Promise.reject(new Error('boom')));
    const waiter = cache.through(request(), () =>
      Promise.resolve({ value: 'mine', cacheable: undefined }),
    );
    await expect(leader).rejects.toThrow('boom');
    await expect(waiter).resolves.toMatchObject({ source: 'execution', value: 'mine' });
  });

  it('skips the lookup on refresh but stores the fresh result for the next call', async () => {
    const cache = new ResultCache(new InMemoryResultCacheStore());
    await cache.through(request(), () =>
      Promise.resolve({ value: 'old', cacheable: { data: 'old' } }),
    );
    const refreshed = await cache.through(request({ refresh: true }), () =>
      Promise.resolve({ value: 'new', cacheable: { data: 'new' } }),
    );
    expect(refreshed).toMatchObject({ source: 'execution', value: 'new' });
    const next = await cache.through(request(), () => Promise.reject(new Error('not run')));
    expect(next).toMatchObject({ source: 'cache', entry: { data: 'new' } });
  });

  it('executes uncached when the store fails', async () => {
    const broken: ResultCacheStore = {
      get: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      lock: () => Promise.reject(new Error('down')),
      unlock: () => Promise.reject(new Error('down')),
      waitFor: () => Promise.reject(new Error('down')),
    };
    const cache = new ResultCache(broken);
    const outcome = await cache.through(request(), () =>
      Promise.resolve({ value: 'ran', cacheable: { data: 1 } }),
    );
    expect(outcome).toEqual({ source: 'execution', value: 'ran' });
  });

  it('waits for the execution another process holds the lock for, and answers with its entry', async () => {
    const stored: CachedResult = { data: 'theirs', stored_at: Date.now() };
    const lockedElsewhere: ResultCacheStore = {
      get: () => Promise.resolve(undefined),
      set: () => Promise.resolve(true),
      lock: () => Promise.resolve(false),
      unlock: () => Promise.resolve(),
      waitFor: () => Promise.resolve(stored),
    };
    const cache = new ResultCache(lockedElsewhere);
    const outcome = await cache.through(request(), () => Promise.reject(new Error('not run')));
    expect(outcome).toMatchObject({ source: 'cache', entry: stored });
  });
});
