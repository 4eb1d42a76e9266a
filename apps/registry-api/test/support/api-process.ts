import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const workspaceRoot = path.resolve(import.meta.dirname, '../../../..');

/** The registry API as its own process (`src/main.ts`), so a test can SIGKILL it mid-work. */
export interface ApiProcess {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<void>;
  /** SIGKILLs the process (no shutdown hooks run) and waits for it to go. */
  kill(): Promise<void>;
}

/** Starts the API on `port` with `env` and resolves once it prints that it is up. */
export async function startApiProcess(input: {
  port: number;
  env: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<ApiProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(workspaceRoot, 'apps/registry-api/src/main.ts')],
    {
      cwd: workspaceRoot,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: path.join(workspaceRoot, 'apps/registry-api/tsconfig.json'),
        PORT: String(input.port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...input.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (line.includes('Toolgate registry API is up')) resolve();
    });
    void exited.then(() => reject(new Error(`the API exited before it was up:\n${output}`)));
  });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the API was not up in time:\n${output}`)),
          input.readyTimeoutMs ?? 60_000,
        );
      }),
    ]);
  } catch (error) {
    await kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { url: `http://127.0.0.1:${input.port}`, child, output: () => output, exited, kill };
}
