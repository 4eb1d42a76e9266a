import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { BatchPlanError, planBatch } from '@toolgate/engine';
import {
  CallEventMessageSchema,
  ExecuteToolCallJobSchema,
  GatewayChannel,
  JobName,
  QueueName,
  subscribeWhenReady,
  type ExecuteToolCallJob,
} from '@toolgate/persistence';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import type { CallDispatcher } from './call-dispatcher';
import { failure } from './call-execution.service';
import { CallEventBus, type CallEvent } from './call-event-bus';
import { CallsRepository, type CallRow } from './calls.repository';
import { wireResultOf } from './calls.service';

// Queued calls older than this found at start had their enqueue lost (the API stopped in between).
const RECOVERY_BATCH = 1_000;
// Finished jobs are kept this long for BullMQ's own dedupe of a job id.
const KEEP_FINISHED = { count: 10_000, age: 24 * 3600 };
const VERSION_CACHE_SIZE = 1_000;
// BullMQ job states in which the call's job is still on its way to a worker.
const PENDING_JOB_STATES = new Set([
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
]);

/**
 * Hands recorded calls to the worker fleet through BullMQ (used when REDIS_URL is set):
 * one `{call_id, after}` job per call, where `after` lists the calls of the same batch it depends
 * on, so independent calls run in parallel on the workers and a dependent waits for its
 * dependencies to be final. Worker events arrive over Redis pub/sub and feed the in-process event
 * bus (SSE streams); cancellations go out the same way.
 */
