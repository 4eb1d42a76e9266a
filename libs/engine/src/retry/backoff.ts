import type { Random } from '../pipeline/clock';

/** How retries wait between attempts. */
export interface RetryOptions {
  /** The cap of the first retry's delay; doubled for every further retry. */
  baseDelayMs: number;
  /** The largest delay exponential growth may reach. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the call fails over instead. */
  maxRetryAfterMs: number;
}

/** Retry timing used unless the host passes its own. */
export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** The exponential cap of the delay before retry number `retry` (0 for the first retry). */
export function backoffCap(
  retry: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
): number {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
}

/**
 * The delay before a retry: "full jitter" (uniform in [0, cap)) so many clients retrying at once spread out,
 * unless the upstream said how long to wait with `Retry-After`, which is honored as is.
 */
export function retryDelay(input: {
  retry: number;
  retryAfterMs?: number;
  options: RetryOptions;
  random: Random;
}): number {
  if (input.retryAfterMs !== undefined) return Math.max(0, input.retryAfterMs);
  return Math.floor(input.random() * backoffCap(input.retry, input.options));
}

/**
 * Parses an HTTP `Retry-After` value (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date.
 * Returns milliseconds from `now`, never negative, or undefined when the value is neither.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
