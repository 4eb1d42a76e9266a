/**
 * The stacks the console's end-to-end test runs against, each with the console served by
 * `next start` (built once, rebuilt when a source file is newer than the build):
 *
 * - `real`: a fresh Postgres database, the registry API (tsx, as `npm start` runs it) and a worker
 *   running the calls the API queues on BullMQ (Redis, under a unique key prefix);
 * - `embedded`: the default `npm start` brings up: the API on embedded PGlite in a fresh temporary
 *   directory, no DATABASE_URL, no REDIS_URL, so the API runs calls in-process, and no worker.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// The e2e runs in Node and drives the real stack: reuse the test database helpers, the worker's
// Redis helpers (unique prefix, cleanup) and the benches' port and API request helpers rather than
// copies of them (the console app itself stays web-only).
/* eslint-disable @nx/enforce-module-boundaries */
import { createDatabase, dropDatabase, randomDatabaseName } from '@toolgate/persistence/testing';
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import { apiRequest as sendApiRequest, freePort } from '../../../scripts/bench-support';
/* eslint-enable @nx/enforce-module-boundaries */

export { freePort, TEST_REDIS_URL };

const root = path.resolve(import.meta.dirname, '../../..');
const consoleDir = path.join(root, 'apps/console');
const nextBin = path.join(root, 'node_modules/next/dist/bin/next');

async function waitFor(
  url: string,
  child: ChildProcess,
  label: string,
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${label} exited with ${child.exitCode} before answering on ${url}`);
    const ok = await fetch(url).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${label} did not answer on ${url} within ${timeoutMs} ms`);
}

function newestSourceTime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceTime(full));
    else if (!entry.name.includes('.test.')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the console unless a build newer than every source file exists. */
export function buildConsoleIfStale(): void {
  const buildId = path.join(consoleDir, '.next', 'BUILD_ID');
  const sources = Math.max(
    newestSourceTime(path.join(consoleDir, 'app')),
    statSync(path.join(consoleDir, 'next.config.ts')).mtimeMs,
  );
  if (existsSync(buildId) && statSync(buildId).mtimeMs > sources) return;
  process.stdout.write('e2e: building the console (next build)...\n');
  const build = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: consoleDir,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) throw new Error(`next build failed with ${build.status}`);
}

/** `real`: Postgres, API and worker on BullMQ; `embedded`: PGlite, the API runs calls itself. */
export type StackKind = 'real' | 'embedded';

export interface Stack {
  kind: StackKind;
  apiUrl: string;
  consoleUrl: string;
  adminKey: string;
  admin: { email: string; password: string };
  logs: () => string;
  stop: () => Promise<void>;
}

function collect(child: ChildProcess, into: string[]): void {
  child.stdout?.on('data', (chunk: Buffer) => into.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => into.push(chunk.toString('utf8')));
}

async function stopChild(child: ChildProcess, label: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    process.stdout.write(`e2e: ${label} still running 5 s after SIGTERM; killing it\n`);
    child.kill('SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

/** Whether the test Redis answers a PING within two seconds. */
export async function redisReachable(): Promise<boolean> {
  const redis = connectTestRedis();
  // A refused connection is the answer here, not an unhandled error event.
  redis.on('error', () => undefined);
  try {
    return (
      (await Promise.race([
        redis.ping(),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
      ])) === 'PONG'
    );
  } catch {
    return false;
  } finally {
    await closeRedis(redis);
  }
}

function waitForLine(child: ChildProcess, marker: string, output: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${marker}" within 60 s`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes(marker) || output.join('').includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before "${marker}"`));
    });
  });
}

/** The environment without what would point a process at another database, queue or data dir. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'REDIS_URL',
    'QUEUE_PREFIX',
    'PGLITE_DATA_DIR',
    'TOOLGATE_EGRESS_ALLOW',
  ])
    delete env[name];
  return env;
}

export interface StackOptions {
  /**
   * TOOLGATE_EGRESS_ALLOW entries for the real stack, a deployment, which refuses loopback and
   * private addresses otherwise (the embedded default allows them, so it gets none).
   */
  egressAllow?: readonly string[];
}

/**
 * Starts one stack. The real kind needs Redis: when it does not answer this throws (the caller
 * decides whether a missing Redis is a skip, locally, or a failure, in CI); it never downgrades.
 */
