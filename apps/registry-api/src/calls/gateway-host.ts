import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  InMemoryRateLimiter,
  InMemoryResultCacheStore,
  ResultCache,
  type EngineLogger,
  type RateLimiter,
  type ResultCacheStore,
} from '@toolgate/engine';
import {
  CallBudgets,
  CallCancellation,
  CallDispatcher,
  CallRunner,
  ClientRelayHub,
  InMemorySpendCounters,
  InProcessClientRelayChannel,
  OutcomeWriteBehind,
  RedisClientRelayChannel,
  RedisRateLimiter,
  RedisSpendCounters,
  RedisResultCacheStore,
  createGatewayExecutors,
  registryContextFactory,
  withOutcomesWrittenBehind,
  type CallFinishedMessage,
  type ClientRelayChannel,
  type DispatchedCall,
  type EngineDeps,
  type SpendCounters,
} from '@toolgate/gateway';
import {
  BullMqDriver,
  CallEventMessageSchema,
  CallStore,
  GatewayCatalog,
  GatewayChannel,
  InProcessDriver,
  PgApprovalStore,
  QueueName,
  listenForCatalogChanges,
  recordOfRow,
  subscribeWhenReady,
  waitForRedis,
  type CallRepository,
  type CallRow,
  type CallRun,
  type CatalogListener,
  type QueueDriver,
} from '@toolgate/persistence';
import type { ToolIR } from '@toolgate/toolir';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import type { Database } from '../database/database';
import { APP_CONFIG, DATABASE } from '../database/database.tokens';
import { ExportCache } from '../exports/export-cache';
import { SecretVault } from '../secrets/secret-vault';
import { CallEventBus, type CallEvent } from './call-event-bus';
import { GATEWAY_OPTIONS, type GatewayOptions } from './gateway-options';

// Queued calls found at start whose enqueue was lost (the API stopped in between).
const RECOVERY_BATCH = 1_000;
// Calls of one process running at once in the embedded default.
const EMBEDDED_CONCURRENCY = 64;
// An inline run older than this was left by a process that stopped; its tool is idempotent.
const STALE_INLINE_MS = 10 * 60_000;

/** Nest's logger as the engine's structured logger. */
export function engineLogger(logger: Logger): EngineLogger {
  const line = (bindings: Record<string, unknown>, message: string | undefined) =>
    `${message ?? ''} ${JSON.stringify(bindings)}`;
  return {
    debug: (bindings, message) => logger.debug(line(bindings, message)),
    info: (bindings, message) => logger.log(line(bindings, message)),
    warn: (bindings, message) => logger.warn(line(bindings, message)),
    error: (bindings, message) => logger.error(line(bindings, message)),
  };
}

/**
 * The call path of this API process, on the one call runner and data layer the worker uses too:
 * the call store and catalog on the database's query port, the dispatcher onto the queue (BullMQ
 * with REDIS_URL, else the in-process queue whose consumer is a runner here), and the inline
 * runner for readonly tools declared `execution: "inline"`. Events of calls run here go to the
 * event bus directly; a worker's come over Redis with their outcome.
 */