@Injectable()
export class BullMqCallDispatcher
  implements CallDispatcher, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(BullMqCallDispatcher.name);
  private readonly prefix: string;
  private readonly queue: Queue;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly versions = new Map<string, ToolIR>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CallsRepository) private readonly calls: CallsRepository,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
  ) {
    const url = config.REDIS_URL;
    if (url === undefined) throw new Error('the BullMQ call dispatcher needs REDIS_URL');
    this.prefix = config.QUEUE_PREFIX;
    // BullMQ's blocking commands need maxRetriesPerRequest: null.
    this.queue = new Queue(QueueName.ToolCalls, {
      connection: new Redis(url, { maxRetriesPerRequest: null }),
      prefix: this.prefix,
    });
    this.publisher = new Redis(url, { maxRetriesPerRequest: 3 });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    for (const [name, emitter] of [
      ['queue', this.queue],
      ['publisher', this.publisher],
      ['subscriber', this.subscriber],
    ] as const) {
      emitter.on('error', (error: Error) => this.logger.error(`redis ${name}: ${error.message}`));
    }
    this.subscriber.on('message', (_channel: string, message: string) => this.received(message));
  }

  async onApplicationBootstrap(): Promise<void> {
    await subscribeWhenReady(this.subscriber, GatewayChannel.events(this.prefix));
    // Calls recorded but never enqueued (the API stopped in between) are enqueued now; calls
    // whose job is still in the queue are left to it, and running ones to stalled-job recovery.
    const queued = await this.calls.list({ teamId: null, status: 'queued', limit: RECOVERY_BATCH });
    if (queued.length > 0) this.dispatch(queued.map((row) => row.id));
    if ((await this.queue.getWorkersCount()) === 0) {
      this.logger.warn(
        `no worker consumes ${this.prefix}:${QueueName.ToolCalls} yet: calls wait in the queue until one starts (apps/worker with the same REDIS_URL, QUEUE_PREFIX and DATABASE_URL)`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    await this.queue.close();
    await Promise.all(
      [this.subscriber, this.publisher].map((connection) =>
        connection.quit().catch(() => connection.disconnect()),
      ),
    );
  }

  dispatch(callIds: readonly string[]): void {
    if (callIds.length === 0) return;
    const run = this.enqueue(callIds).catch((error: unknown) => {
      this.logger.error(`enqueueing calls ${callIds.join(', ')} failed: ${String(error)}`);
    });
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  cancelled(call: { id: string; tool: string }): void {
    // A worker running the call aborts it; a queued one finds it cancelled and skips it.
    this.publisher.publish(GatewayChannel.cancel(this.prefix), call.id).catch((error: unknown) => {
      this.logger.warn(`publishing the cancellation of ${call.id} failed: ${String(error)}`);
    });
    this.bus.emit({ type: 'cancelled', call_id: call.id, tool: call.tool, at: Date.now() });
  }

  /** Resolves when every enqueue started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async enqueue(callIds: readonly string[]): Promise<void> {
    const rows = (await this.calls.findMany(callIds)).filter((row) => row.status === 'queued');
    if (rows.length === 0) return;
    const tools = new Map<string, ToolIR>();
    for (const row of rows) {
      const ir = await this.toolVersion(row.toolId, row.toolVersion);
      if (ir !== undefined) tools.set(row.id, ir);
    }
    const calls: ToolCallIR[] = rows.map((row) => ({
      id: row.id,
      name: row.toolName,
      arguments: row.arguments as Record<string, unknown>,
      tool_version: row.toolVersion,
    }));
    let dependsOn: Map<string, string[]>;
    try {
      const plan = planBatch(calls, (call) => tools.get(call.id));
      dependsOn = new Map(plan.nodes.map((node) => [node.call.id, node.dependsOn]));
    } catch (error) {
      if (!(error instanceof BatchPlanError)) throw error;
      await this.failAll(rows, { code: 'dependency_cycle', message: error.message });
      return;
    }
    const carrier: Record<string, string> = {};
    propagation.inject(otelContext.active(), carrier);
    const jobs: Array<{ name: string; data: ExecuteToolCallJob; opts: { jobId: string } }> = [];
    for (const row of rows) {
      const jobId = await this.jobIdFor(row.id);
      if (jobId === undefined) continue;
      const after = dependsOn.get(row.id) ?? [];
      const data = ExecuteToolCallJobSchema.parse({
        call_id: row.id,
        ...(after.length === 0 ? {} : { after }),
        ...(carrier['traceparent'] === undefined ? {} : { traceparent: carrier['traceparent'] }),
        ...(carrier['tracestate'] === undefined ? {} : { tracestate: carrier['tracestate'] }),
      });
      jobs.push({ name: JobName.ExecuteToolCall, data, opts: { jobId } });
    }
    if (jobs.length === 0) return;
    await this.queue.addBulk(
      jobs.map((job) => ({
        ...job,
        opts: {
          ...job.opts,
          attempts: 3,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: KEEP_FINISHED,
          removeOnFail: KEEP_FINISHED,
        },
      })),
    );
    const at = Date.now();
    for (const job of jobs) {
      const row = rows.find((candidate) => candidate.id === job.data.call_id);
      this.publish({ type: 'queued', call_id: job.data.call_id, tool: row?.toolName ?? '', at });
    }
  }

  /** A published version's IR never changes, so it is read once per process (bounded). */
  private async toolVersion(toolId: string, version: string): Promise<ToolIR | undefined> {
    const key = `${toolId}@${version}`;
    const cached = this.versions.get(key);
    if (cached !== undefined) return cached;
    const row = await this.calls.findVersion(toolId, version);
    if (row === null) return undefined;
    // Stored versions were validated as ToolIR when they were published.
    const ir = row.ir as unknown as ToolIR;
    if (this.versions.size >= VERSION_CACHE_SIZE) this.versions.clear();
    this.versions.set(key, ir);
    return ir;
  }

  /**
   * The call id for its first job; a call queued again (after an approval decision or expiry)
   * gets a fresh id because BullMQ keeps the finished first job. Undefined while a job is pending.
   */
  private async jobIdFor(callId: string): Promise<string | undefined> {
    const state = await this.queue.getJobState(callId);
    if (state === 'unknown') return callId;
    if (PENDING_JOB_STATES.has(state)) return undefined;
    return `${callId}.${Date.now().toString(36)}`;
  }

  private async failAll(
    rows: readonly CallRow[],
    error: { code: string; message: string },
  ): Promise<void> {
    const claimed = await this.calls.claim(rows.map((row) => row.id));
    await Promise.all(claimed.map((row) => this.calls.finish(row.id, failure(row, error))));
  }

  private publish(message: { type: 'queued'; call_id: string; tool: string; at: number }): void {
    this.publisher
      .publish(GatewayChannel.events(this.prefix), JSON.stringify(message))
      .catch((error: unknown) => {
        this.logger.warn(`publishing a call event failed: ${String(error)}`);
      });
  }

  /** A worker's event: passed to local listeners; `finished` carries the stored result. */
  private received(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      this.logger.warn('ignored a call event that is not JSON');
      return;
    }
    const event = CallEventMessageSchema.safeParse(parsed);
    if (!event.success) {
      this.logger.warn('ignored a malformed call event');
      return;
    }
    if (event.data.type !== 'finished') {
      // The schema checked the common fields; the rest is the engine's event as it sent it.
      this.bus.emit(event.data as unknown as CallEvent);
      return;
    }
    const finished = event.data;
    // Waiters re-read the call themselves; only event streams need the stored result.
    this.bus.settled(finished.call_id, 'finished');
    if (!this.bus.hasSubscribers(finished.call_id)) return;
    void this.calls
      .findMany([finished.call_id])
      .then(([row]) => {
        if (row === undefined) return;
        this.bus.emit({
          ...(finished as unknown as Extract<CallEvent, { type: 'finished' }>),
          result: { ...wireResultOf(row) },
        });
      })
      .catch((error: unknown) => {
        this.logger.warn(`reading finished call ${finished.call_id} failed: ${String(error)}`);
      });
  }
}
