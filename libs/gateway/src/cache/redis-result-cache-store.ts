import type { CachedResult, ResultCacheStore } from '@toolgate/engine';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { LuaScript } from '../rate-limit/lua-script';

/** The largest result Redis keeps by default (bytes of its JSON); a bigger one is not cached. */
export const DEFAULT_REDIS_CACHE_MAX_ENTRY_BYTES = 512 * 1024;

// Waiters poll for the holder's entry, doubling from the first delay up to the cap: an entry
// shows up within a few ms of its execution, and a long execution costs one GET per cap.
const FIRST_POLL_MS = 5;
const POLL_CAP_MS = 100;

// Releases the lock only for the token that holds it: a holder that outlived its lock must not
// free the lock of the execution that took over.
const UNLOCK = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

// Entries are written by this store only; a foreign or damaged value reads as a miss.
const CachedResultSchema = z.object({
  data: z.unknown().optional(),
  content: z.array(z.record(z.string(), z.unknown())).optional(),
  stored_at: z.number(),
});

/** Options of the Redis result cache store. */
export interface RedisResultCacheStoreOptions {
  redis: Redis;
  /** Key namespace: entries at `<prefix>:result-cache:<key>`, locks at `<prefix>:result-cache-lock:<key>`. */
  prefix: string;
  /** A result whose JSON is larger is not cached. Default 512 KiB. */
  maxEntryBytes?: number;
}

/**
 * Cached results in Redis, shared by every process on it. Each entry expires with its ttl (PX),
 * and results over `maxEntryBytes` are never written, so memory is bounded by the calls of the
 * last ttl; see the gateway README for sizing and the `maxmemory-policy` to run with. One execution
 * per key across processes: `lock` is SET NX PX with a random token, waiters poll with backoff.
 */
export class RedisResultCacheStore implements ResultCacheStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly maxEntryBytes: number;

  constructor(options: RedisResultCacheStoreOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.maxEntryBytes = options.maxEntryBytes ?? DEFAULT_REDIS_CACHE_MAX_ENTRY_BYTES;
  }

  async get(key: string): Promise<CachedResult | undefined> {
    return this.parse(await this.redis.get(this.entryKey(key)));
  }

  async set(key: string, entry: CachedResult, ttlMs: number): Promise<boolean> {
    const text = JSON.stringify(entry);
    if (Buffer.byteLength(text) > this.maxEntryBytes) return false;
    await this.redis.set(this.entryKey(key), text, 'PX', ttlMs);
    return true;
  }

  async lock(key: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.lockKey(key), token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unlock(key: string, token: string): Promise<void> {
    await UNLOCK.run(this.redis, { keys: [this.lockKey(key)], args: [token] });
  }

  async waitFor(
    key: string,
    options: { until: number; signal?: AbortSignal | undefined },
  ): Promise<CachedResult | undefined> {
    let delay = FIRST_POLL_MS;
    while (Date.now() < options.until && options.signal?.aborted !== true) {
      await sleep(Math.min(delay, Math.max(0, options.until - Date.now())), options.signal);
      delay = Math.min(delay * 2, POLL_CAP_MS);
      const [entry, locked] = await Promise.all([
        this.redis.get(this.entryKey(key)),
        this.redis.exists(this.lockKey(key)),
      ]);
      const found = this.parse(entry);
      if (found !== undefined) return found;
      // No entry and no lock: the holder failed (nothing stored) and waiters run for themselves.
      if (locked === 0) return undefined;
    }
    return undefined;
  }

  private parse(text: string | null): CachedResult | undefined {
    if (text === null) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const parsed = CachedResultSchema.safeParse(value);
    return parsed.success ? (parsed.data as CachedResult) : undefined;
  }

  private entryKey(key: string): string {
    return `${this.prefix}:result-cache:${key}`;
  }

  private lockKey(key: string): string {
    return `${this.prefix}:result-cache-lock:${key}`;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
