// The gateway end to end on the real Redis and Postgres: the API records calls and enqueues them on
// BullMQ (REDIS_URL set), worker processes execute them and record outcomes in the same `calls`
// table, and events come back for wait_ms and SSE.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
  readTestCounter,
  startWorkerProcess,
  waitFor,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import {
  createBuiltinTool,
  DESTRUCTIVE_BEHAVIOR,
  openAIChatMessage,
  waitForCallStatus,
} from '../factories/gateway.factory';
import {
  createKey,
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/create-app';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

const prefix = createTestPrefix();
let api: TestApp;
let team: TestTeam;
let redis: Redis;
let upstream: Server;
let upstreamUrl: string;
const workers: WorkerProcess[] = [];
/** Requests the upstream HTTP server saw, per path, with their arrival times. */
const hits = new Map<string, number[]>();
/** What the upstream answers per path: a script of statuses, the last one repeating. */
const scripts = new Map<string, Array<{ status: number; retryAfter?: string }>>();

function startWorker(name: string): Promise<WorkerProcess> {
  return startWorkerProcess({
    name,
    prefix,
    env: { DATABASE_URL: api.databaseUrl, WORKER_CONCURRENCY: '8' },
  }).then((worker) => {
    workers.push(worker);
    return worker;
  });
}

beforeAll(async () => {
  upstream = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const seen = hits.get(path) ?? [];
    seen.push(Date.now());
    hits.set(path, seen);
    const script = scripts.get(path) ?? [{ status: 200 }];
    const step = script[Math.min(seen.length - 1, script.length - 1)] ?? { status: 200 };
    response.statusCode = step.status;
    if (step.retryAfter !== undefined) response.setHeader('retry-after', step.retryAfter);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ path, attempt: seen.length }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  redis = connectTestRedis();
  api = await startTestApp({ REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix });
  team = await createTeam(api);
  await startWorker('worker-a');
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.close()));
  await api?.close();
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
  await new Promise((resolve) => upstream.close(resolve));
});

/** An http tool calling `GET <upstream>/<path>`, published as stable. */
async function createHttpTool(input: {
  path: string;
  idempotent: boolean;
  maxRetries: number;
  fallback?: string[];
}): Promise<TestTool> {
  const tool = await createTool(api, team);
  const ir = tool.ir.with({
    // A readonly tool is idempotent by definition; a non-idempotent one writes.
    behavior: { readonly: input.idempotent, destructive: false, idempotent: input.idempotent },
    constraints: { timeout_ms: 5_000, max_retries: input.maxRetries },
    ...(input.fallback === undefined ? {} : { fallback: input.fallback }),
    protocol_meta: {
      toolgate: { executor: { kind: 'http', method: 'GET', url: `${upstreamUrl}${input.path}` } },
    },
  });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
  return { ...tool, ir };
}

/** A builtin tool taking `ms` (and an optional `query`), run by the worker's example handlers. */
async function createSleepTool(input: {
  handler: 'toolgate.sleep' | 'test.counted_sleep' | 'toolgate.echo';
  readonly?: boolean;
  idempotent?: boolean;
}): Promise<TestTool> {
  const tool = await createTool(api, team);
  const ir = tool.ir
    .parameters({
      type: 'object',
      properties: { ms: { type: 'integer', minimum: 0 }, query: { type: 'string' } },
    })
    .with({
      behavior: {
        readonly: input.readonly ?? input.idempotent !== false,
        destructive: false,
        idempotent: input.idempotent ?? true,
      },
      constraints: { timeout_ms: 20_000 },
      protocol_meta: { toolgate: { executor: { kind: 'builtin', handler: input.handler } } },
    });
  await publish(api, team, { ...tool, ir }, '1.0.0', ir);
  await setStable(api, team, tool, '1.0.0');
  return { ...tool, ir };
}

function postCalls(input: {
  calls: Array<{ id: string; name: string; arguments: string }>;
  waitMs: number;
  idempotencyKey?: string;
}) {
  return api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    ...(input.idempotencyKey === undefined
      ? {}
      : { headers: { 'idempotency-key': input.idempotencyKey } }),
    body: {
      provider: 'openai-chat',
      conversation_id: randomUUID(),
      wait_ms: input.waitMs,
      payload: openAIChatMessage(input.calls),
    },
  });
}

async function callRow(id: string) {
  return api.database.prisma.call.findUniqueOrThrow({ where: { id } });
}

