import { silentLogger } from '@toolgate/engine';
import type { EngineLogger } from '@toolgate/engine';
import type { CallRepository, OutcomeWrite } from '@toolgate/persistence';

/** What the writer needs of the call store: several outcomes in one statement. */
export interface OutcomeBatchStore {
  recordOutcomes(writes: readonly OutcomeWrite[]): Promise<Set<string>>;
}

/** How outcomes are batched: flushed this soon after the first one waits, or at this many. */
export interface WriteBehindOptions {
  flushMs?: number;
  maxBatch?: number;
  logger?: EngineLogger;
}

const RETRY_MS = 50;

/**
 * Writes the outcomes of inline calls behind, in small batches: the caller has its result before
 * the row says so. A batch goes out within `flushMs` (default 2 ms) of its first outcome, or at
 * `maxBatch`; a failed batch is tried once more, then logged (its calls stay `running` until the
 * API's start-up sweep puts them back on the queue). `drain` writes what waits, on shutdown.
 */
export class OutcomeWriteBehind {
  private pending: OutcomeWrite[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly writing = new Set<Promise<void>>();
  // Calls whose outcome is not in the table yet (waiting or being written).
  private readonly unwritten = new Map<string, number>();
  private readonly flushMs: number;
  private readonly maxBatch: number;
  private readonly logger: EngineLogger;

  constructor(
    private readonly store: OutcomeBatchStore,
    options: WriteBehindOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 2;
    this.maxBatch = options.maxBatch ?? 128;
    this.logger = options.logger ?? silentLogger;
  }

  add(write: OutcomeWrite): void {
    this.pending.push(write);
    this.unwritten.set(write.callId, (this.unwritten.get(write.callId) ?? 0) + 1);
    if (this.pending.length >= this.maxBatch) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Outcomes waiting to be written now. */
  get size(): number {
    return this.pending.length;
  }

  /** Writes what waits now (in the background). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const write: Promise<void> = this.write(batch).finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  /** Writes everything that waits and resolves when every batch is written (or given up). */
  async drain(): Promise<void> {
    this.flush();
    await Promise.all([...this.writing]);
  }

  /**
   * Resolves once the outcomes of these calls (all calls, without ids) are in the table, so a read
   * in this process right after a result never sees the call still `running`. Free when none waits.
   */
  async settled(callIds?: readonly string[]): Promise<void> {
    const waiting =
      callIds === undefined
        ? this.unwritten.size > 0
        : callIds.some((id) => this.unwritten.has(id));
    if (waiting) await this.drain();
  }

  private async write(batch: OutcomeWrite[]): Promise<void> {
    try {
      await this.writeWithRetry(batch);
    } finally {
      for (const write of batch) {
        const left = (this.unwritten.get(write.callId) ?? 1) - 1;
        if (left <= 0) this.unwritten.delete(write.callId);
        else this.unwritten.set(write.callId, left);
      }
    }
  }

  private async writeWithRetry(batch: OutcomeWrite[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.store.recordOutcomes(batch);
        return;
      } catch (error) {
        if (attempt >= 2) {
          this.logger.error(
            { err: error, call_ids: batch.map((write) => write.callId) },
            'writing inline call outcomes failed; the calls stay running until requeued at start',
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}

/**
 * The call repository of inline runs: outcomes go to the write-behind batch. The run inserted its
 * call already claimed, so it holds it: only a cancel in the flush window makes the batch skip it.
 */
export function withOutcomesWrittenBehind(
  calls: CallRepository,
  writer: OutcomeWriteBehind,
): CallRepository {
  return {
    getCall: (callId) => calls.getCall(callId),
    claim: (callId, run) => calls.claim(callId, run),
    takeOver: (callId, input) => calls.takeOver(callId, input),
    recordOutcome: (callId, input) => {
      writer.add({ callId, runId: input.runId, outcome: input.outcome });
      return Promise.resolve(true);
    },
  };
}
