import { BuiltinExecutor, ExecutorRegistry } from '@toolgate/engine';
import { JobName, type ReceivedJob } from '@toolgate/persistence';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';
import type { ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { CallRunner } from '../runner/call-runner';
import { createEngineContext } from '../runner/engine-context';
import { InMemoryCallRepository } from '../runner/in-memory-call.repository';
import type { Budget } from './budget';
import { CallBudgets, callCostUsd } from './call-budgets';
import { InMemorySpendCounters } from './spend-counters';

const NOW = Date.parse('2026-12-07T10:00:00Z');
const TEAM = TEST_CALLER.team;
const KEY = TEST_CALLER.key_id;

function newTestBudgets(budgets: Budget[]) {
  const counters = new InMemorySpendCounters();
  const sut = new CallBudgets({
    counters,
    budgetsOf: (teamId) => Promise.resolve(budgets.filter(() => teamId === TEAM)),
    now: () => NOW,
  });
  return { sut, counters };
}

function budget(input: Partial<Budget>): Budget {
  return {
    scope: 'team',
    subjectId: TEAM,
    period: 'day',
    softUsd: null,
    hardUsd: null,
    ...input,
  };
}

describe('CallBudgets', () => {
  it('admits a caller without budgets without reading any spend', async () => {
    const counters = {
      add: () => Promise.reject(new Error('not expected')),
      read: () => Promise.reject(new Error('no read without a budget')),
    };
    const sut = new CallBudgets({ counters, budgetsOf: () => Promise.resolve([]) });
    expect(await sut.admit(TEST_CALLER)).toEqual({ kind: 'admitted' });
  });

  it('counts spend against the team and the key, day and month, and refuses past a hard limit', async () => {
    const { sut, counters } = newTestBudgets([budget({ hardUsd: 1 })]);
    expect(await sut.recordSpend({ caller: TEST_CALLER, amountUsd: 0.4 })).toBeUndefined();
    expect(await sut.admit(TEST_CALLER)).toEqual({ kind: 'admitted' });
    const breach = await sut.recordSpend({ caller: TEST_CALLER, amountUsd: 0.6 });
    expect(breach).toEqual({
      state: 'hard_exceeded',
      scope: 'team',
      period: 'day',
      limit: 1,
      spent: 1,
      resets_at: '2026-12-08T00:00:00.000Z',
    });
    expect(await sut.admit(TEST_CALLER)).toEqual({ kind: 'refused', breach });
    const subjects = (['day', 'month'] as const).flatMap((period) => [
      { scope: 'team' as const, subjectId: TEAM, period },
      { scope: 'key' as const, subjectId: KEY, period },
    ]);
    expect(await counters.read({ subjects, at: NOW })).toEqual([
      1_000_000, 1_000_000, 1_000_000, 1_000_000,
    ]);
  });

  it('warns past a soft limit and names the worst breach of several budgets', async () => {
    const { sut } = newTestBudgets([
      budget({ softUsd: 0.5 }),
      budget({ scope: 'key', subjectId: KEY, period: 'month', softUsd: 0.1, hardUsd: 0.7 }),
    ]);
    await sut.recordSpend({ caller: TEST_CALLER, amountUsd: 0.6 });
    expect(await sut.admit(TEST_CALLER)).toMatchObject({
      kind: 'admitted',
      breach: { state: 'soft_exceeded', scope: 'team', limit: 0.5, spent: 0.6 },
    });
    expect(await sut.recordSpend({ caller: TEST_CALLER, amountUsd: 0.1 })).toMatchObject({
      state: 'hard_exceeded',
      scope: 'key',
      period: 'month',
      limit: 0.7,
      resets_at: '2027-01-01T00:00:00.000Z',
    });
  });

  it("leaves out another key's budget", async () => {
    const { sut } = newTestBudgets([budget({ scope: 'key', subjectId: 'other-key', hardUsd: 0 })]);
    expect(await sut.admit(TEST_CALLER)).toEqual({ kind: 'admitted' });
  });
});

describe('callCostUsd', () => {
  const tokenCost = {
    model: 'gpt-4.1',
    tokens: { input: 100, output: 20, cache_read: 0, cache_write: 0, reasoning: 0 },
    usd: 0.0004,
    unpricedReason: null,
  };

  it("is the call's whole cost: its tool cost plus its share of the turn's tokens", () => {
    expect(
      callCostUsd({
        record: { provider: 'openai-chat', token_cost: tokenCost },
        outcome: { tool_cost: { usd: 0.25, source: 'reported' } },
      }),
    ).toBeCloseTo(0.2504, 10);
  });

  it('counts an unknown part as nothing, and a call that cost nothing known as 0', () => {
    expect(
      callCostUsd({
        record: { provider: 'openai-chat', token_cost: { ...tokenCost, usd: null } },
        outcome: { tool_cost: { usd: 0.25, source: 'estimate' } },
      }),
    ).toBe(0.25);
    // Refused before any executor ran: no tool cost, but the model's tokens were spent.
    expect(
      callCostUsd({ record: { provider: 'openai-chat', token_cost: tokenCost }, outcome: {} }),
    ).toBeCloseTo(0.0004, 10);
    expect(callCostUsd({ record: {}, outcome: {} })).toBe(0);
  });
});

function costlyTool(costUsd: number): ToolIR {
  const tool = buildTool({ name: 'paid', handler: 'paid' });
  return { ...tool, constraints: { ...tool.constraints, cost_estimate_usd: costUsd } };
}

describe('the call runner with budgets', () => {
  function setUp(budgets: Budget[]) {
    const calls = new InMemoryCallRepository();
    const runs: string[] = [];
    const executors = new ExecutorRegistry({
      builtin: new BuiltinExecutor().registerBuiltin('paid', (_args, { call }) => {
        runs.push(call.id);
        return { paid: true };
      }),
    });
    const runner = new CallRunner({
      calls,
      createContext: (scope) => createEngineContext({ executors }, scope),
      workerId: 'worker-a',
      budgets: newTestBudgets(budgets).sut,
      now: () => NOW,
    });
    const tool = costlyTool(0.6);
    const run = async () => {
      const call = buildCall(tool, {});
      await calls.create({ call, tool, caller: TEST_CALLER });
      const job: ReceivedJob = {
        id: call.id,
        name: JobName.ExecuteToolCall,
        data: { call_id: call.id },
        attempt: 1,
      };
      return { result: await runner.process(job), record: await calls.getCall(call.id) };
    };
    return { run, runs };
  }

  it('runs a call over a soft budget with a note in its result, and refuses one over a hard budget', async () => {
    const { run, runs } = setUp([budget({ softUsd: 0.5, hardUsd: 1 })]);

    const first = await run();
    expect(first.record?.outcome?.result._meta).toMatchObject({
      toolgate: { budget: { state: 'soft_exceeded', scope: 'team', period: 'day', limit: 0.5 } },
    });

    const second = await run();
    expect(second.record?.outcome?.result).toMatchObject({
      ok: true,
      _meta: { toolgate: { budget: { state: 'hard_exceeded', spent: 1.2 } } },
    });

    const third = await run();
    expect(third.result).toEqual({
      status: 'executed',
      call_state: 'failed',
      recovered: false,
      attempts: 0,
    });
    expect(third.record?.state).toBe('failed');
    expect(third.record?.outcome?.result.error).toMatchObject({
      code: 'budget_exceeded',
      retryable: false,
      details: {
        scope: 'team',
        period: 'day',
        limit: 1,
        spent: 1.2,
        resets_at: '2026-12-08T00:00:00.000Z',
      },
    });
    expect(third.record?.outcome?.result.error?.message).toContain("team's daily budget of $1.00");
    expect(runs).toHaveLength(2);
  });

  it('leaves results without a breach untouched', async () => {
    const { run } = setUp([budget({ hardUsd: 100 })]);
    const { record } = await run();
    expect(record?.outcome?.result).toEqual({
      call_id: record?.call.id,
      name: 'paid',
      ok: true,
      data: { paid: true },
    });
  });
});
