import { describe, expect, it } from 'vitest';
import { backoffCap, DEFAULT_RETRY_OPTIONS, parseRetryAfter, retryDelay } from './backoff';

describe('backoff', () => {
  const options = { ...DEFAULT_RETRY_OPTIONS, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles the cap per retry up to the maximum', () => {
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffCap(retry, options))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('draws full jitter in [0, cap) and honors Retry-After as is', () => {
    expect(retryDelay({ retry: 2, options, random: () => 0 })).toBe(0);
    expect(retryDelay({ retry: 2, options, random: () => 0.25 })).toBe(100);
    expect(retryDelay({ retry: 2, options, random: () => 0.9999 })).toBeLessThan(400);
    expect(retryDelay({ retry: 2, retryAfterMs: 4000, options, random: () => 0.5 })).toBe(4000);
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
