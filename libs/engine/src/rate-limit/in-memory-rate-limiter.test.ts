import { describe, expect, it } from 'vitest';
import { FakeClock } from '../__fixtures__/engine-harness';
import { InMemoryRateLimiter } from './in-memory-rate-limiter';

describe('InMemoryRateLimiter', () => {
  it('allows rpm calls per sliding minute and says when the next slot frees up', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock });
    const request = { key: 'tool:a', limit: { rpm: 2 } };
    expect(await limiter.acquire(request)).toEqual({ allowed: true });
    clock.time += 20_000;
    expect(await limiter.acquire(request)).toEqual({ allowed: true });
    expect(await limiter.acquire(request)).toEqual({ allowed: false, retry_after_ms: 40_000 });
    expect(await limiter.acquire({ ...request, key: 'tool:b' })).toEqual({ allowed: true });
    clock.time += 40_001;
    expect(await limiter.acquire(request)).toEqual({ allowed: true });
  });

  it('enforces tokens per minute', async () => {
    const clock = new FakeClock();
    const limiter = new InMemoryRateLimiter({ clock });
    const limit = { rpm: 100, tpm: 1000 };
    expect(await limiter.acquire({ key: 'k', limit, tokens: 600 })).toEqual({ allowed: true });
    clock.time += 1000;
    expect(await limiter.acquire({ key: 'k', limit, tokens: 600 })).toEqual({
      allowed: false,
      retry_after_ms: 59_000,
    });
    expect(await limiter.acquire({ key: 'k', limit, tokens: 300 })).toEqual({ allowed: true });
  });
});
