import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LoginRateLimiter,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
} from './login-rate-limiter';

describe('LoginRateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-30T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('blocks an email after its failures until the window ends, from any address', () => {
    const limiter = new LoginRateLimiter();
    for (let index = 0; index < MAX_FAILURES_PER_ACCOUNT; index += 1)
      limiter.recordFailure(`10.0.0.${index}`, 'ana@example.com');
    expect(limiter.retryAfterSeconds('10.9.9.9', 'ana@example.com')).toBe(15 * 60);
    expect(limiter.retryAfterSeconds('10.9.9.9', 'bo@example.com')).toBe(0);
    vi.advanceTimersByTime(15 * 60_000);
    expect(limiter.retryAfterSeconds('10.9.9.9', 'ana@example.com')).toBe(0);
  });

  it('blocks an address spraying many emails', () => {
    const limiter = new LoginRateLimiter();
    for (let index = 0; index < MAX_FAILURES_PER_ADDRESS; index += 1)
      limiter.recordFailure('10.0.0.1', `user${index}@example.com`);
    expect(limiter.retryAfterSeconds('10.0.0.1', 'new@example.com')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('10.0.0.2', 'new@example.com')).toBe(0);
  });

  it('forgets an email’s failures after a successful sign-in', () => {
    const limiter = new LoginRateLimiter();
    for (let index = 0; index < MAX_FAILURES_PER_ACCOUNT - 1; index += 1)
      limiter.recordFailure('10.0.0.1', 'ana@example.com');
    limiter.recordSuccess('10.0.0.1', 'ana@example.com');
    limiter.recordFailure('10.0.0.1', 'ana@example.com');
    expect(limiter.retryAfterSeconds('10.0.0.1', 'ana@example.com')).toBe(0);
  });
});
