/**
 * What the benches (and the console's end-to-end stack) share: a free loopback port, requests to the
 * API with a key, the API's readiness and statements on the Postgres server's admin database.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';

/** A TCP port nothing listens on right now, for a server the bench starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
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
