import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { TEST_REDIS_URL } from '@toolgate/persistence/testing';

const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const entry = path.join(workspaceRoot, 'apps/worker/test/fixtures/test-worker.ts');

/** The Redis key of a per-call counter kept by the test worker's `test.counted_sleep` tool and outcome wrapper. */
export function testCounterKey(input: {
  prefix: string;
  counter: 'starts' | 'completions' | 'outcomes';
  callId: string;
}): string {
  return `${input.prefix}:test:${input.counter}:${input.callId}`;
}

/** Reads a per-call test counter (0 when the test worker never touched it). */
export async function readTestCounter(
  redis: Pick<Redis, 'get'>,
  key: Parameters<typeof testCounterKey>[0],
): Promise<number> {
  return Number((await redis.get(testCounterKey(key))) ?? 0);
}

/**
 * A call's counted outcomes, once the first is counted: the worker counts an outcome only after
 * recordOutcome commits, so a call can read as final just before its count moves.
 */
export function readRecordedOutcomes(
  redis: Pick<Redis, 'get'>,
  key: Omit<Parameters<typeof testCounterKey>[0], 'counter'>,
): Promise<number> {
  return waitFor(
    async () => {
      const count = await readTestCounter(redis, { ...key, counter: 'outcomes' });
      return count > 0 ? count : undefined;
    },
    { timeoutMs: 5_000, what: `the outcome of ${key.callId} to be counted` },
  );
}

/** A worker child process; `close` kills it if it is still running. */
export interface WorkerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  close(): Promise<void>;
}

/** Starts `test/fixtures/test-worker.ts` on the test Redis under `prefix` and waits for its ready line. */
export async function startWorkerProcess(input: {
  name: string;
  prefix: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: workspaceRoot,
    env: {
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: input.prefix,
      WORKER_ID: input.name,
      WORKER_CONCURRENCY: '4',
      // Short locks so a killed worker's calls come back within seconds.
      WORKER_LOCK_DURATION_MS: '1500',
      WORKER_STALLED_INTERVAL_MS: '500',
      WORKER_MAX_STALLED_COUNT: '2',
      DRAIN_TIMEOUT_MS: '15000',
      LOG_LEVEL: 'info',
      // The local servers tests start stand in for third-party APIs: allow-listed as an operator would.
      TOOLGATE_EGRESS_ALLOW: '127.0.0.1,localhost',
      ...input.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('worker ready')) resolve();
    });
    void exited.then(({ code }) =>
      reject(new Error(`worker ${input.name} exited (${code}) before it was ready:\n${output}`)),
    );
  });
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const timeoutMs = input.readyTimeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`worker ${input.name} not ready after ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    await close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { name: input.name, child, output: () => output, exited, close };
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<TValue>(
  check: () => Promise<TValue | undefined>,
  options: { timeoutMs: number; what: string; intervalMs?: number },
): Promise<TValue> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}
