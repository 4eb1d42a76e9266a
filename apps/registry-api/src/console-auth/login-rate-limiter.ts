import { Injectable } from '@nestjs/common';

const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins allowed per email within the window, from anywhere. */
export const MAX_FAILURES_PER_ACCOUNT = 10;
/** Failed sign-ins allowed per client address within the window, whatever the email. */
export const MAX_FAILURES_PER_ADDRESS = 100;
const MAX_ENTRIES = 50_000;

interface Counter {
  failures: number;
  windowStart: number;
}

/**
 * Counts failed sign-ins per email and per client address in fixed windows, in memory: each API
 * replica counts its own attempts, which bounds guessing per replica without a store. The email
 * count stops guessing from rotating addresses; the address count stops one client spraying many
 * emails. Behind the console's proxy every browser shares one address, hence its higher limit.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly counters = new Map<string, Counter>();

  /** Seconds until the next attempt is allowed, or 0 when it may go ahead. */
  retryAfterSeconds(address: string, email: string): number {
    const waits = [
      this.waitFor(`a:${address}`, MAX_FAILURES_PER_ADDRESS),
      this.waitFor(`e:${email}`, MAX_FAILURES_PER_ACCOUNT),
    ];
    return Math.max(...waits);
  }

  recordFailure(address: string, email: string): void {
    this.bump(`a:${address}`);
    this.bump(`e:${email}`);
  }

  /** A successful sign-in clears the email's count (not the address's). */
  recordSuccess(address: string, email: string): void {
    this.counters.delete(`e:${email}`);
  }

  private waitFor(key: string, limit: number): number {
    const counter = this.current(key);
    if (counter === undefined || counter.failures < limit) return 0;
    return Math.max(1, Math.ceil((counter.windowStart + WINDOW_MS - Date.now()) / 1000));
  }

  private current(key: string): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter !== undefined && Date.now() - counter.windowStart >= WINDOW_MS) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  private bump(key: string): void {
    const counter = this.current(key);
    if (counter !== undefined) {
      counter.failures += 1;
      return;
    }
    // A flood of distinct keys must not grow memory without bound; dropping counts only lets
    // a few more attempts through.
    if (this.counters.size >= MAX_ENTRIES) this.counters.clear();
    this.counters.set(key, { failures: 1, windowStart: Date.now() });
  }
}
