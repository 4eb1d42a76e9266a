import type { Clock } from '../pipeline/clock';
import { systemClock } from '../pipeline/clock';
import type { CachedResult, ResultCacheStore } from './result-cache-store';

/** The default bounds of a process's result cache. */
export const DEFAULT_IN_MEMORY_CACHE_LIMITS = {
  maxEntries: 10_000,
  maxBytes: 64 * 1024 * 1024,
  maxEntryBytes: 1024 * 1024,
} as const;

interface Slot {
  entry: CachedResult;
  bytes: number;
  expires_at: number;
}

/**
 * Cached results in one process's memory: a least-recently-used map bounded both in entries and in
 * bytes (the JSON size of each entry), entries expiring after their ttl. Executions of a key are
 * already coalesced by `ResultCache` inside the process, so the lock is always granted.
 */
export class InMemoryResultCacheStore implements ResultCacheStore {
  private readonly slots = new Map<string, Slot>();
  private bytes = 0;
  private readonly clock: Clock;
  readonly limits: { maxEntries: number; maxBytes: number; maxEntryBytes: number };

  constructor(
    options: { clock?: Clock; maxEntries?: number; maxBytes?: number; maxEntryBytes?: number } = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.limits = {
      maxEntries: options.maxEntries ?? DEFAULT_IN_MEMORY_CACHE_LIMITS.maxEntries,
      maxBytes: options.maxBytes ?? DEFAULT_IN_MEMORY_CACHE_LIMITS.maxBytes,
      maxEntryBytes: options.maxEntryBytes ?? DEFAULT_IN_MEMORY_CACHE_LIMITS.maxEntryBytes,
    };
  }

  /** How many entries and bytes the cache holds now. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.slots.size, bytes: this.bytes };
  }

  get(key: string): Promise<CachedResult | undefined> {
    return Promise.resolve(this.read(key));
  }

  set(key: string, entry: CachedResult, ttlMs: number): Promise<boolean> {
    const bytes = Buffer.byteLength(JSON.stringify(entry)) + key.length;
    if (bytes > this.limits.maxEntryBytes || bytes > this.limits.maxBytes) {
      return Promise.resolve(false);
    }
    this.remove(key);
    this.slots.set(key, { entry, bytes, expires_at: this.clock.now() + ttlMs });
    this.bytes += bytes;
    // A Map iterates in insertion order, and reads re-insert: the first key is the least recently used.
    for (const oldest of this.slots.keys()) {
      if (this.slots.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldest);
    }
    return Promise.resolve(true);
  }

  lock(): Promise<boolean> {
    return Promise.resolve(true);
  }

  unlock(): Promise<void> {
    return Promise.resolve();
  }

  waitFor(key: string): Promise<CachedResult | undefined> {
    return Promise.resolve(this.read(key));
  }

  private read(key: string): CachedResult | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    if (slot.expires_at <= this.clock.now()) {
      this.remove(key);
      return undefined;
    }
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.entry;
  }

  private remove(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.bytes -= slot.bytes;
  }
}