@Injectable()
export class GatewayHost implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly calls: CallStore;
  readonly catalog: GatewayCatalog;
  readonly dispatcher: CallDispatcher;
  /** What upstream MCP servers ask during calls, to the sessions here that made them. */
  readonly clientRelays: ClientRelayHub;
  /** The spend of teams and keys per period, as the call path counts it (shown with budgets). */
  readonly spend: SpendCounters;
  private readonly logger = new Logger('Gateway');
  private readonly engineLogger = engineLogger(this.logger);
  private readonly instanceId = `api-${randomUUID().slice(0, 8)}`;
  private readonly driver: QueueDriver;
  private readonly cancellation = new CallCancellation();
  private readonly queuedRunner: CallRunner | undefined;
  private readonly inlineRunner: CallRunner;
  private readonly writeBehind: OutcomeWriteBehind;
  private readonly inlineRuns = new Set<Promise<unknown>>();
  private readonly redis: { publisher: Redis; subscriber: Redis } | undefined;
  private readonly prefix: string;
  private catalogListener: CatalogListener | undefined;

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) database: Database,
    @Inject(GATEWAY_OPTIONS) options: GatewayOptions,
    @Inject(CallEventBus) private readonly bus: CallEventBus,
    @Inject(ExportCache) exports: ExportCache,
    @Inject(SecretVault) secrets: SecretVault,
  ) {
    this.prefix = config.QUEUE_PREFIX;
    this.catalog = new GatewayCatalog(database.sql);
    // Every catalog change committed here clears the export cache: the gateway's catalog follows.
    exports.onInvalidate(() => this.catalog.invalidate());
    this.calls = new CallStore(database.sql, (toolId, version) =>
      this.catalog.versionIr(toolId, version),
    );
    const logger = this.engineLogger;
    const url = config.REDIS_URL;
    let rateLimiter: RateLimiter = new InMemoryRateLimiter();
    let relayChannel: ClientRelayChannel = new InProcessClientRelayChannel();
    let spend: SpendCounters = new InMemorySpendCounters();
    let resultCacheStore: ResultCacheStore = new InMemoryResultCacheStore();
    if (url === undefined) {
      this.driver = new InProcessDriver({ queue: QueueName.ToolCalls, logger });
    } else {
      const publisher = new Redis(url, { maxRetriesPerRequest: 3 });
      const subscriber = new Redis(url, { maxRetriesPerRequest: null });
      for (const [name, connection] of [
        ['publisher', publisher],
        ['subscriber', subscriber],
      ] as const) {
        connection.on('error', (error: Error) =>
          this.logger.error(`redis ${name}: ${error.message}`),
        );
      }
      const events = GatewayChannel.events(this.prefix);
      // The relay channel shares this connection and reads its own channels' messages.
      subscriber.on('message', (channel: string, message: string) => {
        if (channel === events) this.received(message);
      });
      // Events published while the connection was down are gone: streams re-read their calls.
      subscriber.on('ready', () => this.bus.resync());
      this.redis = { publisher, subscriber };
      // Inline calls share the fleet's limits.
      rateLimiter = new RedisRateLimiter({ redis: publisher, prefix: this.prefix });
      // Spend is counted where workers and other replicas count it, so one budget holds fleet-wide.
      spend = new RedisSpendCounters({ redis: publisher, prefix: this.prefix });
      // Cached results are shared with the workers and the other replicas.
      resultCacheStore = new RedisResultCacheStore({ redis: publisher, prefix: this.prefix });
      // Workers run calls whose sessions are here, and calls run here may be another replica's.
      relayChannel = new RedisClientRelayChannel({
        redis: publisher,
        subscriber,
        prefix: this.prefix,
        logger,
      });
      this.driver = new BullMqDriver({
        queue: QueueName.ToolCalls,
        redisUrl: url,
        prefix: this.prefix,
        logger,
      });
    }
    const engine: EngineDeps = {
      executors: createGatewayExecutors({
        builtins: options.builtins,
        secrets: options.secrets,
        egress: options.egress,
      }),
      rateLimiter,
      resultCache: new ResultCache(resultCacheStore, { logger }),
      logger,
      traceContent: options.traceContent,
      // Events of calls run here: `finished` is announced by the runner once the outcome is stored.
      events: {
        emit: (event) => {
          if (event.type !== 'finished') this.bus.emit(event);
        },
      },
    };
    const createContext = registryContextFactory(engine, {
      catalog: this.catalog,
      approvals: new PgApprovalStore(database.sql),
      approvalTtlMs: options.approvalTtlMs,
      secrets: secrets.store,
    });
    const finished = (message: CallFinishedMessage) => this.bus.emit(message);
    this.spend = spend;
    const budgets = new CallBudgets({
      counters: spend,
      budgetsOf: (teamId) => this.catalog.budgetsOf(teamId),
    });
    this.clientRelays = new ClientRelayHub(relayChannel, { logger });
    const runner = (calls: CallRepository) =>
      new CallRunner({
        calls,
        createContext,
        workerId: this.instanceId,
        cancellation: this.cancellation,
        clientRelays: this.clientRelays,
        finished,
        budgets,
        logger,
      });
    this.writeBehind = new OutcomeWriteBehind(this.calls, { logger });
    this.inlineRunner = runner(withOutcomesWrittenBehind(this.calls, this.writeBehind));
    if (url === undefined) this.queuedRunner = runner(this.calls);
    this.dispatcher = new CallDispatcher({ driver: this.driver, calls: this.calls, logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    const runner = this.queuedRunner;
    if (runner !== undefined) {
      await this.driver.process((job) => runner.process(job), {
        concurrency: EMBEDDED_CONCURRENCY,
      });
    }
    if (this.config.DATABASE_URL !== undefined) {
      // Catalog changes made by other API replicas (their NOTIFY) clear this one's catalog.
      this.catalogListener = await listenForCatalogChanges({
        url: this.config.DATABASE_URL,
        onChange: () => this.catalog.invalidate(),
        logger: this.engineLogger,
      });
    }
    if (this.redis !== undefined) {
      // An API started before its Redis waits for it (with ioredis' backoff) instead of failing.
      const wait = { logger: this.engineLogger };
      await subscribeWhenReady(this.redis.subscriber, [GatewayChannel.events(this.prefix)], wait);
      await waitForRedis(this.redis.publisher, wait);
    }
    // Calls recorded but never enqueued (the API stopped in between) are enqueued now, under their
    // own ids, so a job still in the queue is not doubled; running ones are left to stalled-job
    // recovery, inline ones left running by a stopped process go back to the queue.
    try {
      await this.calls.requeueStaleInline(STALE_INLINE_MS);
      // Calls whose approval was decided or expired by a process that stopped before requeueing them.
      await this.calls.requeueDecided();
      const queued = await this.calls.list({
        teamId: null,
        status: 'queued',
        limit: RECOVERY_BATCH,
      });
      await this.dispatcher.recover(queued.map((row) => row.id));
    } catch (error) {
      // An unreachable database at start is reported by readiness; the API still starts.
      this.logger.warn(`recovering queued calls failed: ${String(error)}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inlineRuns]);
    await this.driver.close({ drainTimeoutMs: 10_000 });
    await this.writeBehind.drain();
    await this.catalogListener?.stop();
    await this.clientRelays.close();
    if (this.redis !== undefined) {
      await Promise.all(
        [this.redis.subscriber, this.redis.publisher].map((connection) =>
          connection.quit().catch(() => connection.disconnect()),
        ),
      );
    }
  }

  /** Resolves once inline outcomes of these calls (all, without ids) written behind are stored. */
  settled(callIds?: readonly string[]): Promise<void> {
    return this.writeBehind.settled(callIds);
  }

  /** A pickup of a call by this process, written into the row that records it (inline calls). */
  inlineRun(): CallRun {
    return {
      worker_id: `inline:${this.instanceId}`,
      attempt: 1,
      run_id: randomUUID(),
      started_at: Date.now(),
    };
  }

  /** Runs calls recorded already claimed by this process, with no queue hop; returns at once. */
  runInline(
    calls: ReadonlyArray<{ row: CallRow; tool: ToolIR }>,
    options: { cache?: 'refresh' } = {},
  ): void {
    for (const { row, tool } of calls) {
      const record = recordOfRow(row, tool);
      const run = record.run;
      if (run === undefined) continue;
      const running = this.inlineRunner
        .runClaimed({ record, run, ...options })
        .catch((error: unknown) => {
          this.logger.error(`running inline call ${row.id} failed: ${String(error)}`);
        });
      this.inlineRuns.add(running);
      void running.finally(() => this.inlineRuns.delete(running));
    }
  }

  /** Enqueues a turn's new calls; a failed enqueue leaves them queued for the start-up recovery. */
  dispatch(calls: readonly DispatchedCall[], options: { cache?: 'refresh' } = {}): void {
    this.dispatcher.dispatchTurn(calls, options).catch((error: unknown) => {
      this.logger.error(`enqueueing calls failed: ${String(error)}`);
    });
  }

  /** Puts calls back on the queue (an approval was decided or expired). */
  requeue(callIds: readonly string[]): void {
    this.dispatcher.requeue(callIds).catch((error: unknown) => {
      this.logger.error(`re-enqueueing calls ${callIds.join(', ')} failed: ${String(error)}`);
    });
  }

  /** Told after a call was marked cancelled: aborts it wherever it runs and tells its listeners. */
  cancelled(call: { id: string; tool: string }): void {
    this.cancellation.cancel(call.id);
    this.redis?.publisher
      .publish(GatewayChannel.cancel(this.prefix), call.id)
      .catch((error: unknown) => {
        this.logger.warn(`publishing the cancellation of ${call.id} failed: ${String(error)}`);
      });
    this.bus.emit({ type: 'cancelled', call_id: call.id, tool: call.tool, at: Date.now() });
  }

  /** Someone streams this call: workers start publishing its progress events. */
  watch(callId: string): void {
    this.redis?.publisher.publish(GatewayChannel.watch(this.prefix), callId).catch(() => undefined);
  }

  /** A worker's event, for local listeners; `finished` carries the stored outcome. */
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
    // The schema checked the common fields; the rest is the worker's event as it sent it.
    this.bus.emit(event.data as unknown as CallEvent);
  }
}
