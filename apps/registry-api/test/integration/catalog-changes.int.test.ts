// The call path reads tools, versions, releases and policies from memory in every process. A change
// made through one API process must reach the next call on another API process (it resolves the
// version) and on the worker (it decides the policy), through the catalog-change notifications.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
  TEST_REDIS_URL,
} from '@toolgate/persistence/testing';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts a real worker process through the worker's own test support */
import {
  startWorkerProcess,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import {
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/create-app';
import { openDatabase, type Database } from '../../src/database/database';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

const prefix = createTestPrefix();
let redis: Redis;
let writer: TestApp;
let reader: NestFastifyApplication;
let readerDatabase: Database;
let worker: WorkerProcess;
let team: TestTeam;

beforeAll(async () => {
  redis = connectTestRedis();
  const queue = { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix };
  writer = await startTestApp(queue);
  // A second API replica on the same database and queue, with a catalog of its own.
  readerDatabase = await openDatabase({ kind: 'postgres', url: writer.databaseUrl });
  reader = await createApp({
    config: loadConfig({
      DATABASE_URL: writer.databaseUrl,
      TOOLGATE_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
      ...queue,
    }),
    database: readerDatabase,
  });
  await reader.init();
  worker = await startWorkerProcess({
    name: 'catalog-worker',
    prefix,
    env: { DATABASE_URL: writer.databaseUrl, WORKER_CONCURRENCY: '4' },
  });
  team = await createTeam(writer);
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await reader?.close();
  await readerDatabase?.close();
  await writer?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

/** Calls the tool through the reader replica; returns the version that ran and the call's error code. */
async function callOnReader(tool: TestTool, query: string) {
  const response = await reader.inject({
    method: 'POST',
    url: '/v1/calls/ir?wait_ms=10000',
    headers: { authorization: `Bearer ${team.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify([
      { id: `c_${query}_${Date.now()}`, name: tool.name, arguments: { query } },
    ]),
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = JSON.parse(response.body) as {
    calls: Array<{ version: string }>;
    results: Array<{ ok: boolean; error?: { code: string } }>;
  };
  return { version: body.calls[0]?.version, error: body.results[0]?.error?.code ?? null };
}

/** Calls until `done` holds, for at most `ms` (a notification, not the 30 s maximum age, must do it). */
async function eventually(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error('the change did not reach the other process in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('catalog changes across processes', () => {
  it('a release set through one API is used by the next calls on another API and the worker', async () => {
    const tool = await createTool(writer, team);
    const ir = (version: string) =>
      tool.ir.version(version).with({
        behavior: { readonly: true, destructive: false, idempotent: true },
        protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: 'toolgate.echo' } } },
      });
    await publish(writer, team, tool, '1.0.0', ir('1.0.0'));
    await setStable(writer, team, tool, '1.0.0');
    // The reader and the worker now hold the tool, its release and the team's policy in memory.
    expect(await callOnReader(tool, 'a')).toEqual({ version: '1.0.0', error: null });

    await publish(writer, team, tool, '1.1.0', ir('1.1.0'));
    await setStable(writer, team, tool, '1.1.0');
    await eventually(async () => (await callOnReader(tool, 'b')).version === '1.1.0');

    // The worker decides policies: a policy activated through the writer must reach it.
    const policy = await writer.request({
      method: 'POST',
      url: '/v1/policies',
      key: team.key,
      body: {
        activate: true,
        text: `
@id("permit-all")
permit(principal, action == Action::"execute", resource);

@id("no-vip")
forbid(principal, action, resource == Tool::"${tool.name}")
when { context.arguments has query && context.arguments.query == "vip" };
`,
      },
    });
    expect(policy.status, policy.text).toBe(201);
    await eventually(async () => (await callOnReader(tool, 'vip')).error === 'policy_denied');
    expect(await callOnReader(tool, 'plain')).toEqual({ version: '1.1.0', error: null });
  });
});
