import type { EngineLogger } from '@toolgate/engine';
import { silentLogger } from '@toolgate/engine';
import type {
  CloseOptions,
  CloseReport,
  EnqueuedJob,
  EnqueueJob,
  EnqueueOptions,
  JobHandler,
  JobName,
  JobResult,
  ProcessOptions,
  QueueDriver,
  QueueName,
} from './queue-driver';
import {
  DEFAULT_ENQUEUE_OPTIONS,
  DeferJobError,
  PermanentJobError,
  parseJobPayload,
} from './queue-driver';

interface Entry {
  id: string;
  name: JobName;
  /** The payload as JSON text, so handlers see what a Redis round trip would give them. */
  payload: string;
  options: Required<EnqueueOptions>;
  attemptsStarted: number;
  attemptsMade: number;
  result?: JobResult;
  waiters: ((result: JobResult) => void)[];
}

/** Options of the in-process queue. */
export interface InProcessDriverOptions {
  queue: QueueName;
  /** Finished jobs remembered for dedupe and `waitForResult`; the oldest are forgotten first. Default 10 000. */
  keepFinished?: number;
  logger?: EngineLogger;
}

/**
 * A queue held in this process's memory: the embedded default when no REDIS_URL is set.
 * Same contract as the BullMQ driver (dedupe by id, bounded concurrency, retries with backoff,
 * permanent failures), but jobs do not survive the process.
 */
export class InProcessDriver implements QueueDriver {
  readonly kind = 'in-process';
  readonly queue: QueueName;
  private readonly keepFinished: number;
  private readonly logger: EngineLogger;
  private readonly entries = new Map<string, Entry>();
  private readonly finishedOrder: string[] = [];
  private readonly waiting: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly active = new Set<Promise<void>>();
  private handler: JobHandler | undefined;
  private concurrency = 1;
  private closing = false;

  constructor(options: InProcessDriverOptions) {
    this.queue = options.queue;
    this.keepFinished = options.keepFinished ?? 10_000;
    this.logger = options.logger ?? silentLogger;
  }

  enqueue<TName extends JobName>(
    job: EnqueueJob<TName>,
    options: EnqueueOptions = {},
  ): Promise<EnqueuedJob> {
    if (this.closing) return Promise.reject(new Error(`queue ${this.queue} is closed`));
    if (this.entries.has(job.id)) return Promise.resolve({ id: job.id, duplicate: true });
    const entry: Entry = {
      id: job.id,
      name: job.name,
      payload: JSON.stringify(job.data),
      options: { ...DEFAULT_ENQUEUE_OPTIONS, ...options },
      attemptsStarted: 0,
      attemptsMade: 0,
      waiters: [],
    };
    this.entries.set(job.id, entry);
    this.schedule(entry, entry.options.delayMs);
    return Promise.resolve({ id: job.id, duplicate: false });
  }

  async enqueueBulk<TName extends JobName>(
    jobs: readonly EnqueueJob<TName>[],
    options: EnqueueOptions = {},
  ): Promise<void> {
    for (const job of jobs) await this.enqueue(job, options);
  }

  process(handler: JobHandler, options: ProcessOptions): Promise<void> {
    if (this.handler !== undefined)
      return Promise.reject(new Error('process() was already called'));
    this.handler = handler;
    this.concurrency = Math.max(1, options.concurrency);
    this.pump();
    return Promise.resolve();
  }

  waitForResult(id: string, options: { timeoutMs: number }): Promise<JobResult> {
    const entry = this.entries.get(id);
    if (entry === undefined)
      return Promise.reject(new Error(`no job ${id} in queue ${this.queue}`));
    if (entry.result !== undefined) return Promise.resolve(entry.result);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        entry.waiters = entry.waiters.filter((waiter) => waiter !== done);
        reject(new Error(`job ${id} did not finish within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      const done = (result: JobResult): void => {
        clearTimeout(timer);
        resolve(result);
      };
      entry.waiters.push(done);
    });
  }

  async close(options: CloseOptions = {}): Promise<CloseReport> {
    this.closing = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const inFlight = Promise.all([...this.active]).then(() => true);
    if (options.drainTimeoutMs === undefined) return { drained: await inFlight };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), options.drainTimeoutMs);
    });
    const drained = await Promise.race([inFlight, timeout]);
    clearTimeout(timer);
    return { drained };
  }

  private schedule(entry: Entry, delayMs: number): void {
    if (delayMs <= 0) {
      this.waiting.push(entry.id);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.waiting.push(entry.id);
      this.pump();
    }, delayMs);
    this.timers.add(timer);
  }

  private pump(): void {
    const handler = this.handler;
    if (handler === undefined) return;
    while (!this.closing && this.active.size < this.concurrency) {
      const id = this.waiting.shift();
      if (id === undefined) return;
      const entry = this.entries.get(id);
      if (entry === undefined) continue;
      const run: Promise<void> = this.run(entry, handler).finally(() => {
        this.active.delete(run);
        this.pump();
      });
      this.active.add(run);
    }
  }

  private async run(entry: Entry, handler: JobHandler): Promise<void> {
    entry.attemptsStarted += 1;
    try {
      const data = parseJobPayload({
        id: entry.id,
        name: entry.name,
        data: JSON.parse(entry.payload),
      });
      const value = await handler({
        id: entry.id,
        name: entry.name,
        data,
        attempt: entry.attemptsStarted,
      });
      // Results are stored as JSON, as BullMQ stores them.
      const stored: unknown = value === undefined ? null : JSON.parse(JSON.stringify(value));
      this.finish(entry, { state: 'completed', value: stored });
    } catch (error) {
      if (error instanceof DeferJobError && !this.closing) {
        // Not a failure: the job waits for something else (a dependency) and comes back later.
        this.schedule(entry, error.delayMs);
        return;
      }
      entry.attemptsMade += 1;
      const reason = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      if (permanent || entry.attemptsMade >= entry.options.attempts || this.closing) {
        this.logger.warn(
          { job_id: entry.id, job: entry.name, attempts: entry.attemptsMade, reason },
          'job failed',
        );
        this.finish(entry, { state: 'failed', reason });
        return;
      }
      const delay = entry.options.backoffMs * 2 ** (entry.attemptsMade - 1);
      this.logger.warn(
        { job_id: entry.id, job: entry.name, attempt: entry.attemptsMade, delay_ms: delay, reason },
        'job failed; retrying',
      );
      this.schedule(entry, delay);
    }
  }

  private finish(entry: Entry, result: JobResult): void {
    entry.result = result;
    for (const waiter of entry.waiters) waiter(result);
    entry.waiters = [];
    this.finishedOrder.push(entry.id);
    while (this.finishedOrder.length > this.keepFinished) {
      const forgotten = this.finishedOrder.shift();
      if (forgotten !== undefined) this.entries.delete(forgotten);
    }
  }
}
