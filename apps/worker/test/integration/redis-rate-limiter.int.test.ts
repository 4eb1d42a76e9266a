import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter } from '@toolgate/gateway';
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '@toolgate/persistence/testing';

describe('RedisRateLimiter', () => {
  const prefix = createTestPrefix();
  // Two connections and two limiters: what two worker processes would hold.
  let first: Redis;
  let second: Redis;
  let limiterA: RedisRateLimiter;
  let limiterB: RedisRateLimiter;

  beforeAll(() => {
    first = connectTestRedis();
    second = connectTestRedis();
    limiterA = new RedisRateLimiter({ redis: first, prefix });
    limiterB = new RedisRateLimiter({ redis: second, prefix });
  });

  afterAll(async () => {
    await deleteKeys(first, prefix);
    await Promise.all([closeRedis(first), closeRedis(second)]);
  });

  it('admits exactly rpm calls per window across two limiters', async () => {
    const request = { key: 'tool:shared', limit: { rpm: 5 } };
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? limiterA : limiterB).acquire(request),
      ),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    for (const decision of decisions.filter((each) => !each.allowed)) {
      expect(decision).toMatchObject({ allowed: false });
      const retryAfter = decision.allowed ? 0 : decision.retry_after_ms;
      expect(retryAfter).toBeGreaterThan(59_000);
      expect(retryAfter).toBeLessThanOrEqual(60_000);
    }
  });

  it('keeps each key to its own window', async () => {
    await limiterA.acquire({ key: 'tool:one', limit: { rpm: 1 } });
    expect(await limiterB.acquire({ key: 'tool:one', limit: { rpm: 1 } })).toMatchObject({
      allowed: false,
    });
    expect(await limiterB.acquire({ key: 'tool:two', limit: { rpm: 1 } })).toEqual({
      allowed: true,
    });
  });

  it('holds a tokens-per-minute budget', async () => {
    const limit = { rpm: 100, tpm: 100 };
    expect(await limiterA.acquire({ key: 'tool:tokens', limit, tokens: 60 })).toEqual({
      allowed: true,
    });
    expect(await limiterB.acquire({ key: 'tool:tokens', limit, tokens: 30 })).toEqual({
      allowed: true,
    });
    expect(await limiterA.acquire({ key: 'tool:tokens', limit, tokens: 20 })).toMatchObject({
      allowed: false,
    });
    expect(await limiterB.acquire({ key: 'tool:tokens', limit, tokens: 10 })).toEqual({
      allowed: true,
    });
  });

  it('slides: capacity comes back as old calls leave the window', async () => {
    const fast = new RedisRateLimiter({ redis: first, prefix, windowMs: 300 });
    const request = { key: 'tool:sliding', limit: { rpm: 2 } };
    expect((await fast.acquire(request)).allowed).toBe(true);
    expect((await fast.acquire(request)).allowed).toBe(true);
    const denied = await fast.acquire(request);
    expect(denied.allowed).toBe(false);
    await new Promise((resolve) =>
      setTimeout(resolve, denied.allowed ? 0 : denied.retry_after_ms + 20),
    );
    expect((await fast.acquire(request)).allowed).toBe(true);
  });
});
