import { ToolgateSdkError } from '../errors/toolgate-sdk-error';

/** How failed requests that are safe to repeat are retried. */
export interface RetryOptions {
  /** Attempts in total, the first one included (default 3; 1 turns retries off). */
  maxAttempts: number;
  /** The backoff cap of the first retry; it doubles on each retry (default 250 ms). */
  baseDelayMs: number;
  /** The largest backoff cap (default 8 s). */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown instead (default 60 s). */
  maxRetryAfterMs: number;
}

/** The defaults of `RetryOptions`. */
export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Statuses worth repeating a safe request for: timeout, throttling and gateway trouble (never other 4xx). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/**
 * The delay before retry number `retry` (1 for the first retry): "full jitter", a uniform draw in
 * [0, min(maxDelayMs, baseDelayMs * 2^(retry-1))), so many clients failing together spread out.
 */
export function backoffDelay(
  retry: number,
  options: { retry: RetryOptions; random: () => number },
): number {
  const cap = Math.min(options.retry.maxDelayMs, options.retry.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(options.random() * cap);
}

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Waits `ms` milliseconds; rejects with an `aborted` error when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  const aborted = (): ToolgateSdkError =>
    new ToolgateSdkError('aborted', 'the wait before a retry was aborted', {
      cause: signal?.reason,
    });
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(aborted());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
