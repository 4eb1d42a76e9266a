/**
 * `npm run bench:gateway`: the Tool Gateway's execution path under load. Starts the API (BullMQ
 * dispatcher) and one worker process on a fresh `toolgate_bench_*` database and a `toolgate-bench-*`
 * Redis prefix, registers a builtin no-op tool (`toolgate.echo`), then measures, at concurrency 1,
 * 16 and 64, three targets in the same run:
 *
 *   gateway   POST /v1/calls/ir (wait_ms) -> BullMQ -> worker -> Postgres -> 200 with the result
 *   bullmq    raw BullMQ: Queue.add of a no-op job -> Worker -> waitUntilFinished
 *   engine    a direct in-process executeCall of the same tool
 *
 * and prints calls/s, p50 and p99 of each, with the gateway's ratio to the other two.
 *
 *   BENCH_SECONDS=5 npm run bench:gateway
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { BuiltinExecutor, ExecutorRegistry, executeCall } from '@toolgate/engine';
import type { ExecutionContext } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { adminQuery, apiCall, freePort, waitForReady } from './bench-support';

const root = path.resolve(__dirname, '..');
const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const levels = [1, 16, 64];
const postgresUrl =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface Measurement {
  calls: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** Runs `concurrency` loops of `once` for `seconds` and summarises latency and throughput. */
async function measure(
  concurrency: number,
  once: () => Promise<void>,
  durationSeconds = seconds,
): Promise<Measurement> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        try {
          await once();
          latencies.push(performance.now() - begin);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    errors,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

/** A team, a key that may execute calls and a stable builtin no-op tool. */
async function seed(base: string, adminKey: string): Promise<{ key: string; tool: ToolIR }> {
  const team = (
    await apiCall(base, adminKey, {
      method: 'POST',
      path: '/v1/teams',
      body: { slug: 'bench', name: 'Bench' },
    })
  ).body as { id: string };
  const created = (
    await apiCall(base, adminKey, {
      method: 'POST',
      path: '/v1/api-keys',
      body: {
        name: 'bench',
        scopes: ['tools:read', 'tools:write', 'calls:execute'],
        team_id: team.id,
      },
    })
  ).body as { key: string };
  const tool = (
    await apiCall(base, created.key, {
      method: 'POST',
      path: '/v1/tools',
      body: { name: 'bench_noop' },
    })
  ).body as { id: string };
  const ir = {
    schema_version: '1.0',
    id: tool.id,
    name: 'bench_noop',
    version: '1.0.0',
    description: 'Returns its arguments: the cheapest tool there is.',
    parameters: { type: 'object', properties: { n: { type: 'integer' } } },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 5000 },
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
  };
  await apiCall(base, created.key, {
    method: 'POST',
    path: `/v1/tools/${tool.id}/versions`,
    body: { ir },
  });
  await apiCall(base, created.key, {
    method: 'PUT',
    path: `/v1/tools/${tool.id}/release/stable`,
    body: { version: '1.0.0' },
  });
  return { key: created.key, tool: ir as unknown as ToolIR };
}

