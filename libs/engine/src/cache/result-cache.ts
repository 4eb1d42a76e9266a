import { createHash, randomUUID } from 'node:crypto';
import { cacheKeyArguments, type ToolIR } from '@toolgate/toolir';
import type { Clock } from '../pipeline/clock';
import { systemClock } from '../pipeline/clock';
import { silentLogger, type EngineLogger } from '../telemetry/logger';
import type { CachedResult, ResultCacheStore } from './result-cache-store';

/**
 * The cache key of a call: the tool version, the release generation it was served under (so a new
 * version or a release change misses), the team when the cache is per team, and a sha256 of the
 * canonical key arguments.
 */
export function resultCacheKey(input: {
  tool: Pick<ToolIR, 'id' | 'version' | 'cache'>;
  generation: string;
  team: string;
  args: Record<string, unknown>;
}): string {
  const { tool } = input;
  const scope = tool.cache?.scope === 'shared' ? '*' : input.team;
  const args = createHash('sha256').update(cacheKeyArguments(tool, input.args)).digest('base64url');
  return `${tool.id}@${tool.version}:${input.generation}:${scope}:${args}`;
}

/** One call's way through the cache. */
export interface ResultCacheRequest {
  key: string;
  ttlMs: number;
  /** Skip the lookup (the caller asked for a fresh answer), but store what the execution returns. */
  refresh: boolean;
  /** The longest one execution may take: the lock's lifetime, and how long others wait on it. */
  executionBudgetMs: number;
  signal?: AbortSignal | undefined;
}

/** What an execution hands back: its own value, and the result to keep when it may be cached. */
export interface CacheableExecution<TValue> {
  value: TValue;
  cacheable?: Omit<CachedResult, 'stored_at'> | undefined;
}

/** How a call was answered: from the cache (with the entry's age), or by its own execution. */
export type ResultCacheOutcome<TValue> =
  | { source: 'cache'; entry: CachedResult; age_ms: number }
  | { source: 'execution'; value: TValue; stored?: CachedResult | undefined };

/**
 * A result cache on a `ResultCacheStore`, safe against stampedes: in one process, concurrent calls
 * of a key share one flight (a promise map); across processes, the store's lock lets one execute
 * while the others wait for its entry, never longer than an execution may take. A failed execution
 * stores nothing and releases its waiters, which then execute for themselves. The store failing
 * (Redis down) never fails a call: it executes as if nothing were cached.
 */
export class ResultCache {
  private readonly flights = new Map<string, Promise<CachedResult | undefined>>();
  private readonly clock: Clock;
  private readonly logger: EngineLogger;

  constructor(
    private readonly store: ResultCacheStore,
    options: { clock?: Clock; logger?: EngineLogger } = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
  }

  async through<TValue>(
    request: ResultCacheRequest,
    execute: () => Promise<CacheableExecution<TValue>>,
  ): Promise<ResultCacheOutcome<TValue>> {
    if (request.refresh) return this.executeAndStore(request, execute);
    const flight = this.flights.get(request.key);
    if (flight !== undefined) {
      const shared = await flight;
      return shared === undefined ? this.executeAndStore(request, execute) : this.hit(shared);
    }
    let land: (entry: CachedResult | undefined) => void = () => undefined;
    this.flights.set(
      request.key,
      new Promise((resolve) => {
        land = resolve;
      }),
    );
    let produced: CachedResult | undefined;
    try {
      produced = await this.attempt(() => this.store.get(request.key), undefined);
      if (produced !== undefined) return this.hit(produced);
      const token = randomUUID();
      // Without the store, executing unfenced is better than not at all.
      const locked = await this.attempt(
        () => this.store.lock(request.key, token, request.executionBudgetMs),
        true,
      );
      try {
        if (!locked) {
          produced = await this.attempt(
            () =>
              this.store.waitFor(request.key, {
                until: this.clock.now() + request.executionBudgetMs,
                signal: request.signal,
              }),
            undefined,
          );
          if (produced !== undefined) return this.hit(produced);
          // The holder failed, or outlasted the budget: this call executes for itself.
        }
        const outcome = await this.executeAndStore(request, execute);
        if (outcome.source === 'execution') produced = outcome.stored;
        return outcome;
      } finally {
        if (locked) await this.attempt(() => this.store.unlock(request.key, token), undefined);
      }
    } finally {
      this.flights.delete(request.key);
      land(produced);
    }
  }

  private hit(entry: CachedResult): ResultCacheOutcome<never> {
    return { source: 'cache', entry, age_ms: Math.max(0, this.clock.now() - entry.stored_at) };
  }

  private async executeAndStore<TValue>(
    request: ResultCacheRequest,
    execute: () => Promise<CacheableExecution<TValue>>,
  ): Promise<ResultCacheOutcome<TValue>> {
    const execution = await execute();
    if (execution.cacheable === undefined) {
      return { source: 'execution', value: execution.value };
    }
    const entry: CachedResult = { ...execution.cacheable, stored_at: this.clock.now() };
    const stored = await this.attempt(
      () => this.store.set(request.key, entry, request.ttlMs),
      false,
    );
    return { source: 'execution', value: execution.value, ...(stored ? { stored: entry } : {}) };
  }

  private async attempt<TValue>(
    operation: () => Promise<TValue>,
    fallback: TValue,
  ): Promise<TValue> {
    try {
      return await operation();
    } catch (error) {
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'result cache store failed; the call executes uncached',
      );
      return fallback;
    }
  }
}
