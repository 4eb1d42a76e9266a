import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config';
import { startServer, type RunningServer } from '../../src/start-server';
import { ToolIRFactory } from '../factories/tool-ir.factory';

const ADMIN = 'embedded-admin-key-0123456789abcdefghijkl';
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'toolgate-pglite-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  // No DATABASE_URL: the embedded default.
  return startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PGLITE_DATA_DIR: dataDir,
      TOOLGATE_ADMIN_KEY: ADMIN,
      LOG_LEVEL: 'silent',
    }),
  );
}

async function call(
  server: RunningServer,
  options: { method?: 'GET' | 'POST' | 'PUT'; url: string; body?: unknown },
) {
  const response = await server.app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
  });
  return { status: response.statusCode, body: response.body === '' ? undefined : response.json() };
}

describe('embedded default (PGlite, no DATABASE_URL)', () => {
  // A fresh PGlite runs initdb in WebAssembly: tens of seconds on a busy CI machine.
  it(
    'migrates, serves the API on a port, and keeps its data across restarts',
    { timeout: 180_000 },
    async () => {
      const first = await start();
      let toolId: string;
      try {
        expect(first.database.kind).toBe('pglite');
        expect(first.urls.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        const ready = await fetch(`${first.urls.api.replace(/\/v1$/, '')}/readyz`);
        expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite' });
        const team = await call(first, {
          method: 'POST',
          url: '/v1/teams',
          body: { slug: 'embedded', name: 'Embedded' },
        });
        expect(team.status).toBe(201);
        const tool = await call(first, {
          method: 'POST',
          url: '/v1/tools',
          body: { name: 'lookup', team_id: team.body.id, tags: ['demo'] },
        });
        expect(tool.status).toBe(201);
        toolId = tool.body.id as string;
        const ir = ToolIRFactory.from({ id: toolId, name: 'lookup', tags: ['demo'] }).build();
        // A tool's first published version becomes stable by itself (and says so).
        const published = await call(first, {
          method: 'POST',
          url: `/v1/tools/${toolId}/versions`,
          body: { ir },
        });
        expect(published.status).toBe(201);
        expect(published.body).toMatchObject({ served: true, next: null });
        const exported = await call(first, { url: '/v1/exports?format=anthropic&tags=demo' });
        expect(exported.status).toBe(200);
        expect(exported.body.resolution).toMatchObject([
          { name: 'lookup', version: '1.0.0', reason: 'stable' },
        ]);
        const search = await call(first, { url: '/v1/tools/search?q=lookup' });
        expect(search.body.items.map((item: { id: string }) => item.id)).toEqual([toolId]);
      } finally {
        await first.close();
      }
      const second = await start();
      try {
        const tool = await call(second, { url: `/v1/tools/${toolId}` });
        expect(tool.body).toMatchObject({ name: 'lookup', release: { stable_version: '1.0.0' } });
        const verify = await call(second, { url: '/v1/audit/verify' });
        expect(verify.body).toMatchObject({ ok: true, checked: 4 });
      } finally {
        await second.close();
      }
    },
  );
});
