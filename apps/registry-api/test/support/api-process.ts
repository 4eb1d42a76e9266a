import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

const workspaceRoot = path.resolve(import.meta.dirname, '../../../..');
const entry = path.join(workspaceRoot, 'apps/registry-api/src/main.ts');

/** A registry API child process (`src/main.ts`, as `npm start` runs it); `close` kills it. */
export interface ApiProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  close(): Promise<void>;
}

// The ports this project's test servers may listen on.
const PORT_RANGE = { from: 42_000, to: 42_999 };

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port of the range nothing listens on right now (picked at random, so parallel files rarely meet). */
export async function freeTestPort(): Promise<number> {
  for (let tries = 0; tries < 200; tries += 1) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (await isFree(port)) return port;
  }
  throw new Error('no free port in 42000-42999');
}

/** Starts an API process with `env` on a free port and waits until it says it is up. */
export async function startApiProcess(input: {
  env: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ApiProcess> {
  const port = await freeTestPort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: workspaceRoot,
    env: {
      ...process.env,
      // Nest's decorators need the app's compiler options, as scripts/start.ts runs it.
      TSX_TSCONFIG_PATH: path.join(workspaceRoot, 'apps/registry-api/tsconfig.json'),
      ...input.env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('registry API is up')) resolve();
    });
    void exited.then(() => reject(new Error(`the API exited before it was up:\n${output}`)));
  });
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const timeoutMs = input.readyTimeoutMs ?? 90_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the API was not up after ${timeoutMs} ms:\n${output}`)),
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
  return { baseUrl: `http://127.0.0.1:${port}`, child, output: () => output, close };
}
