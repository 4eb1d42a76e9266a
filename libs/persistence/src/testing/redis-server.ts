import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** A redis-server of one test's own, which the test may kill and start again on the same port. */
export interface TestRedisServer {
  readonly port: number;
  readonly url: string;
  /** Whether the process is up. */
  readonly running: boolean;
  /** Starts the server (again) on its port and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills the server at once (SIGKILL, as a crash would) and resolves once it is gone. */
  kill(): Promise<void>;
  /** Kills the server and removes its data directory. */
  dispose(): Promise<void>;
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port was assigned');
  return address.port;
}

/**
 * A `redis-server` on a free port: tests that take Redis away from running processes must not take
 * the development machine's shared Redis away from everyone else. Without `persist` a restart comes
 * back empty; with it, every write is in an append-only file synced before it is acknowledged, as a
 * production Redis behind BullMQ runs, so a crash loses no job. `start` it when the test wants it
 * up (it is not started here, so a test can begin with Redis down).
 */
export async function createTestRedisServer(
  options: { persist?: boolean } = {},
): Promise<TestRedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'toolgate-redis-'));
  const persistence = options.persist
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const server: TestRedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined;
    },
    async start() {
      if (child !== undefined) return;
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      exited = new Promise((resolve) => started.once('exit', () => resolve()));
      void exited.then(() => {
        if (child === started) child = undefined;
      });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const lines = createInterface({ input: started.stdout });
        lines.on('line', (line) => {
          output += `${line}\n`;
          if (line.includes('Ready to accept connections')) resolve();
        });
        started.once('error', reject);
        void exited.then(() => reject(new Error(`redis-server on ${port} exited:\n${output}`)));
      });
    },
    async kill() {
      child?.kill('SIGKILL');
      await exited;
    },
    async dispose() {
      await server.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return server;
}