describe('the gateway on BullMQ and Postgres', () => {
  it('answers within wait_ms with the worker-recorded result in the provider format', async () => {
    const echo = await createSleepTool({ handler: 'toolgate.echo' });
    const response = await postCalls({
      calls: [{ id: 'call_echo', name: echo.name, arguments: '{"query":"oslo"}' }],
      waitMs: 20_000,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results).toEqual([
      { role: 'tool', tool_call_id: 'call_echo', content: expect.stringContaining('oslo') },
    ]);
    const row = await callRow(response.body.calls[0].id);
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1, workerId: 'worker-a' });
    expect(row.finishedAt).toBeInstanceOf(Date);
  });

  it('executes one Idempotency-Key once, also when posted twice at the same time', async () => {
    const counted = await createSleepTool({ handler: 'test.counted_sleep' });
    const key = `turn-${randomUUID()}`;
    const post = () =>
      postCalls({
        calls: [{ id: 'call_once', name: counted.name, arguments: '{"ms":200}' }],
        waitMs: 20_000,
        idempotencyKey: key,
      });
    const [first, second] = await Promise.all([post(), post()]);
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.body.calls[0].id).toBe(first.body.calls[0].id);
    expect(second.body.results).toEqual(first.body.results);
    const again = await post();
    expect(again.body.calls[0].id).toBe(first.body.calls[0].id);
    const callId = first.body.calls[0].id as string;
    expect(await readTestCounter(redis, { prefix, counter: 'starts', callId })).toBe(1);
    expect(await readTestCounter(redis, { prefix, counter: 'outcomes', callId })).toBe(1);
  });

  it('retries an idempotent tool after a 503, honoring Retry-After; never retries a non-idempotent one', async () => {
    scripts.set('/flaky-safe', [{ status: 503, retryAfter: '1' }, { status: 200 }]);
    scripts.set('/flaky-unsafe', [{ status: 503 }, { status: 200 }]);
    const safe = await createHttpTool({ path: '/flaky-safe', idempotent: true, maxRetries: 2 });
    const unsafe = await createHttpTool({
      path: '/flaky-unsafe',
      idempotent: false,
      maxRetries: 2,
    });
    const response = await postCalls({
      calls: [
        { id: 'call_safe', name: safe.name, arguments: '{"query":"a"}' },
        { id: 'call_unsafe', name: unsafe.name, arguments: '{"query":"b"}' },
      ],
      waitMs: 20_000,
    });
    expect(response.status, response.text).toBe(200);
    const [safeRow, unsafeRow] = await Promise.all(
      (response.body.calls as Array<{ id: string }>).map((call) => callRow(call.id)),
    );
    expect(safeRow).toMatchObject({ status: 'succeeded', attempts: 2 });
    const safeHits = hits.get('/flaky-safe') ?? [];
    expect(safeHits).toHaveLength(2);
    // Retry-After: 1 means the second request came no sooner than a second after the first.
    expect((safeHits[1] ?? 0) - (safeHits[0] ?? 0)).toBeGreaterThanOrEqual(950);
    expect(unsafeRow).toMatchObject({ status: 'failed', attempts: 1 });
    expect(hits.get('/flaky-unsafe')).toHaveLength(1);
  });

  it('answers from a fallback when retries are exhausted, and says which tool answered', async () => {
    scripts.set('/down', [{ status: 503 }]);
    const backup = await createSleepTool({ handler: 'toolgate.echo' });
    const primary = await createHttpTool({
      path: '/down',
      idempotent: true,
      maxRetries: 1,
      fallback: [backup.name],
    });
    const response = await postCalls({
      calls: [{ id: 'call_fb', name: primary.name, arguments: '{"query":"x"}' }],
      waitMs: 20_000,
    });
    expect(response.status, response.text).toBe(200);
    const row = await callRow(response.body.calls[0].id);
    expect(row).toMatchObject({ status: 'succeeded', answeredBy: backup.name });
    expect(hits.get('/down')).toHaveLength(2);
    const call = await api.request({ url: `/v1/calls/${row.id}`, key: team.key });
    expect(call.body).toMatchObject({ answered_by: backup.name, result: { ok: true } });
  });

  it('runs five independent calls in parallel and dependent calls in order', async () => {
    const sleep = await createSleepTool({ handler: 'toolgate.sleep' });
    const started = Date.now();
    const parallel = await postCalls({
      calls: Array.from({ length: 5 }, (_, index) => ({
        id: `call_p${index}`,
        name: sleep.name,
        arguments: `{"ms":${600 + index * 100}}`,
      })),
      waitMs: 20_000,
    });
    const wall = Date.now() - started;
    expect(parallel.status, parallel.text).toBe(200);
    // The slowest sleeps 1 s and the sum is 4 s: parallel runs finish near the slowest.
    expect(wall).toBeLessThan(2_500);

    // Writes to one resource (a non-readonly tool without a resource key) keep the model's order.
    const writer = await createSleepTool({ handler: 'toolgate.sleep', readonly: false });
    const ordered = await postCalls({
      calls: [
        { id: 'call_w1', name: writer.name, arguments: '{"ms":400,"query":"first"}' },
        { id: 'call_w2', name: writer.name, arguments: '{"ms":10,"query":"second"}' },
        { id: 'call_w3', name: writer.name, arguments: '{"ms":10,"query":"third"}' },
      ],
      waitMs: 20_000,
    });
    expect(ordered.status, ordered.text).toBe(200);
    const rows = await Promise.all(
      (ordered.body.calls as Array<{ id: string }>).map((call) => callRow(call.id)),
    );
    for (let index = 1; index < rows.length; index += 1) {
      const previous = rows[index - 1]!;
      const current = rows[index]!;
      expect(current.startedAt!.getTime()).toBeGreaterThanOrEqual(previous.finishedAt!.getTime());
    }
  });

  it('runs a destructive call only after approval, once', async () => {
    const drop = await createBuiltinTool(api, team, {
      handler: 'test.counted_sleep',
      behavior: DESTRUCTIVE_BEHAVIOR,
    });
    const response = await postCalls({
      calls: [{ id: 'call_drop', name: drop.name, arguments: '{"query":"users"}' }],
      waitMs: 20_000,
    });
    expect(response.status, response.text).toBe(202);
    const callId = response.body.calls[0].id as string;
    expect(response.body.calls[0].status).toBe('awaiting_approval');
    expect(await readTestCounter(redis, { prefix, counter: 'starts', callId })).toBe(0);
    const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });

    const approver = await createKey(api, { teamId: team.id, scopes: ['approvals:decide'] });
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approval.id}/decision`,
      key: approver,
      body: { decision: 'approve', reason: 'ticket OPS-1' },
    });
    expect(decided.status, decided.text).toBe(200);
    const done = await waitForCallStatus(api, {
      key: team.key,
      id: callId,
      statuses: ['succeeded', 'failed'],
      timeoutMs: 20_000,
    });
    expect(done).toMatchObject({ status: 'succeeded', result: { ok: true } });
    expect(await readTestCounter(redis, { prefix, counter: 'starts', callId })).toBe(1);
    const consumed = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
    expect(consumed.consumedAt).toBeInstanceOf(Date);
  });

  it('streams queued, started and finished over SSE while a worker runs the call', async () => {
    const sleep = await createSleepTool({ handler: 'toolgate.sleep' });
    const response = await postCalls({
      calls: [{ id: 'call_sse', name: sleep.name, arguments: '{"ms":800}' }],
      waitMs: 0,
    });
    expect(response.status, response.text).toBe(202);
    const callId = response.body.calls[0].id as string;
    const stream = await api.request({ url: `/v1/calls/${callId}/events`, key: team.key });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('event: started');
    expect(stream.text).toContain('event: finished');
  });

  it('cancels a running call: the worker aborts it and the call stays cancelled', async () => {
    const sleep = await createSleepTool({ handler: 'test.counted_sleep' });
    const response = await postCalls({
      calls: [{ id: 'call_cancel', name: sleep.name, arguments: '{"ms":5000}' }],
      waitMs: 0,
    });
    const callId = response.body.calls[0].id as string;
    await waitFor(
      async () =>
        (await readTestCounter(redis, { prefix, counter: 'starts', callId })) === 1
          ? true
          : undefined,
      { timeoutMs: 10_000, what: 'the call to start' },
    );
    const cancelled = await api.request({
      method: 'POST',
      url: `/v1/calls/${callId}/cancel`,
      key: team.key,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await readTestCounter(redis, { prefix, counter: 'completions', callId })).toBe(0);
    expect(await callRow(callId)).toMatchObject({ status: 'cancelled' });
  });

  it('recovers calls after a worker is SIGKILLed mid-call: idempotent completes once, non-idempotent ends outcome_unknown', async () => {
    const safe = await createSleepTool({ handler: 'test.counted_sleep', idempotent: true });
    const risky = await createSleepTool({ handler: 'test.counted_sleep', idempotent: false });
    const response = await postCalls({
      calls: [
        { id: 'call_safe_kill', name: safe.name, arguments: '{"ms":2500}' },
        { id: 'call_risky_kill', name: risky.name, arguments: '{"ms":2500}' },
      ],
      waitMs: 0,
    });
    expect(response.status, response.text).toBe(202);
    const [safeId, riskyId] = (response.body.calls as Array<{ id: string }>).map((call) => call.id);
    const count = (counter: 'starts' | 'completions' | 'outcomes', callId: string) =>
      readTestCounter(redis, { prefix, counter, callId });
    await waitFor(
      async () =>
        (await count('starts', safeId!)) === 1 && (await count('starts', riskyId!)) === 1
          ? true
          : undefined,
      { timeoutMs: 20_000, what: 'both calls to start' },
    );
    const first = workers.find((worker) => worker.name === 'worker-a')!;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await callRow(safeId!)).toMatchObject({ status: 'running', workerId: 'worker-a' });

    await startWorker('worker-b');
    const [safeDone, riskyDone] = await Promise.all(
      [safeId!, riskyId!].map((id) =>
        waitForCallStatus(api, {
          key: team.key,
          id,
          statuses: ['succeeded', 'failed', 'outcome_unknown'],
          timeoutMs: 30_000,
        }),
      ),
    );
    expect(safeDone).toMatchObject({ status: 'succeeded' });
    expect(await count('starts', safeId!)).toBe(2);
    expect(await count('completions', safeId!)).toBe(1);
    // The worker counts an outcome after its write commits, so the API can show the call finished
    // a moment before the counter moves: wait for the first count, then require exactly one.
    await waitFor(async () => ((await count('outcomes', safeId!)) >= 1 ? true : undefined), {
      timeoutMs: 10_000,
      what: "the safe call's outcome to be counted",
    });
    expect(await count('outcomes', safeId!)).toBe(1);
    expect(riskyDone).toMatchObject({
      status: 'outcome_unknown',
      result: { ok: false, error: { code: 'outcome_unknown' } },
    });
    expect(await count('starts', riskyId!)).toBe(1);
    expect(await count('completions', riskyId!)).toBe(0);
    expect(await callRow(riskyId!)).toMatchObject({ workerId: 'worker-b' });
  }, 90_000);

  it('keeps a call queued while no worker runs and executes it when one starts', async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    const echo = await createSleepTool({ handler: 'toolgate.echo' });
    const response = await postCalls({
      calls: [{ id: 'call_later', name: echo.name, arguments: '{"query":"later"}' }],
      waitMs: 300,
    });
    expect(response.status, response.text).toBe(202);
    const callId = response.body.calls[0].id as string;
    expect(await callRow(callId)).toMatchObject({ status: 'queued' });
    await startWorker('worker-c');
    const done = await waitForCallStatus(api, {
      key: team.key,
      id: callId,
      statuses: ['succeeded', 'failed'],
      timeoutMs: 20_000,
    });
    expect(done).toMatchObject({ status: 'succeeded' });
  }, 60_000);

  it('enqueues at start what an API recorded but never enqueued (it stopped in between)', async () => {
    const echo = await createSleepTool({ handler: 'toolgate.echo' });
    // The row as POST /v1/calls writes it, with no job behind it.
    const row = await api.database.prisma.call.create({
      data: {
        id: randomUUID(),
        teamId: team.id,
        actor: 'test',
        provider: 'ir',
        providerCallId: 'call_orphan',
        toolId: echo.id,
        toolName: echo.name,
        toolVersion: '1.0.0',
        arguments: { query: 'orphan' },
        argumentsHash: 'not-checked-here',
        idempotencyKey: randomUUID(),
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await callRow(row.id)).toMatchObject({ status: 'queued' });
    // A restarted API (here: a second replica on the same database) sweeps queued calls at start.
    const restarted = await createApp({
      config: loadConfig({
        DATABASE_URL: api.databaseUrl,
        TOOLGATE_ADMIN_KEY: ADMIN_KEY,
        LOG_LEVEL: 'silent',
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
      }),
      database: api.database,
    });
    await restarted.init();
    try {
      const done = await waitForCallStatus(api, {
        key: team.key,
        id: row.id,
        statuses: ['succeeded', 'failed'],
        timeoutMs: 20_000,
      });
      expect(done).toMatchObject({ status: 'succeeded', result: { ok: true } });
    } finally {
      await restarted.close();
    }
  }, 60_000);
});
