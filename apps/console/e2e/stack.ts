/**
 * The real stack for the console's end-to-end test: a fresh Postgres database, the registry API
 * (tsx, as `npm start` runs it), and the console served by `next start` (built once, rebuilt when
 * a source file is newer than the build).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

export { freePort };

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

export interface Stack {
  /** `redis`: API + worker on BullMQ; `embedded`: the API runs calls itself (no Redis reachable). */
  mode: 'redis' | 'embedded';
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

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function redisReachable(): Promise<boolean> {
  const redis = connectTestRedis();
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

export async function startStack(): Promise<Stack> {
  const mode = (await redisReachable()) ? 'redis' : 'embedded';
  if (mode === 'embedded')
    process.stdout.write(
      `e2e: no Redis at ${TEST_REDIS_URL}; the API runs calls itself (embedded).\n`,
    );
  const prefix = createTestPrefix();
  const queue: Record<string, string> =
    mode === 'redis' ? { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix } : {};
  const database = randomDatabaseName('console_e2e');
  const databaseUrl = await createDatabase(database);
  const [apiPort, consolePort] = [await freePort(), await freePort()];
  const adminKey = `tgadmin_e2e_${'k'.repeat(40)}`;
  const admin = { email: 'admin@e2e.toolgate.test', password: 'correct horse battery staple' };
  const output: string[] = [];
  const api = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'apps/registry-api/src/main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: path.join(root, 'apps/registry-api/tsconfig.json'),
        DATABASE_URL: databaseUrl,
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
      env: { ...process.env, TOOLGATE_API_URL: apiUrl, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  collect(consoleServer, output);
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  let worker: ChildProcess | null = null;
  const stop = async () => {
    await Promise.all([
      stopChild(consoleServer),
      stopChild(api),
      ...(worker ? [stopChild(worker)] : []),
    ]);
    await dropDatabase(database);
    if (mode === 'redis') {
      const redis = connectTestRedis();
      await deleteKeys(redis, prefix);
      await closeRedis(redis);
    }
  };
  try {
    await waitFor(`${apiUrl}/healthz`, api, 'registry API');
    if (mode === 'redis') {
      // Started after the API has migrated the database the worker records calls in.
      worker = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(root, 'apps/worker/src/main.ts')],
        {
          cwd: root,
          env: {
            ...process.env,
            ...queue,
            DATABASE_URL: databaseUrl,
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
      `${error instanceof Error ? error.message : String(error)}\n${output.join('')}`,
    );
  }
  return { mode, apiUrl, consoleUrl, adminKey, admin, logs: () => output.join(''), stop };
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
