import type { z } from 'zod';
import { AdvanceRunJobSchema, ExecuteToolCallJobSchema, JobName } from './gateway-queue';
import type { QueueName } from './gateway-queue';

// The queue's names and payloads are shared with the API's dispatcher through @toolgate/persistence.
export {
  AdvanceRunJobSchema,
  ExecuteToolCallJobSchema,
  JobName,
  QueueName,
  type AdvanceRunJob,
  type ExecuteToolCallJob,
} from './gateway-queue';

/** The zod schema of each job's payload; every driver validates a job against it before its handler sees it. */
export const JobPayloadSchemas = {
  [JobName.ExecuteToolCall]: ExecuteToolCallJobSchema,
  [JobName.AdvanceRun]: AdvanceRunJobSchema,
} as const satisfies Record<JobName, z.ZodType>;

/** The payload type of a job name. */
export type JobPayload<TName extends JobName> = z.infer<(typeof JobPayloadSchemas)[TName]>;

/** A job to enqueue; `id` dedupes: a second job with an id the queue still holds is not added. */
export interface EnqueueJob<TName extends JobName = JobName> {
  name: TName;
  /** The dedupe key; for tool calls, the call id. */
  id: string;
  data: JobPayload<TName>;
}

/** How a job is retried when its handler throws a transient error. */
export interface EnqueueOptions {
  /** Handler runs allowed in total (transient failures are retried until then). Default 3. */
  attempts?: number;
  /** First retry delay; doubled on each retry. Default 1000. */
  backoffMs?: number;
  /** Wait this long before the job becomes available. Default 0. */
  delayMs?: number;
}

/** What `enqueue` did: `duplicate` is true when a job with this id already existed and nothing was added. */
export interface EnqueuedJob {
  id: string;
  duplicate: boolean;
}

/** A job as its handler sees it: the payload already validated. */
export interface ReceivedJob<TName extends JobName = JobName> {
  id: string;
  name: TName;
  data: JobPayload<TName>;
  /** How many times the job was started, this start included (a stalled job started again counts). */
  attempt: number;
}

/** Handles one job; its return value is the job's result, a thrown error a failure (retried unless `PermanentJobError`). */
export type JobHandler = (job: ReceivedJob) => Promise<unknown>;

/** How a driver consumes its queue. */
export interface ProcessOptions {
  /** Jobs handled at once by this process. */
  concurrency: number;
}

/** How a job ended, as `waitForResult` reports it. */
export type JobResult =
  { state: 'completed'; value: unknown } | { state: 'failed'; reason: string };

/** How `close` treats jobs in flight. */
export interface CloseOptions {
  /** Wait at most this long for handlers in flight to finish; unfinished jobs are left to stalled-job recovery. Default: wait for them. */
  drainTimeoutMs?: number;
}

/** What `close` observed: whether every handler in flight finished before the drain timeout. */
export interface CloseReport {
  drained: boolean;
}

/**
 * One queue, whatever runs it: BullMQ on Redis or an in-process queue (the embedded default).
 * Both honor the same contract: jobs dedupe by id, handlers run with bounded concurrency, a thrown
 * error is retried with backoff, a `PermanentJobError` or a malformed payload fails the job at once.
 */
export interface QueueDriver {
  readonly kind: 'bullmq' | 'in-process';
  readonly queue: QueueName;
  /** Adds a job unless one with its id is still held by the queue. */
  enqueue<TName extends JobName>(
    job: EnqueueJob<TName>,
    options?: EnqueueOptions,
  ): Promise<EnqueuedJob>;
  /**
   * Adds several jobs in one round trip (a turn's calls); a job whose id the queue still holds is
   * skipped, as with `enqueue`, but not reported: the hot path does not pay a lookup per job.
   */
  enqueueBulk<TName extends JobName>(
    jobs: readonly EnqueueJob<TName>[],
    options?: EnqueueOptions,
  ): Promise<void>;
  /** Starts handling jobs; call once per driver. */
  process(handler: JobHandler, options: ProcessOptions): Promise<void>;
  /** Resolves when the job completes or fails for good; rejects after `timeoutMs`. */
  waitForResult(id: string, options: { timeoutMs: number }): Promise<JobResult>;
  /** Stops taking jobs, lets handlers in flight finish (bounded by the drain timeout), and releases connections. */
  close(options?: CloseOptions): Promise<CloseReport>;
}

/** Thrown by a handler (or a driver) for a job that can never succeed: it fails at once and is not retried. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/** Thrown by a handler whose job cannot start yet (a dependency is not final): it runs again after `delayMs`, not counted as a failure. */
export class DeferJobError extends Error {
  override readonly name = 'DeferJobError';
  constructor(readonly delayMs: number) {
    super(`job deferred for ${delayMs} ms`);
  }
}

/** Validates a received payload against its job's schema; a malformed job becomes a `PermanentJobError` naming every issue. */
export function parseJobPayload(input: {
  id: string;
  name: string;
  data: unknown;
}): ReceivedJob['data'] {
  const schema = (JobPayloadSchemas as Record<string, z.ZodType | undefined>)[input.name];
  if (schema === undefined) {
    throw new PermanentJobError(`job ${input.id} has an unknown name "${input.name}"`);
  }
  const parsed = schema.safeParse(input.data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map(
        (issue) =>
          `${issue.path.length > 0 ? issue.path.join('.') : '(payload)'}: ${issue.message}`,
      )
      .join('; ');
    throw new PermanentJobError(`malformed ${input.name} job ${input.id}: ${issues}`);
  }
  return parsed.data as ReceivedJob['data'];
}

/** Whether a name is one of the worker's job names. */
export function isJobName(name: string): name is JobName {
  return Object.values(JobName).includes(name as JobName);
}

/** Default retry settings of enqueued jobs. */
export const DEFAULT_ENQUEUE_OPTIONS: Required<EnqueueOptions> = {
  attempts: 3,
  backoffMs: 1000,
  delayMs: 0,
};
