// Durable runs under SIGKILL: the API (which advances runs) and the worker (which runs their calls)
// are separate processes on the real Postgres and Redis; both are killed at step boundaries and
// mid-step and started again, and the run goes on from its last checkpoint.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPrefix, TEST_REDIS_URL } from '@toolgate/persistence/testing';
/* eslint-disable @nx/enforce-module-boundaries -- the test starts real worker processes through the worker's own test support */
import {
  startWorkerProcess,
  waitFor,
  type WorkerProcess,
} from '../../../worker/test/support/worker-process';
/* eslint-enable @nx/enforce-module-boundaries */
import {
  createKey,
  createTeam,
  createTool,
  publish,
  setStable,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startApiProcess, type ApiProcess } from '../support/api-process';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

// Ports of this file's API processes (the project's range for servers tests start).
const API_PORT = 46_180;

describe.skipIf(process.env['TOOLGATE_TEST_DATABASE'] === 'pglite')(
  'durable runs under SIGKILL',
  () => {
    const prefix = createTestPrefix();
    /** Holds the database and serves the setup requests; the API that advances runs is a child process. */
    let setup: TestApp;
    let team: TestTeam;
    let upstream: Server;
    let upstreamUrl: string;
    /** Each execution the upstream saw: which step, when it arrived, and whether it answered. */
    const executions: Array<{ step: string; at: number }> = [];
    /** Requests for these steps are held until released (a call in flight for a kill to cut). */
    const held = new Map<string, Array<() => void>>();
    const holding = new Set<string>();
    let api: ApiProcess | undefined;
    let worker: WorkerProcess | undefined;

    async function startProcesses(): Promise<void> {
      const env = {
        DATABASE_URL: setup.databaseUrl,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        TOOLGATE_ADMIN_KEY: ADMIN_KEY,
        TOOLGATE_EGRESS_ALLOW: '127.0.0.1',
      };
      [api, worker] = await Promise.all([
        startApiProcess({ port: API_PORT, env }),
        startWorkerProcess({
          name: `worker-${Date.now()}`,
          prefix,
          env: { ...env, WORKER_CONCURRENCY: '4' },
        }),
      ]);
    }

    async function killProcesses(): Promise<void> {
      await Promise.all([api?.kill(), worker?.close()]);
    }

    async function request(
      method: 'GET' | 'POST',
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Record<string, unknown> }> {
      if (api === undefined) throw new Error('no API process');
      const response = await fetch(`${api.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${team.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }

    interface RunState {
      status: string;
      failed_step: string | null;
      steps: Array<{
        name: string;
        status: string;
        attempt: number;
        finished_at: string | null;
        calls: Array<{ status: string; result: { data?: { n?: number } } | null }>;
      }>;
    }

    async function runState(id: string): Promise<RunState> {
      const response = await request('GET', `/v1/runs/${id}`);
      expect(response.status).toBe(200);
      return response.body as unknown as RunState;
    }

    /**
     * An http tool POSTing its arguments to the upstream; each request is one execution. With
     * `undoneBy`, a completed call is compensated by that tool with `{step: <its result's undo>}`.
     */
    async function createStepTool(
      idempotent: boolean,
      undoneBy?: TestTool,
      approval: 'never' | 'always' = 'never',
    ): Promise<TestTool> {
      const tool = await createTool(setup, team);
      const ir = tool.ir
        .parameters({
          type: 'object',
          properties: { step: { type: 'string' }, n: { type: 'integer' } },
          required: ['step', 'n'],
        })
        .with({
          behavior: {
            readonly: false,
            destructive: false,
            idempotent,
            requires_approval: approval,
          },
          constraints: { timeout_ms: 60_000, max_retries: 0 },
          protocol_meta: {
            toolgate: { executor: { kind: 'http', method: 'POST', url: `${upstreamUrl}/step` } },
          },
          ...(undoneBy === undefined
            ? {}
            : {
                compensation: {
                  tool: undoneBy.name,
                  arguments: { step: { from: '/result/undo' }, n: { value: 0 } },
                },
              }),
        });
      await publish(setup, team, { ...tool, ir }, '1.0.0', ir);
      await setStable(setup, team, tool, '1.0.0');
      return { ...tool, ir };
    }

    beforeAll(async () => {
      upstream = createServer((incoming: IncomingMessage, response: ServerResponse) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
        incoming.on('end', () => {
          const args = JSON.parse(text || '{}') as { step?: string; n?: number };
          const step = args.step ?? 'none';
          executions.push({ step, at: Date.now() });
          const answer = () => {
            response.setHeader('content-type', 'application/json');
            // `boom` always fails; every answer says how the step it made is undone.
            if (step === 'boom') response.statusCode = 500;
            response.end(JSON.stringify({ n: (args.n ?? 0) + 1, undo: `undo-${step}` }));
          };
          if (holding.has(step)) held.set(step, [...(held.get(step) ?? []), answer]);
          else setTimeout(answer, 150);
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      setup = await startTestApp();
      team = await createTeam(setup);
      await startProcesses();
    }, 120_000);

    afterAll(async () => {
      await killProcesses();
      await setup?.close();
      await new Promise((resolve) => upstream?.close(resolve));
    });

    function chain(tool: TestTool, count: number) {
      return Array.from({ length: count }, (_, index) => ({
        name: `s${index + 1}`,
        ...(index === 0 ? {} : { depends_on: [`s${index}`] }),
        calls: [
          {
            tool: tool.name,
            arguments: {
              step: `s${index + 1}`,
              n: index === 0 ? 0 : { $ref: { step: `s${index}`, call: 0, pointer: '/result/n' } },
            },
          },
        ],
      }));
    }

    it('continues a 10-step plan from its last checkpoint after kills at step boundaries and mid-step, never running a completed step again', async () => {
      const tool = await createStepTool(true);
      const created = await request('POST', '/v1/runs', { mode: 'plan' });
      expect(created.status).toBe(201);
      const id = created.body['id'] as string;
      const planned = await request('POST', `/v1/runs/${id}/plan`, { steps: chain(tool, 10) });
      expect(planned.status, JSON.stringify(planned.body)).toBe(202);

      // Kill both processes right after steps 2 and 5 are checkpointed (a boundary: the next step
      // may be recorded, queued or in flight), then once with step 8's call held at the upstream.
      /** Steps seen checkpointed before a kill, with when that kill came. */
      const checkpointedBeforeKills = new Map<string, number>();
      const remember = (state: RunState) => {
        for (const step of state.steps) {
          if (step.status === 'succeeded' && !checkpointedBeforeKills.has(step.name)) {
            checkpointedBeforeKills.set(step.name, Date.now());
          }
        }
      };
      for (const boundary of ['s2', 's5']) {
        const state = await waitFor(
          async () => {
            const current = await runState(id);
            return current.steps.find((step) => step.name === boundary)?.status === 'succeeded'
              ? current
              : undefined;
          },
          { timeoutMs: 30_000, what: `${boundary} to be checkpointed` },
        );
        remember(state);
        await killProcesses();
        await startProcesses();
      }
      holding.add('s8');
      await waitFor(() => Promise.resolve(held.get('s8')?.length ? true : undefined), {
        timeoutMs: 30_000,
        what: 's8 to reach the upstream',
      });
      remember(await runState(id));
      await killProcesses();
      holding.delete('s8');
      for (const answer of held.get('s8') ?? []) answer();
      await startProcesses();

      const done = await waitFor(
        async () => {
          const state = await runState(id);
          return ['succeeded', 'failed', 'awaiting_decision'].includes(state.status)
            ? state
            : undefined;
        },
        { timeoutMs: 60_000, what: 'the run to end' },
      );
      expect(done.status, JSON.stringify(done)).toBe('succeeded');
      expect(done.steps.map((step) => step.status)).toEqual(Array(10).fill('succeeded'));
      // Each step added one to the result it referenced: the chain is whole.
      expect(done.steps.at(-1)?.calls[0]?.result?.data).toMatchObject({ n: 10 });
      expect([...checkpointedBeforeKills.keys()]).toEqual(
        expect.arrayContaining(['s1', 's2', 's5']),
      );
      // s8 was cut mid-call: it ran again after the restart.
      expect(executions.filter((execution) => execution.step === 's8')).toHaveLength(2);
      for (const step of done.steps) {
        const checkpointed = Date.parse(step.finished_at ?? '');
        const runs = executions.filter((execution) => execution.step === step.name);
        // No step ran after its checkpoint, so none checkpointed before a kill ran after the restart;
        // one a kill cut mid-call (its tool is idempotent) ran again, at most once more.
        expect(
          runs.filter((execution) => execution.at > checkpointed),
          step.name,
        ).toEqual([]);
        const killedAfter = checkpointedBeforeKills.get(step.name);
        if (killedAfter !== undefined) {
          expect(
            runs.filter((execution) => execution.at > killedAfter),
            step.name,
          ).toEqual([]);
        }
        expect(runs.length, step.name).toBeGreaterThanOrEqual(1);
        expect(runs.length, step.name).toBeLessThanOrEqual(2);
      }
    }, 240_000);

    it('ends a non-idempotent step cut mid-call as outcome_unknown and waits for a decision', async () => {
      const tool = await createStepTool(false);
      const created = await request('POST', '/v1/runs', { mode: 'plan' });
      const id = created.body['id'] as string;
      holding.add('charge');
      await request('POST', `/v1/runs/${id}/plan`, {
        steps: [
          { name: 'charge', calls: [{ tool: tool.name, arguments: { step: 'charge', n: 0 } }] },
        ],
      });
      await waitFor(() => Promise.resolve(held.get('charge')?.length ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the charge to reach the upstream',
      });
      await killProcesses();
      holding.delete('charge');
      await startProcesses();
      const stopped = await waitFor(
        async () => {
          const state = await runState(id);
          return state.status === 'awaiting_decision' ? state : undefined;
        },
        { timeoutMs: 60_000, what: 'the run to stop for a decision' },
      );
      expect(stopped).toMatchObject({
        failed_step: 'charge',
        steps: [
          { name: 'charge', status: 'outcome_unknown', calls: [{ status: 'outcome_unknown' }] },
        ],
      });
      // The charge was not repeated by any process.
      expect(executions.filter((execution) => execution.step === 'charge')).toHaveLength(1);
      const decided = await request('POST', `/v1/runs/${id}/decide`, {
        step: 'charge',
        action: 'fail',
      });
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({ status: 'failed', failed_step: 'charge' });
    }, 180_000);

    it('resumes a compensation cut by kills: each completed step undone once, latest first', async () => {
      const undo = await createStepTool(true);
      const book = await createStepTool(true, undo);
      const created = await request('POST', '/v1/runs', { mode: 'plan' });
      const id = created.body['id'] as string;
      const steps = ['b1', 'b2', 'b3', 'boom'].map((name, index, names) => ({
        name,
        ...(index === 0 ? {} : { depends_on: [names[index - 1]] }),
        calls: [{ tool: book.name, arguments: { step: name, n: index } }],
      }));
      expect((await request('POST', `/v1/runs/${id}/plan`, { steps })).status).toBe(202);
      await waitFor(async () => ((await runState(id)).status === 'failed' ? true : undefined), {
        timeoutMs: 60_000,
        what: 'the plan to fail at boom',
      });
      holding.add('undo-b2');
      const compensating = await request('POST', `/v1/runs/${id}/compensate`, { scope: 'run' });
      expect(compensating.status, JSON.stringify(compensating.body)).toBe(202);
      expect(compensating.body).toMatchObject({
        status: 'compensating',
        compensations: [{ steps: ['undo:b3.0:1', 'undo:b2.0:1', 'undo:b1.0:1'] }],
      });
      // Killed with the middle compensation in flight, and again after the restart.
      await waitFor(() => Promise.resolve(held.get('undo-b2')?.length ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the second compensation to reach the upstream',
      });
      await killProcesses();
      holding.delete('undo-b2');
      for (const answer of held.get('undo-b2') ?? []) answer();
      await startProcesses();
      const done = await waitFor(
        async () => {
          const state = await runState(id);
          return state.status === 'compensating' ? undefined : state;
        },
        { timeoutMs: 60_000, what: 'the compensation to end' },
      );
      expect(done.status, JSON.stringify(done)).toBe('failed');
      expect(
        done.steps.filter((step) => step.name.startsWith('undo:')).map((step) => step.status),
      ).toEqual(['succeeded', 'succeeded', 'succeeded']);
      const undone = executions.filter((execution) => execution.step.startsWith('undo-'));
      // Latest first; the one cut mid-call (its tool is idempotent) may have run once more.
      expect([...new Set(undone.map((execution) => execution.step))]).toEqual([
        'undo-b3',
        'undo-b2',
        'undo-b1',
      ]);
      expect(undone.filter((execution) => execution.step === 'undo-b3')).toHaveLength(1);
      expect(undone.filter((execution) => execution.step === 'undo-b1')).toHaveLength(1);
      expect(undone.filter((execution) => execution.step === 'undo-b2').length).toBeLessThanOrEqual(
        2,
      );
    }, 180_000);

    it('keeps a run awaiting approval across kills of both processes, and goes on after the decision', async () => {
      const tool = await createStepTool(false, undefined, 'always');
      const created = await request('POST', '/v1/runs', { mode: 'plan' });
      const id = created.body['id'] as string;
      await request('POST', `/v1/runs/${id}/plan`, {
        steps: [{ name: 'wire', calls: [{ tool: tool.name, arguments: { step: 'wire', n: 0 } }] }],
      });
      await waitFor(
        async () => ((await runState(id)).status === 'awaiting_approval' ? true : undefined),
        { timeoutMs: 30_000, what: 'the run to wait for a person' },
      );
      await killProcesses();
      await startProcesses();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await runState(id)).toMatchObject({
        status: 'awaiting_approval',
        steps: [{ name: 'wire', status: 'running', calls: [{ status: 'awaiting_approval' }] }],
      });
      expect(executions.filter((execution) => execution.step === 'wire')).toHaveLength(0);
      const approver = await createKey(setup, { teamId: team.id, scopes: ['approvals:decide'] });
      const pending = await setup.request({ url: '/v1/approvals?status=pending', key: team.key });
      const approval = (pending.body.items as Array<{ id: string }>)[0];
      const decided = await setup.request({
        method: 'POST',
        url: `/v1/approvals/${approval?.id ?? ''}/decision`,
        key: approver,
        body: { decision: 'approve' },
      });
      expect(decided.status, decided.text).toBe(200);
      const done = await waitFor(
        async () => {
          const state = await runState(id);
          return state.status === 'succeeded' ? state : undefined;
        },
        { timeoutMs: 60_000, what: 'the run to go on after the approval' },
      );
      expect(done.steps[0]?.calls[0]?.status).toBe('succeeded');
      expect(executions.filter((execution) => execution.step === 'wire')).toHaveLength(1);
    }, 180_000);
  },
);
