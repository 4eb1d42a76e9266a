/**
 * `npm run bench:gateway`: the Tool Gateway's execution paths under load, each beside the baselines
 * it is judged against. Starts two deployments of the registry API:
 *
 *   - queued: an API on a fresh `toolgate_bench_*` Postgres database and Redis under a
 *     `toolgate-bench-*` prefix (BullMQ dispatcher), plus one worker process (concurrency 64);
 *   - embedded: a second API with neither DATABASE_URL nor REDIS_URL, so on PGlite (in a fresh
 *     temporary PGLITE_DATA_DIR) with the in-process queue, on its own port and admin key;
 *
 * registers builtin no-op tools (`toolgate.echo`) and measures, at 1, 16 and 64 calls in flight and
 * interleaved per level, five targets in the same run:
 *
 *   gateway   POST /v1/calls/ir (wait_ms) -> BullMQ -> worker -> Postgres -> 200 with the result,
 *             for `bench_noop` (constraints.execution 'queued')
 *   inline    the same API and request for `bench_noop_inline` (constraints.execution 'inline'):
 *             the API runs the call itself, with no queue hop
 *   embedded  the gateway's request and tool on the embedded API (PGlite + in-process queue)
 *   cached    the gateway's request for `bench_cached` (queued, declaring a result cache) with the
 *             same arguments every time: after the first, each call is a cache hit end to end
 *             (API -> BullMQ -> worker -> Redis cache -> Postgres -> 200), the tool never runs
 *   bullmq    raw BullMQ: Queue.add of a no-op job -> Worker -> waitUntilFinished
 *   engine    a direct in-process executeCall of `bench_noop`
 *
 * Each row gives calls/s, p50 and p99; each level also the CPU milliseconds per call of the API and
 * worker processes behind gateway and inline, and of the embedded API (utime + stime from
 * /proc/<pid>/stat, so Linux only). After the table come the goals, as ratios within this run,
 * each with PASS or FAIL. A failed goal is a result and exits 0; a setup error exits 1. Everything
 * the bench creates (database, Redis keys, PGlite directory, child processes) is removed at the
 * end, also after an error or an interrupt.
 *
 *   BENCH_SECONDS=5 npm run bench:gateway
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BuiltinExecutor, ExecutorRegistry, executeCall } from '@toolgate/engine';
import type { ExecutionContext } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import { Queue, QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { adminQuery, apiCall, apiRequest, freePort, waitForReady } from './bench-support';

const root = path.resolve(__dirname, '..');
const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const levels = [1, 16, 64] as const;
const postgresUrl =
  process.env['BENCH_POSTGRES_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const apiEntry = 'apps/registry-api/src/main.ts';
const workerEntry = 'apps/worker/src/main.ts';

/** `bench_noop` (gateway, embedded, engine): recorded, then run by a worker through the queue. */
const QUEUED_CONSTRAINTS = { timeout_ms: 5000, execution: 'queued' } as const;
/** `bench_noop_inline` (inline): the API runs the call in its own process, with no queue hop. */
const INLINE_CONSTRAINTS = { timeout_ms: 5000, execution: 'inline' } as const;

type TargetName = 'gateway' | 'inline' | 'embedded' | 'cached' | 'bullmq' | 'engine';

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

/** Clock ticks per second of the times in /proc/<pid>/stat (`getconf CLK_TCK`, 100 on most Linux). */
function clockTicksPerSecond(): number {
  const answer = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
  const ticks = Number(answer);
  if (!Number.isInteger(ticks) || ticks <= 0)
    throw new Error(`getconf CLK_TCK answered "${answer}"`);
  return ticks;
}

/** CPU time (user + system) the process has used so far, in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Field 2, the command, is in parentheses and may itself hold spaces or parentheses: the fields
  // are counted from the last ')', where field 3 starts, so utime (14) and stime (15) are 11 and 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat has no utime and stime`);
  return ticks;
}

/** A measurement and the CPU milliseconds per call that each of the watched processes spent in it. */
interface Sample {
  result: Measurement;
  cpuPerCall: number[];
}

/** `measure`, reading the CPU time of `pids` right before and right after the window. */
async function measureWithCpu(
  concurrency: number,
  once: () => Promise<void>,
  watched: { pids: readonly number[]; ticksPerSecond: number },
): Promise<Sample> {
  const before = watched.pids.map(cpuTicks);
  const result = await measure(concurrency, once);
  const after = watched.pids.map(cpuTicks);
  return {
    result,
    cpuPerCall: watched.pids.map(
      (_pid, index) =>
        (((after[index] ?? Number.NaN) - (before[index] ?? Number.NaN)) * 1000) /
        watched.ticksPerSecond /
        result.calls,
    ),
  };
}

