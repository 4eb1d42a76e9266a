import type { Tracer } from '@opentelemetry/api';
import {
  ExecutorRegistry,
  InMemoryRateLimiter,
  createHttpExecutor,
  createMcpExecutor,
  StoredApprovalGate,
} from '@toolgate/engine';
import type {
  ApprovalGate,
  BuiltinExecutor,
  EngineLogger,
  EventSink,
  PolicyEngine,
  RateLimiter,
  SecretResolver,
  ToolResolver,
} from '@toolgate/engine';
import {
  GatewayChannel,
  subscribeWhenReady,
  PgApprovalStore,
  PgGatewayCatalog,
  PostgresCallRepository,
} from '@toolgate/persistence';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createExampleBuiltins } from '../builtins/example-builtins';
import type { WorkerConfig } from '../config/worker.config';
import { createEngineContext } from '../engine/create-engine-context';
import type { EngineDeps } from '../engine/create-engine-context';
import { BullMqDriver } from '../queue/bullmq.driver';
import { InProcessDriver } from '../queue/in-process.driver';
import type { CloseReport, QueueDriver } from '../queue/queue-driver';
import { QueueName } from '../queue/queue-driver';
import { RedisRateLimiter } from '../rate-limit/redis-rate-limiter';
import type { CallRepository } from '@toolgate/persistence';
import { CallCancellation } from '../tool-calls/call-cancellation';
import { publishCallEvents, publishFinishedCalls } from '../tool-calls/call-event-publisher';
import { ExecuteToolCallProcessor } from '../tool-calls/execute-tool-call.processor';
import { InMemoryCallRepository } from '../tool-calls/in-memory-call.repository';
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
          max: Math.min(64, config.WORKER_CONCURRENCY + 4),
        });
  pool?.on('error', (error) => logger.error({ err: error }, 'postgres pool error'));
  const catalog = pool === undefined ? undefined : new PgGatewayCatalog(pool);
  const cancellation = new CallCancellation();
  let subscriber: Redis | undefined;

  let calls: CallRepository;
  let rateLimiter: RateLimiter;
  let driver: QueueDriver;
  if (redis !== undefined && redisUrl !== undefined) {
    calls =
      pool === undefined
        ? new RedisCallRepository({
            redis,
            prefix: config.QUEUE_PREFIX,
            retentionSeconds: config.CALL_RETENTION_SECONDS,
          })
        : new PostgresCallRepository(pool);
    // Events go out to the API (SSE, waiters); cancel messages come in from it.
    calls = publishFinishedCalls(calls, { redis, prefix: config.QUEUE_PREFIX, logger });
    subscriber = redis.duplicate();
    subscriber.on('error', (error) => logger.error({ err: error }, 'redis subscriber error'));
    subscriber.on('message', (_channel: string, callId: string) => {
      if (cancellation.cancel(callId)) logger.info({ call_id: callId }, 'call cancelled');
    });
    await subscribeWhenReady(subscriber, GatewayChannel.cancel(config.QUEUE_PREFIX));
    rateLimiter = new RedisRateLimiter({ redis, prefix: config.QUEUE_PREFIX });
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
  } else if (pool !== undefined) {
    calls = new PostgresCallRepository(pool);
    rateLimiter = new InMemoryRateLimiter();
    driver = new InProcessDriver({ queue: QueueName.ToolCalls, logger });
  } else {
    calls = new InMemoryCallRepository();
    rateLimiter = new InMemoryRateLimiter();
    driver = new InProcessDriver({ queue: QueueName.ToolCalls, logger });
  }
  calls = options.decorateCalls?.(calls) ?? calls;

  const secrets = options.secrets === undefined ? {} : { secrets: options.secrets };
  const engine: EngineDeps = {
    executors: new ExecutorRegistry({
      builtin: options.builtins ?? createExampleBuiltins(),
      http: createHttpExecutor(secrets),
      mcp: createMcpExecutor(secrets),
    }),
    rateLimiter,
    logger,
    maxRateLimitWaitMs: config.RATE_LIMIT_MAX_WAIT_MS,
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    ...(options.events !== undefined
      ? { events: options.events }
      : redis === undefined
        ? {}
        : { events: publishCallEvents({ redis, prefix: config.QUEUE_PREFIX, logger }) }),
    ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.resolveTool === undefined ? {} : { resolveTool: options.resolveTool }),
  };
  const processor = new ExecuteToolCallProcessor({
    calls,
    createContext: (scope) => {
      if (catalog === undefined || pool === undefined) return createEngineContext(engine, scope);
      // The registry's policy, approvals and tools, for the team the call runs for.
      const teamId = scope.caller.team;
      return createEngineContext(
        {
          ...engine,
          approvals:
            options.approvals ??
            new StoredApprovalGate(new PgApprovalStore(pool), {
              teamId,
              requestedBy: scope.actor ?? scope.caller.key_id,
              ttlMs: config.APPROVAL_TTL_MS,
            }),
          policy: options.policy ?? catalog.policyEngineFor(teamId),
          resolveTool:
            options.resolveTool ??
            ((name, version) => catalog.resolveTool({ teamId, name, version })),
        },
        scope,
      );
    },
    workerId: config.WORKER_ID,
    cancellation,
    logger,
  });
  await driver.process((job) => processor.process(job), { concurrency: config.WORKER_CONCURRENCY });

  const queueWhere =
    redisUrl === undefined ? 'in-process queue' : `BullMQ on ${redactUrl(redisUrl)}`;
  const where = `${queueWhere}; calls in ${pool !== undefined ? 'Postgres' : redis !== undefined ? 'Redis' : 'memory'}`;
  let closing: Promise<CloseReport> | undefined;
  return {
    driver,
    calls,
    workerId: config.WORKER_ID,
    description: `queue ${config.QUEUE_PREFIX}:${QueueName.ToolCalls} (${where}), concurrency ${config.WORKER_CONCURRENCY}`,
    close: (closeOptions = {}) => {
      closing ??= (async () => {
        const report = await driver.close(
          closeOptions.drainTimeoutMs === undefined
            ? {}
            : { drainTimeoutMs: closeOptions.drainTimeoutMs },
        );
        if (subscriber !== undefined) {
          const connection = subscriber;
          await connection.quit().catch(() => connection.disconnect());
        }
        if (redis !== undefined) await redis.quit().catch(() => redis.disconnect());
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
