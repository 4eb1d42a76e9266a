// The gateway under faults, on a Redis of this file's own: worker processes killed mid-call, Redis
// killed and started again, the API restarted while calls are posted. What must hold whatever
// happens: no call is lost, none is doubled, and every execution of a tool is in the records.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts real worker processes through the worker's own test support */
import {
  createTestPrefix,
  createTestRedisServer,
  type TestRedisServer,
} from '@toolgate/persistence/testing';
import {
  startWorkerProcess,
  waitFor,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import { openAIChatMessage } from '../factories/gateway.factory';
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
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

const FINAL = ['succeeded', 'failed', 'cancelled', 'outcome_unknown'];

/** The Idempotency-Key a call was posted under (a row's key adds the model's call id to it). */
function requestKeyOf(row: { idempotencyKey: string }): string {
  return row.idempotencyKey.slice(0, row.idempotencyKey.lastIndexOf(':'));
}

describe.skipIf(process.env['TOOLGATE_TEST_DATABASE'] === 'pglite')(
  'the gateway under faults',
  () => {
    const prefix = createTestPrefix();
    let redisServer: TestRedisServer;
    /** Holds the database, the team and the tools; the API that takes calls is started apart. */
    let api: TestApp;
    let team: TestTeam;
    let charges: Server;
    let chargesUrl: string;
    /** How often the non-idempotent tool's side effect happened, per call (its `key` argument). */
    const charged = new Map<string, number>();
    const workers = new Map<string, WorkerProcess>();

    function startWorker(name: string): Promise<WorkerProcess> {
      return startWorkerProcess({
        name,
        prefix,
        env: {
          REDIS_URL: redisServer.url,
          DATABASE_URL: api.databaseUrl,
          WORKER_CONCURRENCY: '8',
          // A job stalls once for the killed worker and may stall again while Redis is away.
          WORKER_MAX_STALLED_COUNT: '5',
          // The charge server is on loopback, which the egress policy refuses unless allowed.
          TOOLGATE_EGRESS_ALLOW: '127.0.0.1',
        },
      }).then((worker) => {
        workers.set(name, worker);
        return worker;
      });
    }

    /** An API process's app on the shared database and this file's Redis. */
    async function startApi(): Promise<NestFastifyApplication> {
      const app = await createApp({
        config: loadConfig({
          DATABASE_URL: api.databaseUrl,
          TOOLGATE_ADMIN_KEY: ADMIN_KEY,
          LOG_LEVEL: 'silent',
          REDIS_URL: redisServer.url,
          QUEUE_PREFIX: prefix,
        }),
        database: api.database,
      });
      await app.init();
      return app;
    }

    async function publishTool(tool: TestTool, ir: TestTool['ir']): Promise<TestTool> {
      await publish(api, team, { ...tool, ir }, '1.0.0', ir);
      await setStable(api, team, tool, '1.0.0');
      return { ...tool, ir };
    }

    /** An idempotent builtin tool that sleeps `ms`. */
    async function createSleepTool(): Promise<TestTool> {
      const tool = await createTool(api, team);
      return publishTool(
        tool,
        tool.ir
          .parameters({ type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } })
          .with({
            behavior: { readonly: true, destructive: false, idempotent: true },
            constraints: { timeout_ms: 20_000 },
            protocol_meta: {
              toolgate: { executor: { kind: 'builtin', handler: 'toolgate.sleep' } },
            },
          }),
      );
    }

    /** A non-idempotent http tool: each request it makes is one charge, counted by the local server. */
    async function createChargeTool(): Promise<TestTool> {
      const tool = await createTool(api, team);
      return publishTool(
        tool,
        tool.ir.parameters({ type: 'object', properties: { key: { type: 'string' } } }).with({
          behavior: { readonly: false, destructive: false, idempotent: false },
          constraints: { timeout_ms: 20_000, max_retries: 0 },
          protocol_meta: {
            toolgate: { executor: { kind: 'http', method: 'POST', url: `${chargesUrl}/charge` } },
          },
        }),
      );
    }

    beforeAll(async () => {
      charges = createServer((request: IncomingMessage, response: ServerResponse) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const key = (JSON.parse(body || '{}') as { key?: string }).key ?? 'none';
          charged.set(key, (charged.get(key) ?? 0) + 1);
          // Long enough that a kill finds charges in flight.
          setTimeout(() => {
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify({ charged: key }));
          }, 150);
        });
      });
      await new Promise<void>((resolve) => charges.listen(0, '127.0.0.1', resolve));
      chargesUrl = `http://127.0.0.1:${(charges.address() as AddressInfo).port}`;
      redisServer = await createTestRedisServer({ persist: true });
      await redisServer.start();
      api = await startTestApp();
      team = await createTeam(api);
      await Promise.all([startWorker('worker-a'), startWorker('worker-b')]);
    }, 60_000);

    afterAll(async () => {
      await Promise.all([...workers.values()].map((worker) => worker.close()));
      await api?.close();
      await redisServer?.dispose();
      await new Promise((resolve) => charges?.close(resolve));
    });

    /** Posts one call; resolves with its row id. */
    async function post(
      app: NestFastifyApplication,
      input: { tool: TestTool; args: Record<string, unknown>; idempotencyKey: string },
    ): Promise<{ status: number; id: string | undefined; text: string }> {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/calls',
        headers: {
          authorization: `Bearer ${team.key}`,
          'content-type': 'application/json',
          'idempotency-key': input.idempotencyKey,
        },
        payload: JSON.stringify({
          provider: 'openai-chat',
          wait_ms: 0,
          payload: openAIChatMessage([
            { id: 'call_1', name: input.tool.name, arguments: JSON.stringify(input.args) },
          ]),
        }),
      });
      const body =
        response.body === '' ? {} : (JSON.parse(response.body) as { call_ids?: string[] });
      return { status: response.statusCode, id: body.call_ids?.[0], text: response.body };
    }

    /** This test's calls once all are final, or as they stand after a deadline (for the assertions to tell). */
    async function settled(total: number) {
      const deadline = Date.now() + 40_000;
      for (;;) {
        const rows = await api.database.prisma.call.findMany({
          where: { teamId: team.id, idempotencyKey: { startsWith: 'fault-' } },
        });
        const done = rows.length === total && rows.every((row) => FINAL.includes(row.status));
        if (done || Date.now() > deadline) return rows;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    async function callRow(id: string) {
      return api.database.prisma.call.findUniqueOrThrow({ where: { id } });
    }

    it('ends an open event stream with the final event when the bus lost it (Redis was down)', async () => {
      const sleep = await createSleepTool();
      const app = await startApi();
      try {
        const posted = await post(app, {
          tool: sleep,
          args: { ms: 1_500 },
          idempotencyKey: randomUUID(),
        });
        expect(posted.status, posted.text).toBe(202);
        const callId = posted.id!;
        // Resolves when the stream ends: inject collects the whole response.
        const stream = app.inject({
          method: 'GET',
          url: `/v1/calls/${callId}/events`,
          headers: { authorization: `Bearer ${team.key}` },
        });
        await waitFor(
          async () => ((await callRow(callId)).status === 'running' ? true : undefined),
          {
            timeoutMs: 20_000,
            what: 'the call to start',
          },
        );
        await redisServer.kill();
        // The worker records the outcome in Postgres; its `finished` event has nowhere to go.
        const done = await waitFor(
          async () => {
            const row = await callRow(callId);
            return FINAL.includes(row.status) ? row : undefined;
          },
          { timeoutMs: 20_000, what: 'the call to finish' },
        );
        expect(done.status).toBe('succeeded');
        await redisServer.start();
        const response = await stream;
        expect(response.statusCode).toBe(200);
        const finished = /event: finished\ndata: (.*)\n/.exec(response.body);
        expect(finished, response.body).not.toBeNull();
        expect(JSON.parse(finished![1]!)).toMatchObject({
          type: 'finished',
          call_id: callId,
          status: 'succeeded',
          ok: true,
        });
      } finally {
        await app.close();
      }
    }, 60_000);

    it('loses no call, doubles none and records every execution through a worker kill, a Redis restart and an API restart', async () => {
      const sleep = await createSleepTool();
      const charge = await createChargeTool();
      const total = 240;
      const planned = Array.from({ length: total }, (_, index) => {
        const idempotencyKey = `fault-${index}-${randomUUID()}`;
        return index % 3 === 0
          ? { tool: charge, args: { key: idempotencyKey }, idempotencyKey }
          : { tool: sleep, args: { ms: 50 + (index % 5) * 40 }, idempotencyKey };
      });

      let current: NestFastifyApplication | undefined = await startApi();
      /** Posts until an API answers: a request cut off by a restart is posted again, same key. */
      const postUntilAnswered = async (call: (typeof planned)[number]): Promise<void> => {
        for (;;) {
          const app = current;
          if (app !== undefined) {
            const answered = await post(app, call).catch(() => undefined);
            if (answered !== undefined && answered.status === 202) return;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      let posted = 0;
      const poster = (async () => {
        // A few clients at a time, so posts, runs and faults overlap.
        const queue = [...planned];
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            for (let call = queue.shift(); call !== undefined; call = queue.shift()) {
              await postUntilAnswered(call);
              posted += 1;
            }
          }),
        );
      })();
      const reached = (count: number) =>
        waitFor(() => Promise.resolve(posted >= count ? true : undefined), {
          timeoutMs: 30_000,
          what: `${count} calls posted`,
          intervalMs: 10,
        });

      // A worker dies mid-call: its calls come back to the other once their locks lapse.
      await reached(total / 4);
      await workers.get('worker-a')!.close();
      // Redis crashes and comes back; its append-only file keeps the queue.
      await reached(total / 2);
      await redisServer.kill();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await redisServer.start();
      // The API stops (requests in flight are cut off) and starts again.
      await reached((total * 3) / 4);
      const stopping = current;
      current = undefined;
      await stopping.close();
      current = await startApi();
      await poster;

      try {
        const ours = await settled(total);
        // 0 doubled: one record per Idempotency-Key, and 0 lost: each of them final.
        expect(new Set(ours.map(requestKeyOf)).size).toBe(total);
        expect(ours).toHaveLength(total);
        expect(
          ours
            .filter((row) => !FINAL.includes(row.status))
            .map((row) => ({ id: row.id, status: row.status, runs: row.runs })),
        ).toEqual([]);

        const chargeRows = ours.filter((row) => row.toolId === charge.id);
        for (const row of chargeRows) {
          const count = charged.get(requestKeyOf(row)) ?? 0;
          const seen = {
            key: row.idempotencyKey,
            status: row.status,
            count,
            attempts: row.attempts,
          };
          // A non-idempotent tool never runs twice for one call.
          expect(count, JSON.stringify(seen)).toBeLessThanOrEqual(1);
          // An execution is recorded as one: done, or possibly done; never as not run.
          if (count === 1)
            expect(['succeeded', 'outcome_unknown'], JSON.stringify(seen)).toContain(row.status);
          if (row.status === 'succeeded') expect(count, JSON.stringify(seen)).toBe(1);
          if (row.status === 'outcome_unknown')
            expect(row.attempts, JSON.stringify(seen)).toBeGreaterThan(0);
        }
        // Nothing was charged that is not one of these calls.
        const keys = new Set(chargeRows.map(requestKeyOf));
        expect([...charged.keys()].filter((key) => !keys.has(key))).toEqual([]);
      } finally {
        await current.close();
      }
    }, 120_000);
  },
);