/** A team and a key on it that may register tools and execute calls. */
async function seedTeam(base: string, adminKey: string): Promise<string> {
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
  return created.key;
}

/** Registers `name` as a stable builtin no-op tool (`toolgate.echo`) with these constraints. */
async function publishNoop(
  base: string,
  key: string,
  tool: {
    name: string;
    constraints: typeof QUEUED_CONSTRAINTS | typeof INLINE_CONSTRAINTS;
    cache?: { ttl_ms: number };
  },
): Promise<ToolIR> {
  const created = (
    await apiCall(base, key, { method: 'POST', path: '/v1/tools', body: { name: tool.name } })
  ).body as { id: string };
  const ir = {
    schema_version: '1.0',
    id: created.id,
    name: tool.name,
    version: '1.0.0',
    description: 'Returns its arguments: the cheapest tool there is.',
    parameters: { type: 'object', properties: { n: { type: 'integer' } } },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: tool.constraints,
    ...(tool.cache === undefined ? {} : { cache: tool.cache }),
    protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
  };
  await apiCall(base, key, {
    method: 'POST',
    path: `/v1/tools/${created.id}/versions`,
    body: { ir },
  });
  await apiCall(base, key, {
    method: 'PUT',
    path: `/v1/tools/${created.id}/release/stable`,
    body: { version: '1.0.0' },
  });
  // The engine target runs this IR as the registry stores it; the fields are the schema's.
  return ir as unknown as ToolIR;
}

/** Resolves or rejects with `work`, or rejects after `milliseconds` with `message`. */
async function withTimeout<T>(work: Promise<T>, milliseconds: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), milliseconds);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // A shutdown that hangs must not keep the bench, and the rest of its cleanup, from finishing.
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(kill);
}

/** An app the bench started: the child and the pid of its node process. */
interface App {
  child: ChildProcess;
  pid: number;
}

/** The app processes of the bench: started, watched and stopped together. */
class Fleet {
  private readonly children: ChildProcess[] = [];
  private stopping = false;
  private reportCrash: (error: Error) => void = () => undefined;
  /** Rejects as soon as a child ends before the bench stops it. */
  private readonly crashed = new Promise<never>((_resolve, reject) => {
    this.reportCrash = reject;
  });

  constructor() {
    // Nobody may be waiting at the moment of a crash; `guard` reports it to whoever waits next.
    this.crashed.catch(() => undefined);
  }

