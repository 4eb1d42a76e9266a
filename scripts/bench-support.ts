/** What the benches share: a free loopback port, the API's readiness and statements on the Postgres server's admin database. */
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
