import type { ContentBlock } from '@toolgate/toolir';

/** A successful result as the cache keeps it: what the tool returned, before truncation. */
export interface CachedResult {
  data?: unknown;
  content?: ContentBlock[];
  /** When the execution that produced it finished (epoch ms), for the answer's age. */
  stored_at: number;
}

/**
 * Where cached results live and how executions of one key are fenced across processes: in memory
 * for one process (`InMemoryResultCacheStore`), or Redis for every process on it. Implementations
 * bound their memory and refuse entries over their size limit (`set` returns false).
 */
export interface ResultCacheStore {
  get(key: string): Promise<CachedResult | undefined>;
  /** Stores an entry for `ttlMs`; false when it was not kept (too large). */
  set(key: string, entry: CachedResult, ttlMs: number): Promise<boolean>;
  /**
   * Takes the key's execution lock for at most `ttlMs`, so one process executes while the others
   * wait; false when another holder has it. A store for one process may always grant it.
   */
  lock(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock up (only when `token` still holds it) and wakes whoever waits for the key. */
  unlock(key: string, token: string): Promise<void>;
  /**
   * Resolves once the key has an entry, its lock is gone, `until` (epoch ms) has passed or `signal`
   * aborts, whichever comes first; the entry when there is one.
   */
  waitFor(
    key: string,
    options: { until: number; signal?: AbortSignal | undefined },
  ): Promise<CachedResult | undefined>;
}
