import type { Tracer } from '@opentelemetry/api';
import {
  describeEgressPolicy,
  InMemoryRateLimiter,
  InMemoryResultCacheStore,
  ResultCache,
} from '@toolgate/engine';
import type {
  ApprovalGate,
  BuiltinExecutor,
  EngineLogger,
  EventSink,
  PolicyEngine,
  RateLimiter,
  ResultCacheStore,
  SecretResolver,
  ToolResolver,
} from '@toolgate/engine';
import {
  CallBudgets,
  CallCancellation,
  CallRunner,
  ClientRelayHub,
  RedisClientRelayChannel,
  InMemoryCallRepository,
  InMemorySpendCounters,
  RedisRateLimiter,
  RedisSpendCounters,
  RedisResultCacheStore,
  WatchedCalls,
  createEngineContext,
  createExampleBuiltins,
  createGatewayExecutors,
  gatewayEgressFromSettings,
  redisCallEvents,
  registryContextFactory,
  traceContentOf,
  type CallFinishedMessage,
  type CreateEngineContext,
  type EngineDeps,
  type SpendCounters,
} from '@toolgate/gateway';
import {
  BullMqDriver,
  CallStore,
  GatewayCatalog,
  GatewayChannel,
  InProcessDriver,
  PgApprovalStore,
  SecretKeyring,
  SecretStore,
  QueueName,
  listenForCatalogChanges,
  pgPoolPort,
  subscribeWhenReady,
  waitForRedis,
  type CallRepository,
  type CatalogListener,
  type CloseReport,
  type QueueDriver,
} from '@toolgate/persistence';
import { Redis } from 'ioredis';
import pg from 'pg';

import type { WorkerConfig } from '../config/worker.config';
import { RedisCallRepository } from '../tool-calls/redis-call.repository';

/** What a worker is wired from besides its config; everything is optional and has a default. */
export interface StartWorkerOptions {
  config: WorkerConfig;
  logger: EngineLogger;
  /** The builtin tools this worker can run; default: the example tools. */
  builtins?: BuiltinExecutor;
  /** Resolves `{secret}` header values of http and mcp tools. */
  secrets?: SecretResolver;
  tracer?: Tracer;
  events?: EventSink;
  approvals?: ApprovalGate;
  policy?: PolicyEngine;
  /** Finds fallback tools by name and version. */
  resolveTool?: ToolResolver;
  /** Wraps the call repository chosen from the config (instrumentation, tests). */
  decorateCalls?: (calls: CallRepository) => CallRepository;
}

/** A running worker: its queue, its call records and how to stop it. */
export interface WorkerHandle {
  readonly driver: QueueDriver;
  readonly calls: CallRepository;
  readonly workerId: string;
  /** A one-line account of what the worker consumes, for the start-up log. */
  readonly description: string;
  /** What the egress policy lets tools reach, for the start log. */
  readonly egress: string;
  /** Stops taking jobs, lets calls in flight finish within the drain timeout, closes every connection. */
  close(options?: { drainTimeoutMs?: number }): Promise<CloseReport>;
}