  /**
   * Runs `process.execPath --import tsx <entry>`: the loader runs in that very process, so the
   * child's pid is the node process of the app, whose CPU time the bench reads.
   */
  start(
    label: string,
    entry: string,
    environment: { set: Record<string, string>; unset?: readonly string[] },
  ): App {
    const env: NodeJS.ProcessEnv = { ...process.env, ...environment.set };
    for (const name of environment.unset ?? []) delete env[name];
    // BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of each app process there, to see where a call's time goes.
    const profile = process.env['BENCH_CPU_PROFILE'];
    const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
    const child = spawn(process.execPath, [...flags, '--import', 'tsx', path.join(root, entry)], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.push(child);
    child.once('error', (error) => this.reportCrash(new Error(`the ${label}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (!this.stopping)
        this.reportCrash(new Error(`the ${label} exited (${signal ?? `code ${code}`})`));
    });
    const pid = child.pid;
    if (pid === undefined) throw new Error(`the ${label} did not start`);
    checkAppProcess(label, pid, entry);
    return { child, pid };
  }

  /** `work`, unless one of the apps ends first: a crash ends the bench at once, not at a timeout. */
  guard<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.crashed]);
  }

  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const child of [...this.children].reverse()) await stop(child);
  }
}

/** Fails unless `pid` is a node process of this node binary running `entry`. */
function checkAppProcess(label: string, pid: number, entry: string): void {
  const executable = readlinkSync(`/proc/${pid}/exe`);
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  if (executable !== realpathSync(process.execPath) || !argv.includes(path.join(root, entry)))
    throw new Error(
      `the ${label}'s pid ${pid} is not node running ${entry}: ${executable} ${argv.join(' ')}`,
    );
}

/** Fails if the process was given any of `names` in its environment. */
function checkEnvironmentLacks(label: string, pid: number, names: readonly string[]): void {
  const present = readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .map((entry) => entry.slice(0, entry.indexOf('=')));
  const leaked = names.filter((name) => present.includes(name));
  if (leaked.length > 0) throw new Error(`the ${label} was given ${leaked.join(', ')}`);
}

/** What the bench created, undone in reverse order; every step runs even when an earlier one fails. */
class Cleanup {
  private readonly steps: Array<{ label: string; run: () => Promise<unknown> }> = [];
  private running: Promise<boolean> | undefined;

  add(label: string, run: () => Promise<unknown>): void {
    this.steps.push({ label, run });
  }

  /** Runs once, for whichever comes first (the end of the bench or a signal); true when all went well. */
  run(): Promise<boolean> {
    this.running ??= (async () => {
      let clean = true;
      for (const step of [...this.steps].reverse()) {
        try {
          await step.run();
        } catch (error) {
          clean = false;
          process.stderr.write(`cleanup: could not ${step.label}: ${describe(error)}\n`);
        }
      }
      return clean;
    })();
    return this.running;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/** Closes a connection whether or not it ever connected (`quit` would wait for a Redis that is not there). */
async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status === 'ready') await connection.quit();
  else connection.disconnect();
}

function format(label: TargetName, result: Measurement): string {
  return `${label.padEnd(10)} ${result.perSecond.toFixed(0).padStart(7)} calls/s   p50 ${result.p50.toFixed(2).padStart(8)} ms   p99 ${result.p99.toFixed(2).padStart(8)} ms   (${result.calls} calls, ${result.errors} errors)`;
}

function formatCpu(label: TargetName, processes: readonly string[], sample: Sample): string {
  const parts = processes.map(
    (name, index) =>
      `${name} ${(sample.cpuPerCall[index] ?? Number.NaN).toFixed(3).padStart(7)} ms`,
  );
  return `  CPU per call  ${label.padEnd(10)} ${parts.join('   ')}`;
}

/** One goal, judged on numbers of this run only. */
interface Goal {
  path: string;
  statement: string;
  measured: string;
  pass: boolean;
}

function goals(at: (level: number) => Record<TargetName, Measurement>): Goal[] {
  const throughput = (goal: {
    path: string;
    target: TargetName;
    baseline: TargetName;
    floor: number;
  }): Goal => {
    const ratio = at(64)[goal.target].perSecond / at(64)[goal.baseline].perSecond;
    return {
      path: goal.path,
      statement: `${goal.target} calls/s at 64 >= ${goal.floor}x ${goal.baseline} calls/s at 64`,
      measured: `${ratio.toFixed(3)}x`,
      pass: ratio >= goal.floor,
    };
  };
  const latency = (goal: {
    path: string;
    target: TargetName;
    baseline: TargetName;
    slack: number;
  }): Goal => {
    const value = at(1)[goal.target].p50;
    const baseline = at(1)[goal.baseline].p50;
    return {
      path: goal.path,
      statement: `${goal.target} p50 at 1 <= ${goal.baseline} p50 at 1 + ${goal.slack} ms`,
      measured: `${value.toFixed(2)} ms, bound ${(baseline + goal.slack).toFixed(2)} ms (${(value / baseline).toFixed(1)}x ${goal.baseline} p50)`,
      pass: value <= baseline + goal.slack,
    };
  };
  return [
    throughput({ path: 'queued', target: 'gateway', baseline: 'bullmq', floor: 0.25 }),
    latency({ path: 'queued', target: 'gateway', baseline: 'bullmq', slack: 3 }),
    throughput({ path: 'inline', target: 'inline', baseline: 'bullmq', floor: 0.5 }),
    latency({ path: 'inline', target: 'inline', baseline: 'engine', slack: 1.5 }),
  ];
}

async function main(cleanup: Cleanup): Promise<void> {
  const ticksPerSecond = clockTicksPerSecond();
  const suffix = randomBytes(4).toString('hex');
  const databaseName = `toolgate_bench_${suffix}`;
  const prefix = `toolgate-bench-${suffix}`;

  await adminQuery(postgresUrl, `CREATE DATABASE "${databaseName}"`);
  cleanup.add(`drop the database ${databaseName}`, () =>
    adminQuery(postgresUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
  );
  const databaseUrl = new URL(postgresUrl);
  databaseUrl.pathname = `/${databaseName}`;
  const pgliteDirectory = await mkdtemp(path.join(os.tmpdir(), 'toolgate-bench-pglite-'));
  cleanup.add(`remove ${pgliteDirectory}`, () =>
    rm(pgliteDirectory, { recursive: true, force: true }),
  );

  // BullMQ leaves connections it was given open: they are closed here at the end.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const eventsConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  for (const connection of [redis, eventsConnection, workerConnection])
    cleanup.add('close a Redis connection', () => closeConnection(connection));
  // Without this, a Redis that is not there would make every command below wait forever.
  await withTimeout(redis.ping(), 10_000, `no Redis answers at ${redisUrl}`);
  cleanup.add(`delete the Redis keys under ${prefix}`, () => deleteKeys(redis, prefix));

  const rawQueue = new Queue('bench-noop', { connection: redis, prefix: `${prefix}-raw` });
  cleanup.add('close the raw queue', () => rawQueue.close());
  // Each job in flight adds a listener; 64 at once is expected, not a leak.
  rawQueue.setMaxListeners(256);
  const rawEvents = new QueueEvents('bench-noop', {
    connection: eventsConnection,
    prefix: `${prefix}-raw`,
  });
  cleanup.add('close the raw queue events', () => rawEvents.close());
  const rawWorker = new Worker('bench-noop', () => Promise.resolve({ ok: true }), {
    connection: workerConnection,
    prefix: `${prefix}-raw`,
    concurrency: 64,
  });
  cleanup.add('close the raw worker', () => rawWorker.close());

  const fleet = new Fleet();
  cleanup.add('stop the API and worker processes', () => fleet.stopAll());
  const queued = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
  };
  const tsconfig = path.join(root, 'apps/registry-api/tsconfig.json');
  const adminKey = `bench-admin-${randomUUID()}`;
  const apiPort = await freePort();
  const api = fleet.start('API', apiEntry, {
    set: {
      ...queued,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      TOOLGATE_ADMIN_KEY: adminKey,
      TSX_TSCONFIG_PATH: tsconfig,
    },
  });
  const embeddedAdminKey = `bench-admin-${randomUUID()}`;
  const embeddedPort = await freePort();
  // The embedded default is what an unset DATABASE_URL and REDIS_URL select, so neither may reach
  // this child from the bench's own environment.
  const unsetForEmbedded = ['DATABASE_URL', 'REDIS_URL'] as const;
  const embedded = fleet.start('embedded API', apiEntry, {
    set: {
      PORT: String(embeddedPort),
      HOST: '127.0.0.1',
      TOOLGATE_ADMIN_KEY: embeddedAdminKey,
      PGLITE_DATA_DIR: pgliteDirectory,
      LOG_LEVEL: 'warn',
      TSX_TSCONFIG_PATH: tsconfig,
    },
    unset: unsetForEmbedded,
  });
  checkEnvironmentLacks('embedded API', embedded.pid, unsetForEmbedded);
  const base = `http://127.0.0.1:${apiPort}`;
  const embeddedBase = `http://127.0.0.1:${embeddedPort}`;
  // Both migrate on first start; they do it at the same time.
  await fleet.guard(
    Promise.all([waitForReady(base, api.child), waitForReady(embeddedBase, embedded.child)]),
  );
  if ((await readdir(pgliteDirectory)).length === 0)
    throw new Error(`the embedded API is ready but wrote nothing to ${pgliteDirectory}`);
  // Started once the API has migrated the database the worker reads.
  const worker = fleet.start('worker', workerEntry, {
    set: { ...queued, WORKER_CONCURRENCY: '64', WORKER_ID: 'bench-worker' },
  });

  const key = await seedTeam(base, adminKey);
  const tool = await publishNoop(base, key, {
    name: 'bench_noop',
    constraints: QUEUED_CONSTRAINTS,
  });
  const inlineTool = await publishNoop(base, key, {
    name: 'bench_noop_inline',
    constraints: INLINE_CONSTRAINTS,
  });
  const cachedTool = await publishNoop(base, key, {
    name: 'bench_cached',
    constraints: QUEUED_CONSTRAINTS,
    cache: { ttl_ms: 3_600_000 },
  });
  const embeddedKey = await seedTeam(embeddedBase, embeddedAdminKey);
  await publishNoop(embeddedBase, embeddedKey, {
    name: 'bench_noop',
    constraints: QUEUED_CONSTRAINTS,
  });

  let sequence = 0;
  const callOf =
    (target: { base: string; key: string; tool: string; sameArguments?: boolean }) =>
    async (): Promise<void> => {
      sequence += 1;
      const response = await apiRequest(target.base, target.key, {
        method: 'POST',
        path: `/v1/calls/ir?wait_ms=10000&conversation_id=bench-${suffix}-${sequence}`,
        body: [
          {
            id: `bench_${sequence}`,
            name: target.tool,
            // The cached target asks the same thing every time, so every call after the first hits.
            arguments: { n: target.sameArguments === true ? 0 : sequence },
          },
        ],
      });
      const results = (response.body as { results?: Array<{ ok?: boolean }> } | undefined)?.results;
      // A failed tool is a 200 too: only a call that ran the tool counts.
      if (response.status !== 200 || results?.[0]?.ok !== true)
        throw new Error(`call answered ${response.status}: ${JSON.stringify(response.body)}`);
    };
  const gatewayCall = callOf({ base, key, tool: tool.name });
  const inlineCall = callOf({ base, key, tool: inlineTool.name });
  const embeddedCall = callOf({ base: embeddedBase, key: embeddedKey, tool: 'bench_noop' });
  const cachedCall = callOf({ base, key, tool: cachedTool.name, sameArguments: true });
  // The worker is ready once a call comes back; this also warms the API and the worker. A call no
  // worker has taken answers 202 after wait_ms, so the last attempt ends about 70 s from now.
  const workerDeadline = performance.now() + 60_000;
  await fleet.guard(
    (async () => {
      for (;;) {
        try {
          await gatewayCall();
          return;
        } catch (error) {
          if (performance.now() > workerDeadline)
            throw new Error(`no call came back from the worker: ${describe(error)}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })(),
  );
  // One call of each of the other two shows they work before they are timed.
  await fleet.guard(inlineCall());
  await fleet.guard(embeddedCall());
  // The first cached call executes and stores the entry; the timed ones are hits.
  await fleet.guard(cachedCall());
  await rawEvents.waitUntilReady();
  await rawWorker.waitUntilReady();
  const rawCall = async (): Promise<void> => {
    // Finished jobs stay until the keys are deleted: waitUntilFinished reads them.
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

  /** The targets in the order they are measured at each level, with the processes they run in. */
  const targets: Array<{
    name: TargetName;
    once: () => Promise<void>;
    processes: Array<{ name: string; pid: number }>;
  }> = [
    {
      name: 'gateway',
      once: gatewayCall,
      processes: [
        { name: 'API', pid: api.pid },
        { name: 'worker', pid: worker.pid },
      ],
    },
    {
      name: 'inline',
      once: inlineCall,
      processes: [
        { name: 'API', pid: api.pid },
        { name: 'worker', pid: worker.pid },
      ],
    },
    { name: 'embedded', once: embeddedCall, processes: [{ name: 'API', pid: embedded.pid }] },
    {
      name: 'cached',
      once: cachedCall,
      processes: [
        { name: 'API', pid: api.pid },
        { name: 'worker', pid: worker.pid },
      ],
    },
    { name: 'bullmq', once: rawCall, processes: [] },
    { name: 'engine', once: engineCall, processes: [] },
  ];
  for (const target of targets) await fleet.guard(measure(4, target.once, 1));

  process.stdout.write(
    `\nTool Gateway: builtin no-op tool, ${seconds}s per target and level, one worker (concurrency 64)\n`,
  );
  const results = new Map<number, Record<TargetName, Measurement>>();
  for (const concurrency of levels) {
    process.stdout.write(`\nconcurrency ${concurrency}\n`);
    const level: Partial<Record<TargetName, Measurement>> = {};
    const cpuLines: string[] = [];
    for (const target of targets) {
      const sample = await fleet.guard(
        measureWithCpu(concurrency, target.once, {
          pids: target.processes.map((entry) => entry.pid),
          ticksPerSecond,
        }),
      );
      level[target.name] = sample.result;
      process.stdout.write(`${format(target.name, sample.result)}\n`);
      if (target.processes.length > 0)
        cpuLines.push(
          formatCpu(
            target.name,
            target.processes.map((entry) => entry.name),
            sample,
          ),
        );
    }
    process.stdout.write(`${cpuLines.join('\n')}\n`);
    results.set(concurrency, level as Record<TargetName, Measurement>);
  }

  process.stdout.write('\ngoals (ratios within this run)\n');
  const at = (concurrency: number): Record<TargetName, Measurement> => {
    const level = results.get(concurrency);
    if (level === undefined) throw new Error(`no results at concurrency ${concurrency}`);
    return level;
  };
  for (const goal of goals(at))
    process.stdout.write(
      `  ${goal.pass ? 'PASS' : 'FAIL'}  ${goal.path.padEnd(7)} ${goal.statement.padEnd(52)} ${goal.measured}\n`,
    );
}

const cleanup = new Cleanup();
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: cleaning up\n`);
    void cleanup.run().then(() => process.exit(code));
  });

main(cleanup).then(
  async () => {
    // Anything a library leaves open must not keep the benchmark from ending.
    process.exit((await cleanup.run()) ? 0 : 1);
  },
  async (error: unknown) => {
    process.stderr.write(`${describe(error)}\n`);
    await cleanup.run();
    process.exit(1);
  },
);
