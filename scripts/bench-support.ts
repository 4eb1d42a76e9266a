/**
 * What the benches (and the console's end-to-end stack) share: a free loopback port, requests to the
 * API with a key, the API's readiness and statements on the Postgres server's admin database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';

/**
 * A TCP port nothing listens on right now, for a server the bench starts: any free port, or one
 * of `BENCH_PORTS` (`43000-43999`) on a machine where each user keeps to a range.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env['BENCH_PORTS'] ?? '');
  if (range === null) return listenOn(0);
  const low = Number(range[1]);
  const high = Number(range[2]);
  const start = low + Math.floor(Math.random() * (high - low + 1));
  for (let offset = 0; offset <= high - low; offset += 1) {
    const port = low + ((start - low + offset) % (high - low + 1));
    try {
      return await listenOn(port);
    } catch {
      // taken: try the next one
    }
  }
  throw new Error(`no free port in BENCH_PORTS ${range[0]}`);
}

function listenOn(wanted: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One JSON request to the registry API. */
export interface ApiRequest {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * Sends a request with an API key; returns the status and the parsed body, whatever the status (a
 * body that is not JSON, such as a proxy's error page, comes back as its text).
 */
export async function apiRequest(
  base: string,
  key: string,
  request: ApiRequest,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await response.text();
  if (text === '') return { status: response.status, body: undefined };
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** `apiRequest` for setting a bench up: a status outside 2xx is an error that names the request. */
export async function apiCall(
  base: string,
  key: string,
  request: ApiRequest,
): Promise<{ status: number; body: unknown }> {
  const response = await apiRequest(base, key, request);
  if (response.status < 200 || response.status > 299)
    throw new Error(
      `${request.method} ${request.path}: ${response.status} ${typeof response.body === 'string' ? response.body : JSON.stringify(response.body)}`,
    );
  return response;
}

/** Runs one statement (CREATE / DROP DATABASE) on its own connection to `serverUrl`. */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Waits until the API the bench started answers /readyz (first starts migrate; up to 2 minutes). */
export async function waitForReady(base: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the API did not become ready within 2 minutes');
}

/**
 * Starts the registry API (`apps/registry-api/src/main.ts` under tsx) on `databaseUrl` and a free
 * port, quiet but for warnings; `BENCH_CPU_PROFILE=<dir>` writes its CPU profile there.
 */
export async function spawnApi(options: {
  root: string;
  databaseUrl: string;
  adminKey: string;
}): Promise<{ api: ChildProcess; base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const profileDir = process.env['BENCH_CPU_PROFILE'];
  const api = spawn(
    process.execPath,
    [
      ...(profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir]),
      '--import',
      'tsx',
      path.join(options.root, 'apps/registry-api/src/main.ts'),
    ],
    {
      cwd: options.root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: options.databaseUrl,
        TOOLGATE_ADMIN_KEY: options.adminKey,
        LOG_LEVEL: 'warn',
        TSX_TSCONFIG_PATH: path.join(options.root, 'apps/registry-api/tsconfig.json'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return {
    api,
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      api.kill('SIGTERM');
      await new Promise((resolve) =>
        api.exitCode === null ? api.once('exit', resolve) : resolve(undefined),
      );
    },
  };
}
