import { getAdapter } from '@toolgate/adapters';
import { BuiltinExecutor } from '@toolgate/engine';
import type { ToolCallIR } from '@toolgate/toolir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicContent,
  createBuiltinTool,
  DESTRUCTIVE_BEHAVIOR,
  openAIChatMessage,
} from '../factories/gateway.factory';
import { createKey, createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let add: TestTool;
let fail: TestTool;
let drop: TestTool;
let slow: TestTool;
const executions: string[] = [];
let releaseSlow: (() => void) | undefined;

/** Lets the running `slow` call finish. */
function release(): void {
  const next = releaseSlow;
  releaseSlow = undefined;
  next?.();
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('add', (args) => {
      executions.push(`add:${JSON.stringify(args)}`);
      return { sum: Number(args['a']) + Number(args['b']) };
    })
    .registerBuiltin('fail', () => {
      throw new Error('the upstream refused');
    })
    .registerBuiltin('drop', (args) => {
      executions.push(`drop:${JSON.stringify(args)}`);
      return { dropped: args['query'] };
    })
    .registerBuiltin('slow', async (args) => {
      executions.push(`slow:${JSON.stringify(args)}`);
      await new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
      return { done: true };
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
  drop = await createBuiltinTool(api, team, { handler: 'drop', behavior: DESTRUCTIVE_BEHAVIOR });
  slow = await createBuiltinTool(api, team, {
    handler: 'slow',
    behavior: { readonly: false, idempotent: false },
  });
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
    const body = response.body as { status: string; [field: string]: unknown };
    if (statuses.includes(body.status)) return body;
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
          {
            tool: add.name,
            arguments: { a: ref('s1', '/result/sum'), b: ref('s2', '/result/sum') },
          },
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
      (
        run['steps'] as Array<{
          name: string;
          status: string;
          calls: Array<{ result: { data: unknown } }>;
        }>
      ).map((step) => [step.name, step]),
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
          {
            name: 'broken',
            depends_on: ['first'],
            calls: [{ tool: fail.name, arguments: { query: 'x' } }],
          },
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
    expect(failed['reason']).toMatchObject({
      code: expect.any(String),
      message: expect.any(String),
    });
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
    const steps = run['steps'] as Array<{
      name: string;
      status: string;
      calls: Array<{ result: { data: unknown } }>;
    }>;
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
          {
            name: 'y',
            calls: [{ tool: add.name, arguments: { a: ref('x', '/result/sum'), b: 1 } }],
          },
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
      expect(
        response.body.errors.map((issue: { path: string }) => issue.path),
        plan.what,
      ).toContain(plan.path);
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
    const cancelled = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/cancel`,
      key: team.key,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/cancel`,
      key: team.key,
    });
    expect(again.status).toBe(409);
  });
});

describe('ReAct runs', () => {
  it('executes turns as steps (a repeated Idempotency-Key runs nothing again) and serves the transcript in every format', async () => {
    const id = await createRun('react');
    const before = executions.length;
    const first = {
      method: 'POST' as const,
      url: `/v1/runs/${id}/turns`,
      key: team.key,
      headers: { 'idempotency-key': 'turn-one' },
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_1', name: add.name, arguments: '{"a":1,"b":2}' },
          { id: 'call_2', name: add.name, arguments: '{"a":3,"b":4}' },
        ]),
      },
    };
    const answered = await api.request(first);
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.results).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: expect.stringContaining('3') },
      { role: 'tool', tool_call_id: 'call_2', content: expect.stringContaining('7') },
    ]);
    const replayed = await api.request(first);
    expect(replayed.status, replayed.text).toBe(200);
    expect(replayed.body.calls).toEqual(answered.body.calls);
    const second = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/turns`,
      key: team.key,
      headers: { 'idempotency-key': 'turn-two' },
      body: {
        provider: 'anthropic',
        payload: {
          role: 'assistant',
          content: anthropicContent([{ id: 'toolu_3', name: add.name, input: { a: 10, b: 5 } }]),
        },
      },
    });
    expect(second.status, second.text).toBe(200);
    expect(executions.length - before).toBe(3);

    const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    expect(run.body).toMatchObject({ status: 'running' });
    expect(
      run.body.steps.map((step: { kind: string; status: string; calls: unknown[] }) => [
        step.kind,
        step.status,
        step.calls.length,
      ]),
    ).toEqual([
      ['turn', 'succeeded', 2],
      ['turn', 'succeeded', 1],
    ]);

    const calls: ToolCallIR[] = [
      { id: 'call_1', name: add.name, arguments: { a: 1, b: 2 } },
      { id: 'call_2', name: add.name, arguments: { a: 3, b: 4 } },
      { id: 'toolu_3', name: add.name, arguments: { a: 10, b: 5 } },
    ];
    const sums = [3, 7, 15];
    for (const format of ['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const) {
      const transcript = await api.request({
        url: `/v1/runs/${id}/transcript?format=${format}`,
        key: team.key,
      });
      expect(transcript.status, transcript.text).toBe(200);
      const messages = transcript.body.messages as Array<Record<string, unknown>>;
      const adapter = getAdapter(format);
      const isCall = (message: Record<string, unknown>) =>
        format === 'openai-responses'
          ? message['type'] === 'function_call'
          : message['role'] === 'assistant' || message['role'] === 'model';
      const back =
        format === 'openai-responses'
          ? adapter.callsFromWire(messages.filter(isCall))
          : messages.filter(isCall).flatMap((message) => adapter.callsFromWire(message));
      expect(
        back.map(({ id: callId, name, arguments: args }) => ({
          id: callId,
          name,
          arguments: args,
        })),
        format,
      ).toEqual(calls);
      const resultMessages = messages.filter((message) => !isCall(message));
      const results =
        format === 'openai-responses' || format === 'openai-chat'
          ? adapter.resultsFromWire(resultMessages, { calls })
          : resultMessages.flatMap((message) => adapter.resultsFromWire(message, { calls }));
      expect(
        results.map((result) => [result.call_id, result.ok]),
        format,
      ).toEqual(calls.map((call) => [call.id, true]));
      expect(
        JSON.stringify(results.map((result) => result.data ?? result.content)),
        format,
      ).toContain(String(sums[2]));
    }
  });

  it('refuses a turn it cannot read and keeps no step; a plan run takes no turns', async () => {
    const id = await createRun('react');
    const bad = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/turns`,
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([{ id: 'c', name: 'no_such_tool', arguments: '{}' }]),
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('unknown_tool');
    const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    expect(run.body.steps).toEqual([]);
    const planRun = await createRun('plan');
    const refused = await api.request({
      method: 'POST',
      url: `/v1/runs/${planRun}/turns`,
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([{ id: 'c', name: add.name, arguments: '{"a":1,"b":1}' }]),
      },
    });
    expect(refused.status).toBe(409);
  });
});

