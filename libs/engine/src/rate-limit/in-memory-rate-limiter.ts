import type { Clock } from '../pipeline/clock';
import { systemClock } from '../pipeline/clock';
import type { RateLimitDecision, RateLimiter, RateLimitRequest } from './rate-limiter';

const WINDOW_MS = 60_000;

interface Entry {
  at: number;
  tokens: number;
}

/** A sliding-window (one minute) rate limiter kept in memory, for one process. */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Entry[]>();
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  acquire(request: RateLimitRequest): Promise<RateLimitDecision> {
    return Promise.resolve(this.acquireNow(request));
  }

  private acquireNow(request: RateLimitRequest): RateLimitDecision {
    const now = this.clock.now();
    const entries = (this.windows.get(request.key) ?? []).filter(
      (entry) => entry.at > now - WINDOW_MS,
    );
    this.windows.set(request.key, entries);
    const tokens = request.tokens ?? 0;
    const oldest = entries[0];
    if (entries.length >= request.limit.rpm && oldest !== undefined) {
      return { allowed: false, retry_after_ms: oldest.at + WINDOW_MS - now };
    }
    const tpm = request.limit.tpm;
    if (tpm !== undefined && tokens > 0) {
      let used = entries.reduce((sum, entry) => sum + entry.tokens, 0);
      if (used + tokens > tpm) {
        // Wait until enough old entries leave the window to make room.
        for (const entry of entries) {
          used -= entry.tokens;
          if (used + tokens <= tpm)
            return { allowed: false, retry_after_ms: entry.at + WINDOW_MS - now };
        }
        return { allowed: false, retry_after_ms: WINDOW_MS };
      }
    }
    entries.push({ at: now, tokens });
    return { allowed: true };
  }
}
