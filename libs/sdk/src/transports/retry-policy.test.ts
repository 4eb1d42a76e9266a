import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, backoffDelay, parseRetryAfter } from './retry-policy';
import { successorLinks } from './deprecation-notices';

describe('retry policy', () => {
  it('draws full-jitter delays under a doubling, capped ceiling', () => {
    const options = {
      retry: { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 },
      random: () => 0.999,
    };
    expect([1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, options))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, { ...options, random: () => 0 })).toBe(0);
  });

  it('reads Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2026-11-29T20:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 20:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 19:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('finds successor-version links', () => {
    expect(
      successorLinks('</v1/tools/a/versions/2.0.0>; rel="successor-version", </docs>; rel="help"'),
    ).toEqual(['/v1/tools/a/versions/2.0.0']);
    expect(successorLinks(null)).toEqual([]);
  });
});
