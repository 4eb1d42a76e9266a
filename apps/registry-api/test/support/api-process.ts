import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '@toolgate/persistence/testing';

const workspaceRoot = path.resolve(import.meta.dirname, '../../../..');
const entry = path.join(workspaceRoot, 'apps/registry-api/src/main.ts');

/**
 * The registry API as its own process (`src/main.ts`, as `npm start` runs it), for tests of more
 * than one replica or of a crash: `kill` SIGKILLs it (no shutdown hook runs), `close` stops it.
 */
export interface ApiProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  readonly exited: Promise<void>;
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the API with `env` (on `port`, else a free one) and resolves once it says it is up. */
export async function startApiProcess(input: {
  env: Record<string, string>;
  port?: number;
  readyTimeoutMs?: number;
}): Promise<ApiProcess> {
  const port = input.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: workspaceRoot,
    env: {
      ...process.env,
      // Nest's decorators need the app's compiler options, as scripts/start.ts runs it.
      TSX_TSCONFIG_PATH: path.join(workspaceRoot, 'apps/registry-api/tsconfig.json'),
      LOG_LEVEL: 'warn',
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
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('registry API is up')) resolve();
    });
    void exited.then(() => reject(new Error(`the API exited before it was up:\n${output}`)));
  });
  const stop = (signal: NodeJS.Signals) => async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const kill = stop('SIGKILL');
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
    await kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    exited,
    kill,
    close: stop('SIGTERM'),
  };
}