/** Wires config -> Redis -> call repository -> executors -> processor -> queue driver, and starts consuming. */
export async function startWorker(options: StartWorkerOptions): Promise<WorkerHandle> {
  const { config, logger } = options;
  const redisUrl = config.REDIS_URL;
  const redis =
    redisUrl === undefined ? undefined : new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  redis?.on('error', (error) => logger.error({ err: error }, 'redis connection error'));

  // With Postgres the worker shares the API's record of each call; Redis records serve tests without it.
  const pool =
    config.DATABASE_URL === undefined
      ? undefined
      : new pg.Pool({
          connectionString: config.DATABASE_URL,
          // A claim and an outcome are short statements: a few connections serve many calls in
          // flight, and fewer backends contend less for the database's cores (measured with bench:gateway).
          max: Math.min(16, config.WORKER_CONCURRENCY + 4),
        });
  pool?.on('error', (error) => logger.error({ err: error }, 'postgres pool error'));
  const db = pool === undefined ? undefined : pgPoolPort(pool);
  const catalog = db === undefined ? undefined : new GatewayCatalog(db);
  const cancellation = new CallCancellation();
  const watched = new WatchedCalls();
  let subscriber: Redis | undefined;
  let clientRelays: ClientRelayHub | undefined;
  let catalogListener: CatalogListener | undefined;
  if (config.DATABASE_URL !== undefined && catalog !== undefined) {
    // Tools, versions, releases and policies are served from memory until the registry says otherwise.
    catalogListener = await listenForCatalogChanges({
      url: config.DATABASE_URL,
      onChange: () => catalog.invalidate(),
      logger,
    });
  }

  let calls: CallRepository;
  let rateLimiter: RateLimiter;
  let spend: SpendCounters = new InMemorySpendCounters();
  let resultCacheStore: ResultCacheStore;
  let driver: QueueDriver;
  let finished: ((message: CallFinishedMessage) => void) | undefined;
  let engineEvents: EventSink | undefined;
  if (redis !== undefined && redisUrl !== undefined) {
    calls =
      db === undefined || catalog === undefined
        ? new RedisCallRepository({
            redis,
            prefix: config.QUEUE_PREFIX,
            retentionSeconds: config.CALL_RETENTION_SECONDS,
          })
        : new CallStore(db, (toolId, version) => catalog.versionIr(toolId, version));
    // Events go out to the API (SSE, waiters); cancel and watch messages come in from it.
    const sinks = redisCallEvents({ redis, prefix: config.QUEUE_PREFIX, logger }, (callId) =>
      watched.isWatched(callId),
    );
    finished = sinks.finished;
    engineEvents = sinks.engine;
    // A worker started before its Redis waits for it: the shared connection first (rate limits,
    // events), then the subscription; BullMQ's own connections wait in `driver.process` below.
    await waitForRedis(redis, { logger });
    // Never give up a SUBSCRIBE: a failed one would leave cancel messages unheard.
    subscriber = redis.duplicate({ maxRetriesPerRequest: null });
    subscriber.on('error', (error) => logger.error({ err: error }, 'redis subscriber error'));
    const cancelChannel = GatewayChannel.cancel(config.QUEUE_PREFIX);
    subscriber.on('message', (channel: string, callId: string) => {
      if (channel !== cancelChannel) {
        watched.watch(callId);
        return;
      }
      if (cancellation.cancel(callId)) logger.info({ call_id: callId }, 'call cancelled');
    });
    await subscribeWhenReady(
      subscriber,
      [cancelChannel, GatewayChannel.watch(config.QUEUE_PREFIX)],
      {
        logger,
      },
    );
    rateLimiter = new RedisRateLimiter({ redis, prefix: config.QUEUE_PREFIX });
    // The API replicas count and read spend on the same counters.
    spend = new RedisSpendCounters({ redis, prefix: config.QUEUE_PREFIX });
    // The fleet and the API replicas share cached results and their execution locks.
    resultCacheStore = new RedisResultCacheStore({ redis, prefix: config.QUEUE_PREFIX });
    // What an upstream MCP server asks during a call goes to the API holding the caller's session.
    clientRelays = new ClientRelayHub(
      new RedisClientRelayChannel({ redis, prefix: config.QUEUE_PREFIX, logger }),
      { logger },
    );
    driver = new BullMqDriver({
      queue: QueueName.ToolCalls,
      redisUrl,
      prefix: config.QUEUE_PREFIX,
      workerName: config.WORKER_ID,
      stalled: {
        lockDurationMs: config.WORKER_LOCK_DURATION_MS,
        stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
        maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
      },
      logger,
    });
  } else if (db !== undefined && catalog !== undefined) {
    calls = new CallStore(db, (toolId, version) => catalog.versionIr(toolId, version));
    rateLimiter = new InMemoryRateLimiter();
    resultCacheStore = new InMemoryResultCacheStore();
    driver = new InProcessDriver({ queue: QueueName.ToolCalls, logger });
  } else {
    calls = new InMemoryCallRepository();
    rateLimiter = new InMemoryRateLimiter();
    resultCacheStore = new InMemoryResultCacheStore();
    driver = new InProcessDriver({ queue: QueueName.ToolCalls, logger });
  }
  calls = options.decorateCalls?.(calls) ?? calls;

  const events = options.events ?? engineEvents;
  const egress = gatewayEgressFromSettings({
    embedded: config.DATABASE_URL === undefined,
    allow: config.TOOLGATE_EGRESS_ALLOW,
  });
  const engine: EngineDeps = {
    executors: createGatewayExecutors({
      builtins: options.builtins ?? createExampleBuiltins(),
      secrets: options.secrets,
      egress,
    }),
    rateLimiter,
    resultCache: new ResultCache(resultCacheStore, { logger }),
    logger,
    maxRateLimitWaitMs: config.RATE_LIMIT_MAX_WAIT_MS,
    traceContent: traceContentOf(config),
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    ...(events === undefined ? {} : { events }),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.resolveTool === undefined ? {} : { resolveTool: options.resolveTool }),
  };
  // The registry's policy, approvals and tools, for the team each call runs for.
  const registryContext: CreateEngineContext | undefined =
    catalog === undefined || db === undefined
      ? undefined
      : registryContextFactory(engine, {
          catalog,
          approvals: new PgApprovalStore(db),
          approvalTtlMs: config.APPROVAL_TTL_MS,
          // The registry's secret store: the same table and key as the API, per call's team.
          secrets: new SecretStore(
            db,
            SecretKeyring.fromSettings({
              current: config.TOOLGATE_SECRETS_KEY,
              old: config.TOOLGATE_SECRETS_OLD_KEYS,
            }),
          ),
        });
  const runner = new CallRunner({
    calls,
    createContext: (scope) => {
      const context = registryContext?.(scope) ?? createEngineContext(engine, scope);
      // Ports a test passes in win over the registry's.
      if (options.approvals !== undefined) context.approvals = options.approvals;
      if (options.policy !== undefined) context.policy = options.policy;
      return context;
    },
    workerId: config.WORKER_ID,
    cancellation,
    ...(clientRelays === undefined ? {} : { clientRelays }),
    ...(finished === undefined ? {} : { finished }),
    // Budgets live in the registry's catalog: a worker without one has none to enforce.
    ...(catalog === undefined
      ? {}
      : {
          budgets: new CallBudgets({
            counters: spend,
            budgetsOf: (teamId) => catalog.budgetsOf(teamId),
          }),
        }),
    logger,
  });
  await driver.process((job) => runner.process(job), { concurrency: config.WORKER_CONCURRENCY });

  const queueWhere =
    redisUrl === undefined ? 'in-process queue' : `BullMQ on ${redactUrl(redisUrl)}`;
  const where = `${queueWhere}; calls in ${pool !== undefined ? 'Postgres' : redis !== undefined ? 'Redis' : 'memory'}`;
  let closing: Promise<CloseReport> | undefined;
  return {
    driver,
    calls,
    workerId: config.WORKER_ID,
    egress: describeEgressPolicy(egress.policy),
    description: `queue ${config.QUEUE_PREFIX}:${QueueName.ToolCalls} (${where}), concurrency ${config.WORKER_CONCURRENCY}`,
    close: (closeOptions = {}) => {
      closing ??= (async () => {
        const report = await driver.close(
          closeOptions.drainTimeoutMs === undefined
            ? {}
            : { drainTimeoutMs: closeOptions.drainTimeoutMs },
        );
        await clientRelays?.close();
        if (subscriber !== undefined) {
          const connection = subscriber;
          await connection.quit().catch(() => connection.disconnect());
        }
        if (redis !== undefined) await redis.quit().catch(() => redis.disconnect());
        await catalogListener?.stop();
        await pool?.end();
        return report;
      })();
      return closing;
    },
  };
}

/** A Redis URL without its password, for logs. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