export async function startStack(kind: StackKind, options: StackOptions = {}): Promise<Stack> {
  if (kind === 'real' && !(await redisReachable()))
    throw new Error(
      `the real stack needs Redis at ${TEST_REDIS_URL} (set TOOLGATE_TEST_REDIS_URL), and it does not answer`,
    );
  const output: string[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  // What each kind sets for the API and the worker: where the data lives, as `npm start` or an
  // operator would set it up, and the real stack's egress allow-list.
  // A secret store key, as `npm start` generates one: without it the Secrets page can only say so.
  const kindEnv: Record<string, string> = {
    TOOLGATE_SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  const queue: Record<string, string> = {};
  if (kind === 'real') {
    const prefix = createTestPrefix();
    const database = randomDatabaseName('console_e2e');
    kindEnv['DATABASE_URL'] = await createDatabase(database);
    cleanups.push(() => dropDatabase(database));
    Object.assign(queue, { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix });
    if (options.egressAllow?.length)
      kindEnv['TOOLGATE_EGRESS_ALLOW'] = options.egressAllow.join(',');
    cleanups.push(async () => {
      const redis = connectTestRedis();
      try {
        await deleteKeys(redis, prefix);
      } finally {
        await closeRedis(redis);
      }
    });
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'toolgate-e2e-pglite-'));
    kindEnv['PGLITE_DATA_DIR'] = dataDir;
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  }
  const [apiPort, consolePort] = [await freePort(), await freePort()];
  const adminKey = `tgadmin_e2e_${'k'.repeat(40)}`;
  const admin = { email: 'admin@e2e.toolgate.test', password: 'correct horse battery staple' };
  const api = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/registry-api/src/main.ts')],
    {
      cwd: root,
      env: {
        ...baseEnv(),
        ...kindEnv,
        ...queue,
        TSX_TSCONFIG_PATH: path.join(root, 'apps/registry-api/tsconfig.json'),
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        LOG_LEVEL: 'warn',
        TOOLGATE_ADMIN_KEY: adminKey,
        TOOLGATE_CONSOLE_ADMIN_EMAIL: admin.email,
        TOOLGATE_CONSOLE_ADMIN_PASSWORD: admin.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  collect(api, output);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const consoleServer = spawn(
    process.execPath,
    [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(consolePort)],
    {
      cwd: consoleDir,
      env: { ...baseEnv(), TOOLGATE_API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  collect(consoleServer, output);
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  let worker: ChildProcess | null = null;
  const stop = async () => {
    await Promise.all([
      stopChild(consoleServer, `${kind} console`),
      stopChild(api, `${kind} registry API`),
      ...(worker ? [stopChild(worker, `${kind} worker`)] : []),
    ]);
    // Every cleanup runs even when one fails; the first failure is reported.
    const failures: unknown[] = [];
    for (const cleanup of [...cleanups].reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  };
  try {
    await waitFor(`${apiUrl}/healthz`, api, 'registry API');
    if (kind === 'real') {
      // Started after the API has migrated the database the worker records calls in.
      worker = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'apps/worker/src/main.ts')],
        {
          cwd: root,
          env: {
            ...baseEnv(),
            ...kindEnv,
            ...queue,
            LOG_LEVEL: 'info',
            WORKER_CONCURRENCY: '2',
            WORKER_ID: 'console-e2e',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      collect(worker, output);
      await waitForLine(worker, 'worker ready', output);
    }
    await waitFor(`${consoleUrl}/sign-in`, consoleServer, 'console');
  } catch (error) {
    await stop();
    throw new Error(
      `${kind} stack: ${error instanceof Error ? error.message : String(error)}\n${output.join('')}`,
    );
  }
  return { kind, apiUrl, consoleUrl, adminKey, admin, logs: () => output.join(''), stop };
}

/** Calls the API directly with an API key (the app teams' way in). */
export async function apiRequest<TBody>(
  stack: Stack,
  request: { method?: string; path: string; key?: string; body?: unknown },
): Promise<{ status: number; body: TBody }> {
  const response = await sendApiRequest(stack.apiUrl, request.key ?? stack.adminKey, {
    method: request.method ?? 'GET',
    path: request.path,
    body: request.body,
  });
  return { status: response.status, body: response.body as TBody };
}