function spawnNode(entry: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

function format(label: string, result: Measurement): string {
  return `${label.padEnd(10)} ${result.perSecond.toFixed(0).padStart(7)} calls/s   p50 ${result.p50.toFixed(2).padStart(8)} ms   p99 ${result.p99.toFixed(2).padStart(8)} ms   (${result.calls} calls, ${result.errors} errors)`;
}

async function main(): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const databaseName = `toolgate_bench_${suffix}`;
  const prefix = `toolgate-bench-${suffix}`;
  await adminQuery(postgresUrl, `CREATE DATABASE "${databaseName}"`);
  const databaseUrl = new URL(postgresUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const adminKey = `bench-admin-${randomUUID()}`;
  const apiPort = await freePort();
  const children: ChildProcess[] = [];
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const rawQueue = new Queue('bench-noop', { connection: redis, prefix: `${prefix}-raw` });
  // Each job in flight adds a listener; 64 at once is expected, not a leak.
  rawQueue.setMaxListeners(256);
  // BullMQ leaves connections it was given open: they are closed here at the end.
  const eventsConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const rawEvents = new QueueEvents('bench-noop', {
    connection: eventsConnection,
    prefix: `${prefix}-raw`,
  });
  const rawWorker = new Worker('bench-noop', () => Promise.resolve({ ok: true }), {
    connection: workerConnection,
    prefix: `${prefix}-raw`,
    concurrency: 64,
  });
  try {
    const common = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    };
    const apiProcess = spawnNode('apps/registry-api/src/main.ts', {
      ...common,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      TOOLGATE_ADMIN_KEY: adminKey,
      TSX_TSCONFIG_PATH: path.join(root, 'apps/registry-api/tsconfig.json'),
    });
    children.push(apiProcess);
    const base = `http://127.0.0.1:${apiPort}`;
    await waitForReady(base, apiProcess);
    children.push(
      spawnNode('apps/worker/src/main.ts', {
        ...common,
        WORKER_CONCURRENCY: '64',
        WORKER_ID: 'bench-worker',
      }),
    );
    const { key, tool } = await seed(base, adminKey);
    let sequence = 0;
    const gatewayCall = async (): Promise<void> => {
      sequence += 1;
      const response = await apiCall(base, key, {
        method: 'POST',
        path: `/v1/calls/ir?wait_ms=10000&conversation_id=bench-${suffix}-${sequence}`,
        body: [{ id: `bench_${sequence}`, name: tool.name, arguments: { n: sequence } }],
      });
      if (response.status !== 200) throw new Error(`call answered ${response.status}`);
    };
    // The worker is ready once a call comes back; this also warms the API and the worker.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await gatewayCall();
        break;
      } catch (error) {
        if (attempt > 60) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    await rawEvents.waitUntilReady();
    await rawWorker.waitUntilReady();
    const rawCall = async (): Promise<void> => {
      // Finished jobs stay until the queue is obliterated: waitUntilFinished reads them.
      const job = await rawQueue.add('noop', {});
      await job.waitUntilFinished(rawEvents, 10_000);
    };
    const context: ExecutionContext = {
      resolveTool: () => Promise.resolve(tool),
      executors: new ExecutorRegistry({
        builtin: new BuiltinExecutor().registerBuiltin('toolgate.echo', (args) => ({
          echoed: args,
        })),
      }),
      caller: { key_id: 'bench', team: 'bench', scopes: ['calls:execute'] },
    };
    const engineCall = async (): Promise<void> => {
      sequence += 1;
      const result = await executeCall(
        { id: `engine_${sequence}`, name: tool.name, arguments: { n: sequence } },
        context,
      );
      if (!result.result.ok) throw new Error(result.result.error?.message ?? 'failed');
    };
    // Warm the two baselines as the gateway was warmed.
    await measure(4, gatewayCall, 1);
    await measure(4, rawCall, 1);
    await measure(4, engineCall, 1);

    process.stdout.write(
      `\nTool Gateway: builtin no-op tool, ${seconds}s per target and level, one worker (concurrency 64)\n`,
    );
    for (const concurrency of levels) {
      const gateway = await measure(concurrency, gatewayCall);
      const bullmq = await measure(concurrency, rawCall);
      const engine = await measure(concurrency, engineCall);
      process.stdout.write(
        `\nconcurrency ${concurrency}\n${format('gateway', gateway)}\n${format('bullmq', bullmq)}\n${format('engine', engine)}\n` +
          `ratios: gateway/bullmq ${(gateway.perSecond / bullmq.perSecond).toFixed(3)} calls/s, ` +
          `${(gateway.p50 / bullmq.p50).toFixed(1)}x p50; gateway/engine ${(gateway.perSecond / engine.perSecond).toFixed(4)} calls/s, ` +
          `${(gateway.p50 / engine.p50).toFixed(0)}x p50\n`,
      );
    }
  } finally {
    await rawWorker.close();
    await rawEvents.close();
    await rawQueue.obliterate({ force: true }).catch(() => undefined);
    await rawQueue.close();
    for (const child of children.reverse()) await stop(child);
    await deleteKeys(redis, prefix);
    await Promise.all(
      [redis, eventsConnection, workerConnection].map((connection) => connection.quit()),
    );
    await adminQuery(postgresUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  }
}

main().then(
  // Anything a library leaves open must not keep the benchmark from ending.
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
