import type { EngineLogger } from '@toolgate/engine';
import { silentLogger } from '@toolgate/engine';
import { DelayedError, Job, Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import type { Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
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
  isJobName,
  parseJobPayload,
} from './queue-driver';

/** How quickly a dead worker's jobs are noticed and handed to another worker. */
export interface StalledJobSettings {
  /** A worker holds a job's lock this long and renews it at half this period; a dead worker's lock expires after it. */
  lockDurationMs: number;
  /** How often each worker looks for jobs whose lock expired and moves them back to wait. */
  stalledIntervalMs: number;
  /** Stalls a job survives; one more fails it for good (`job stalled more than allowable limit`). */
  maxStalledCount: number;
}

/** Production defaults: a killed worker's call is picked up again within about 45 s. */
export const DEFAULT_STALLED_JOB_SETTINGS: StalledJobSettings = {
  lockDurationMs: 30_000,
  stalledIntervalMs: 15_000,
  maxStalledCount: 2,
};

/** Options of the BullMQ driver. */
export interface BullMqDriverOptions {
  queue: QueueName;
  redisUrl: string;
  /** Namespaces every Redis key of the queue (`<prefix>:<queue>:*`); tests use `toolgate-test-<random>`. */
  prefix: string;
  /** Shown in BullMQ's job records and logs as the worker that processed a job. */
  workerName?: string;
  stalled?: Partial<StalledJobSettings>;
  /** Finished jobs kept for dedupe and `waitForResult`: this many, for at most this long. */
  keepFinished?: { count: number; ageSeconds: number };
  logger?: EngineLogger;
}

const ENCODED_ID_PREFIX = 'enc.';

/** BullMQ refuses ids that contain `:` or are integers; such ids are encoded, deterministically, so dedupe still holds. */
export function toBullJobId(id: string): string {
  if (id.includes(':') || /^\d+$/.test(id) || id.startsWith(ENCODED_ID_PREFIX)) {
    return `${ENCODED_ID_PREFIX}${Buffer.from(id, 'utf8').toString('base64url')}`;
  }
  return id;
}

/** The id given to `enqueue`, from a BullMQ job id. */
export function fromBullJobId(jobId: string): string {
  return jobId.startsWith(ENCODED_ID_PREFIX)
    ? Buffer.from(jobId.slice(ENCODED_ID_PREFIX.length), 'base64url').toString('utf8')
    : jobId;
}

/**
 * A queue on Redis through BullMQ: a Queue to add jobs, a Worker to process them (created by
 * `process`) and QueueEvents to wait for results (created on first `waitForResult`).
 * A worker that dies mid-job stops renewing its lock; another worker's stalled check moves the job
 * back to wait, and it runs again there (the processor decides whether running again is safe).
 */
export class BullMqDriver implements QueueDriver {
  readonly kind = 'bullmq';
  readonly queue: QueueName;
  private readonly options: BullMqDriverOptions;
  private readonly stalled: StalledJobSettings;
  private readonly logger: EngineLogger;
  private readonly connections: Redis[] = [];
  private readonly bullQueue: Queue;
  private worker: Worker | undefined;
  private queueEvents: Promise<QueueEvents> | undefined;
  private closed = false;

  constructor(options: BullMqDriverOptions) {
    this.options = options;
    this.queue = options.queue;
    this.stalled = { ...DEFAULT_STALLED_JOB_SETTINGS, ...options.stalled };
    this.logger = options.logger ?? silentLogger;
    this.bullQueue = new Queue(options.queue, {
      connection: this.connect(),
      prefix: options.prefix,
    });
    this.bullQueue.on('error', (error) =>
      this.logger.error({ queue: this.queue, err: error }, 'queue error'),
    );
  }

  async enqueue<TName extends JobName>(
    job: EnqueueJob<TName>,
    options: EnqueueOptions = {},
  ): Promise<EnqueuedJob> {
    const jobId = toBullJobId(job.id);
    // `duplicate` is best-effort under concurrent enqueues of one id; the dedupe itself is atomic in BullMQ's add script.
    const existed = (await this.bullQueue.getJobState(jobId)) !== 'unknown';
    if (existed) return { id: job.id, duplicate: true };
    await this.bullQueue.add(job.name, job.data, { jobId, ...this.jobOptions(options) });
    return { id: job.id, duplicate: false };
  }

  async enqueueBulk<TName extends JobName>(
    jobs: readonly EnqueueJob<TName>[],
    options: EnqueueOptions = {},
  ): Promise<void> {
    if (jobs.length === 0) return;
    const settings = this.jobOptions(options);
    const [only] = jobs;
    if (jobs.length === 1 && only !== undefined) {
      // A turn of one call (the common case): one script call, without MULTI around it.
      await this.bullQueue.add(only.name, only.data, { jobId: toBullJobId(only.id), ...settings });
      return;
    }
    // One MULTI for the whole turn; BullMQ's add script skips an id it still holds.
    await this.bullQueue.addBulk(
      jobs.map((job) => ({
        name: job.name,
        data: job.data,
        opts: { jobId: toBullJobId(job.id), ...settings },
      })),
    );
  }

  private jobOptions(options: EnqueueOptions) {
    const settings = { ...DEFAULT_ENQUEUE_OPTIONS, ...options };
    const keep = this.options.keepFinished ?? { count: 10_000, ageSeconds: 24 * 3600 };
    return {
      attempts: settings.attempts,
      backoff: { type: 'exponential', delay: settings.backoffMs },
      delay: settings.delayMs,
      removeOnComplete: { count: keep.count, age: keep.ageSeconds },
      removeOnFail: { count: keep.count, age: keep.ageSeconds },
    };
  }

  process(handler: JobHandler, options: ProcessOptions): Promise<void> {
    if (this.worker !== undefined) return Promise.reject(new Error('process() was already called'));
    const worker = new Worker(
      this.queue,
      (job: BullJob, token?: string) => this.handle(job, { handler, token }),
      {
        connection: this.connect(),
        prefix: this.options.prefix,
        concurrency: Math.max(1, options.concurrency),
        lockDuration: this.stalled.lockDurationMs,
        stalledInterval: this.stalled.stalledIntervalMs,
        maxStalledCount: this.stalled.maxStalledCount,
        ...(this.options.workerName === undefined ? {} : { name: this.options.workerName }),
      },
    );
    worker.on('error', (error) =>
      this.logger.error({ queue: this.queue, err: error }, 'worker error'),
    );
    worker.on('stalled', (jobId) =>
      this.logger.warn(
        { queue: this.queue, job_id: fromBullJobId(jobId) },
        'job stalled; moved back to wait',
      ),
    );
    worker.on('failed', (job, error) =>
      this.logger.warn(
        {
          queue: this.queue,
          job_id: job === undefined ? undefined : fromBullJobId(job.id ?? ''),
          reason: error.message,
        },
        'job failed',
      ),
    );
    this.worker = worker;
    return worker.waitUntilReady().then(() => undefined);
  }

  async waitForResult(id: string, options: { timeoutMs: number }): Promise<JobResult> {
    const events = await this.events();
    const job = await Job.fromId(this.bullQueue, toBullJobId(id));
    if (job === undefined) throw new Error(`no job ${id} in queue ${this.queue}`);
    try {
      const value: unknown = await job.waitUntilFinished(events, options.timeoutMs);
      return { state: 'completed', value: value ?? null };
    } catch (error) {
      const latest = await Job.fromId(this.bullQueue, toBullJobId(id));
      const state = latest === undefined ? 'unknown' : await latest.getState();
      if (latest !== undefined && state === 'failed')
        return { state: 'failed', reason: latest.failedReason };
      throw error;
    }
  }

  async close(options: CloseOptions = {}): Promise<CloseReport> {
    if (this.closed) return { drained: true };
    this.closed = true;
    let drained = true;
    const worker = this.worker;
    if (worker !== undefined) {
      // Pausing stops fetching at once and resolves when the jobs in flight are done.
      const paused = worker.pause().then(() => true);
      drained = await withTimeout(paused, options.drainTimeoutMs);
      // Past the drain timeout, close without waiting: the unfinished jobs' locks lapse and
      // another worker's stalled check hands them on.
      await worker.close(!drained);
    }
    if (this.queueEvents !== undefined) await (await this.queueEvents).close();
    await this.bullQueue.close();
    await Promise.all(this.connections.map((connection) => quietly(connection)));
    return { drained };
  }

  /** Removes every key of the queue (tests and resets only). */
  async obliterate(): Promise<void> {
    await this.bullQueue.obliterate({ force: true });
  }

  private async handle(
    job: BullJob,
    input: { handler: JobHandler; token: string | undefined },
  ): Promise<unknown> {
    const { handler } = input;
    const id = fromBullJobId(job.id ?? '');
    try {
      if (!isJobName(job.name))
        throw new PermanentJobError(`job ${id} has an unknown name "${job.name}"`);
      const data = parseJobPayload({ id, name: job.name, data: job.data });
      return await handler({ id, name: job.name, data, attempt: job.attemptsStarted });
    } catch (error) {
      if (error instanceof DeferJobError && input.token !== undefined) {
        // Back to delayed without spending an attempt; BullMQ wants DelayedError thrown after the move.
        await job.moveToDelayed(Date.now() + error.delayMs, input.token);
        throw new DelayedError();
      }
      // BullMQ retries anything but UnrecoverableError; a permanent failure must not come back.
      if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  private events(): Promise<QueueEvents> {
    this.queueEvents ??= (async () => {
      const events = new QueueEvents(this.queue, {
        connection: this.connect(),
        prefix: this.options.prefix,
      });
      events.on('error', (error) =>
        this.logger.error({ queue: this.queue, err: error }, 'queue events error'),
      );
      await events.waitUntilReady();
      return events;
    })();
    return this.queueEvents;
  }

  private connect(): Redis {
    // BullMQ's blocking commands need maxRetriesPerRequest: null.
    const connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', (error) =>
      this.logger.error({ queue: this.queue, err: error }, 'redis connection error'),
    );
    this.connections.push(connection);
    return connection;
  }
}

async function withTimeout(
  promise: Promise<boolean>,
  timeoutMs: number | undefined,
): Promise<boolean> {
  if (timeoutMs === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function quietly(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