describe('completing a ReAct run', () => {
  it("succeeds at the model's final answer and takes no more turns; a plan run does not complete by request", async () => {
    const id = await createRun('react');
    const turn = {
      method: 'POST' as const,
      url: `/v1/runs/${id}/turns`,
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([{ id: 'call_c', name: add.name, arguments: '{"a":1,"b":1}' }]),
      },
    };
    expect((await api.request(turn)).status).toBe(200);
    const completed = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/complete`,
      key: team.key,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body).toMatchObject({ status: 'succeeded', steps: [{ status: 'succeeded' }] });
    const again = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/complete`,
      key: team.key,
    });
    expect(again.status).toBe(409);
    expect(again.headers['content-type']).toContain('application/problem+json');
    const late = await api.request(turn);
    expect(late.status, late.text).toBe(409);

    const plan = await createRun('plan');
    const refused = await api.request({
      method: 'POST',
      url: `/v1/runs/${plan}/complete`,
      key: team.key,
    });
    expect(refused.status).toBe(409);
  });
});

describe('runs that stop for a person', () => {
  it('shows awaiting_approval while a step waits for one, and goes on after the approval', async () => {
    const id = await createRun('plan');
    const before = executions.length;
    await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: {
        steps: [
          { name: 'drop', calls: [{ tool: drop.name, arguments: { query: 'old_rows' } }] },
          {
            name: 'after',
            depends_on: ['drop'],
            calls: [{ tool: add.name, arguments: { a: 1, b: 1 } }],
          },
        ],
      },
    });
    await waitForRun(id, ['awaiting_approval']);
    expect(executions.length).toBe(before);
    const pending = await api.request({ url: '/v1/approvals?status=pending', key: team.key });
    const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    const callId = run.body.steps[0].calls[0].id as string;
    const approval = (pending.body.items as Array<{ id: string; call_id: string }>).find(
      (item) => item.call_id === callId,
    );
    const approver = await createKey(api, { teamId: team.id, scopes: ['approvals:decide'] });
    const decided = await api.request({
      method: 'POST',
      url: `/v1/approvals/${approval?.id ?? ''}/decision`,
      key: approver,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    const done = await waitForRun(id, ['succeeded', 'failed']);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(executions.length - before).toBe(2);
  });

  it('stops at a step whose outcome is unknown and retries it on decision', async () => {
    const id = await createRun('plan');
    await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/plan`,
      key: team.key,
      body: {
        steps: [{ name: 'charge', calls: [{ tool: slow.name, arguments: { query: 'card' } }] }],
      },
    });
    // The call is running; mark it as the call runner marks a non-idempotent call a dead process held.
    let callId: string | undefined;
    for (let tries = 0; callId === undefined && tries < 200; tries += 1) {
      const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
      const call = run.body.steps[0]?.calls[0] as { id: string; status: string } | undefined;
      if (call?.status === 'running') callId = call.id;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await api.sql(
      `UPDATE calls SET status = 'outcome_unknown', finished_at = now(), error_code = 'outcome_unknown',
              result = '{"ok": false, "error": {"code": "outcome_unknown", "message": "the process died", "retryable": false}}'::jsonb
        WHERE id = $1`,
      [callId],
    );
    release();
    const stopped = await waitForRun(id, ['awaiting_decision']);
    expect(stopped).toMatchObject({
      failed_step: 'charge',
      reason: { code: 'outcome_unknown' },
      steps: [{ name: 'charge', status: 'outcome_unknown', attempt: 1 }],
    });
    const wrong = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/decide`,
      key: team.key,
      body: { step: 'nope', action: 'retry' },
    });
    expect(wrong.status).toBe(404);
    const retried = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/decide`,
      key: team.key,
      body: { step: 'charge', action: 'retry' },
    });
    expect(retried.status, retried.text).toBe(200);
    // The retry is attempt 2, under new idempotency keys: the call runs again.
    await waitForRunningAttempt(id, 2);
    for (let tries = 0; tries < 200 && releaseSlow === undefined; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    release();
    const done = await waitForRun(id, ['succeeded', 'failed']);
    expect(done).toMatchObject({
      status: 'succeeded',
      steps: [{ name: 'charge', status: 'succeeded', attempt: 2 }],
    });
  });
});

async function waitForRunningAttempt(id: string, attempt: number): Promise<void> {
  for (let tries = 0; tries < 400; tries += 1) {
    const run = await api.request({ url: `/v1/runs/${id}`, key: team.key });
    const step = run.body.steps[0] as { attempt: number; calls: Array<{ status: string }> };
    if (step.attempt === attempt && step.calls[0]?.status === 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${id} never ran attempt ${attempt}`);
}
