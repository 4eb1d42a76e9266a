import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let add: TestTool;
let fail: TestTool;
const executions: string[] = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('add', (args) => {
      executions.push(`add:${JSON.stringify(args)}`);
      return { sum: Number(args['a']) + Number(args['b']) };
    })
    .registerBuiltin('fail', () => {
      throw new Error('the upstream refused');
    });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  add = await createBuiltinTool(api, team, {
    handler: 'add',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  });
  fail = await createBuiltinTool(api, team, { handler: 'fail' });
});
afterAll(async () => {
  await api?.close();
});

async function createRun(mode: 'plan' | 'react'): Promise<string> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/runs',
    key: team.key,
    body: { mode, metadata: { test: true } },
  });
  expect(response.status, response.text).toBe(201);
  expect(response.body).toMatchObject({ mode, status: 'running', steps: [] });
  return response.body.id as string;
}

async function waitForRun(
  id: string,
  statuses: readonly string[],
  timeoutMs = 20_000,
): Promise<{ status: string; [field: string]: unknown }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    expect(response.status, response.text).toBe(200);
    if (statuses.includes(response.body.status)) return response.body;
    if (Date.now() > deadline) throw new Error(`run ${id} stayed ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function ref(step: string, pointer: string) {
  return { $ref: { step, call: 0, pointer } };
}

describe('plan-and-execute runs', () => {
  it('runs a 10-step plan with references, independent steps in parallel, each step once', async () => {
    const id = await createRun('plan');
    // s1 and s2 are independent; s3 adds them; s4..s10 each add 1 to the one before.
    const steps = [
      { name: 's1', calls: [{ tool: add.name, arguments: { a: 1, b: 2 } }] },
      { name: 's2', calls: [{ tool: add.name, arguments: { a: 10, b: 20 } }] },
      {
        name: 's3',
        depends_on: ['s1', 's2'],
        calls: [
          { tool: add.name, arguments: { a: ref('s1', '/result/sum'), b: ref('s2', '/result/sum') } },
        ],
      },
      ...[4, 5, 6, 7, 8, 9, 10].map((n) => ({
        name: `s${n}`,
        depends_on: [`s${n - 1}`],
        calls: [{ tool: add.name, arguments: { a: ref(`s${n - 1}`, '/result/sum'), b: 1 } }],
      })),
    ];
    const before = executions.length;
    const posted = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: { steps },
    });
    expect(posted.status, posted.text).toBe(202);
    const run = await waitForRun(id, ['succeeded', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const byName = new Map(
      (run['steps'] as Array<{ name: string; status: string; calls: Array<{ result: { data: unknown } }> }>).map(
        (step) => [step.name, step],
      ),
    );
    expect(byName.size).toBe(10);
    expect([...byName.values()].every((step) => step.status === 'succeeded')).toBe(true);
    expect(byName.get('s3')?.calls[0]?.result.data).toEqual({ sum: 33 });
    expect(byName.get('s10')?.calls[0]?.result.data).toEqual({ sum: 40 });
    // Ten steps of one call each: ten executions, none repeated.
    expect(executions.length - before).toBe(10);
  });

  it('stops at a failed step with its reason, and a re-plan keeps the completed steps', async () => {
    const id = await createRun('plan');
    const before = executions.length;
    const posted = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: {
        steps: [
          { name: 'first', calls: [{ tool: add.name, arguments: { a: 2, b: 3 } }] },
          { name: 'broken', depends_on: ['first'], calls: [{ tool: fail.name, arguments: { query: 'x' } }] },
          {
            name: 'after',
            depends_on: ['broken'],
            calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }],
          },
        ],
      },
    });
    expect(posted.status, posted.text).toBe(202);
    const failed = await waitForRun(id, ['failed', 'succeeded']);
    expect(failed).toMatchObject({ status: 'failed', failed_step: 'broken' });
    expect(failed['reason']).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(executions.length - before).toBe(1);

    const replanned = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: {
        steps: [
          { name: 'first', calls: [{ tool: add.name, arguments: { a: 2, b: 3 } }] },
          {
            name: 'fixed',
            depends_on: ['first'],
            calls: [{ tool: add.name, arguments: { a: ref('first', '/result/sum'), b: 100 } }],
          },
        ],
      },
    });
    expect(replanned.status, replanned.text).toBe(202);
    const run = await waitForRun(id, ['succeeded', 'failed']);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const steps = run['steps'] as Array<{ name: string; status: string; calls: Array<{ result: { data: unknown } }> }>;
    expect(steps.map((step) => [step.name, step.status])).toEqual([
      ['first', 'succeeded'],
      ['broken', 'cancelled'],
      ['after', 'cancelled'],
      ['fixed', 'succeeded'],
    ]);
    expect(steps[3]?.calls[0]?.result.data).toEqual({ sum: 105 });
    // `first` ran once, `fixed` once: the completed step was not run again.
    expect(executions.length - before).toBe(2);
  });

  it('fails a step whose reference points at nothing, with the reason', async () => {
    const id = await createRun('plan');
    await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: {
        steps: [
          { name: 'a', calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }] },
          {
            name: 'b',
            depends_on: ['a'],
            calls: [{ tool: add.name, arguments: { a: ref('a', '/result/missing'), b: 1 } }],
          },
        ],
      },
    });
    const run = await waitForRun(id, ['failed', 'succeeded']);
    expect(run).toMatchObject({
      status: 'failed',
      failed_step: 'b',
      reason: { code: 'unresolved_reference', message: expect.stringContaining('/result/missing') },
    });
  });

  it('refuses bad plans with invalid_plan and writes nothing', async () => {
    const id = await createRun('plan');
    const bad = [
      {
        what: 'a cycle',
        steps: [
          { name: 'x', depends_on: ['y'], calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }] },
          { name: 'y', depends_on: ['x'], calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }] },
        ],
        path: '/body/steps/0/depends_on',
      },
      {
        what: 'an unknown dependency',
        steps: [{ name: 'x', depends_on: ['nope'], calls: [{ tool: add.name, arguments: {} }] }],
        path: '/body/steps/0/depends_on/0',
      },
      {
        what: 'an unknown tool',
        steps: [{ name: 'x', calls: [{ tool: 'no_such_tool', arguments: {} }] }],
        path: '/body/steps/0/calls/0/tool',
      },
      {
        what: 'a reference to a step it does not wait for',
        steps: [
          { name: 'x', calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }] },
          { name: 'y', calls: [{ tool: add.name, arguments: { a: ref('x', '/result/sum'), b: 1 } }] },
        ],
        path: '/body/steps/1/calls/0/arguments/a',
      },
    ];
    for (const plan of bad) {
      const response = await api.request({
        method: 'POST',
        url: `/v1/runs/${id}/plan`,
        key: team.key,
        body: { steps: plan.steps },
      });
      expect(response.status, plan.what).toBe(422);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body.code, plan.what).toBe('invalid_plan');
      expect(response.body.errors.map((issue: { path: string }) => issue.path), plan.what).toContain(
        plan.path,
      );
    }
    const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    expect(run.body).toMatchObject({ status: 'running', steps: [] });
    const malformed = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: { steps: [{ name: 'has space', calls: [] }] },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('runs', () => {
  it('lists runs with a cursor, newest first, and 404s another team', async () => {
    const ids = [await createRun('plan'), await createRun('react'), await createRun('plan')];
    const first = await api.request({ url: '/v1/runs?limit=2', key: team.key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((run: { id: string }) => run.id)).toEqual([ids[2], ids[1]]);
    const second = await api.request({
      url: `/v1/runs?limit=2&cursor=${String(first.body.next_cursor)}`,
      key: team.key,
    });
    expect(second.body.items[0].id).toBe(ids[0]);
    const other = await createTeam(api);
    const hidden = await api.request({ url: `/v1/runs/${ids[0]}`, key: other.key });
    expect(hidden.status).toBe(404);
  });

  it('cancels a run once; a second cancel is a conflict', async () => {
    const id = await createRun('plan');
    const cancelled = await api.request({ method: 'POST', url: `/v1/runs/${id}/cancel`, key: team.key });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await api.request({ method: 'POST', url: `/v1/runs/${id}/cancel`, key: team.key });
    expect(again.status).toBe(409);
  });
});
