// The worker resolves the secret store too: on the real Redis and Postgres a worker process runs
// the queued call, opens the team's secret with the shared TOOLGATE_SECRETS_KEY and never logs it.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts real worker processes through the worker's own test support */
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
import {
  startWorkerProcess,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import { createTeam, createTool, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const SECRETS_KEY = `worker-test:${randomBytes(32).toString('base64')}`;
const PLANTED = `planted-${randomBytes(12).toString('hex')}`;
const prefix = createTestPrefix();
let api: TestApp;
let team: TestTeam;
let redis: Redis;
let worker: WorkerProcess;
let upstream: Server;
let upstreamUrl: string;
const received: Array<string | undefined> = [];

beforeAll(async () => {
  upstream = createServer((request, response) => {
    received.push(request.headers['x-api-key'] as string | undefined);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ headers: request.headers }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  redis = connectTestRedis();
  api = await startTestApp({
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    TOOLGATE_SECRETS_KEY: SECRETS_KEY,
  });
  team = await createTeam(api);
  worker = await startWorkerProcess({
    name: 'secrets-worker',
    prefix,
    env: { DATABASE_URL: api.databaseUrl, TOOLGATE_SECRETS_KEY: SECRETS_KEY },
  });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await api?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
  await new Promise((resolve) => upstream.close(resolve));
});

describe('the worker', () => {
  it("runs a queued call with its team's secret, redacted from the result and its own output", async () => {
    const created = await api.request({
      method: 'POST',
      url: '/v1/secrets',
      key: team.key,
      body: { name: 'ORDERS_API_KEY', value: PLANTED },
    });
    expect(created.status, created.text).toBe(201);
    const tool = await createTool(api, team);
    const ir = tool.ir.parameters({ type: 'object', properties: {} }).with({
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 5_000, max_retries: 0 },
      protocol_meta: {
        toolgate: {
          executor: {
            kind: 'http',
            method: 'GET',
            url: `${upstreamUrl}/orders`,
            headers: { 'X-Api-Key': { secret: 'ORDERS_API_KEY' } },
          },
        },
      },
    });
    const published = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions`,
      key: team.key,
      body: { ir: ir.version('1.0.0').build() },
    });
    expect(published.status, published.text).toBe(201);
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir?wait_ms=15000',
      key: team.key,
      body: [{ id: `call-${randomUUID()}`, name: tool.name, arguments: {} }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      ok: true,
      data: { headers: { 'x-api-key': '[redacted]' } },
    });
    expect(received).toEqual([PLANTED]);
    const rows = await api.sql<{ worker_id: string | null; row: string }>(
      `SELECT worker_id, c::text AS row FROM calls c WHERE team_id = $1`,
      [team.id],
    );
    expect(rows.map((row) => row.worker_id)).toEqual(['secrets-worker']);
    expect(rows.map((row) => row.row).join('\n')).not.toContain(PLANTED);
    expect(worker.output()).not.toContain(PLANTED);
  });
});
