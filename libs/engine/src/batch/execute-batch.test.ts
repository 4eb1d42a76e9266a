import { ERROR_CODES, ToolgateError } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { ToolExecutionError } from '../executors/executor';
import { executeBatch } from './execute-batch';
import { BatchPlanError, planBatch } from './plan-batch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('executeBatch', () => {
  it('runs independent calls in parallel: wall time near the slowest call, not the sum', async () => {
    const tool = ToolBuilder.from({ name: 'nap' }).builtin('nap').build();
    const { context, builtins } = createHarness({ tools: [tool] });
    const durations: number[] = [];
    builtins.registerBuiltin('nap', async () => {
      const started = performance.now();
      await sleep(100);
      durations.push(performance.now() - started);
      return 'rested';
    });
    // Warm up once so the schema compile of the first call is not measured.
    await executeBatch([callOf('nap', {}, 'warm-up')], context);
    durations.length = 0;
    const calls = Array.from({ length: 5 }, (_, index) => callOf('nap', {}, `c${index}`));
    const started = performance.now();
    const { results } = await executeBatch(calls, context, { concurrency: 5 });
    const elapsed = performance.now() - started;
    expect(results.every((result) => result.result.ok)).toBe(true);
    const slowest = Math.max(...durations);
    const sum = durations.reduce((total, duration) => total + duration, 0);
    expect(elapsed).toBeLessThan(2 * slowest);
    expect(elapsed).toBeLessThan(sum / 2);
  });

  it('respects the concurrency cap', async () => {
    const tool = ToolBuilder.from({ name: 'count' }).builtin('count').build();
    const { context, builtins } = createHarness({ tools: [tool] });
    let running = 0;
    let peak = 0;
    builtins.registerBuiltin('count', async () => {
      running += 1;
      peak = Math.max(peak, running);
      await sleep(5);
      running -= 1;
    });
    await executeBatch(
      Array.from({ length: 6 }, (_, index) => callOf('count', {}, `c${index}`)),
      context,
      { concurrency: 2 },
    );
    expect(peak).toBe(2);
  });

  it('runs a call after the calls to the tools it depends on, whatever the model order', async () => {
    const fetchUser = ToolBuilder.from({ name: 'fetch_user' }).builtin('fetch').build();
    const sendEmail = ToolBuilder.from({
      name: 'send_email',
      dependencies: { tools: ['fetch_user'] },
    })
      .behavior({ readonly: false, idempotent: false })
      .builtin('send')
      .build();
    const { context, builtins } = createHarness({ tools: [fetchUser, sendEmail] });
    const order: string[] = [];
    builtins.registerBuiltin('fetch', async (args) => {
      await sleep(20);
      order.push(`fetch:${String(args['id'])}`);
    });
    builtins.registerBuiltin('send', () => {
      order.push('send');
    });
    const { results, plan } = await executeBatch(
      [
        callOf('send_email', {}, 's'),
        callOf('fetch_user', { id: 1 }, 'f1'),
        callOf('fetch_user', { id: 2 }, 'f2'),
      ],
      context,
    );
    expect(order.at(-1)).toBe('send');
    expect(plan.order.at(-1)).toBe('s');
    expect(results.map((result) => result.result.call_id)).toEqual(['s', 'f1', 'f2']);
  });

  it('keeps writes to one resource in order and lets other resources run alongside', async () => {
    const update = ToolBuilder.from({
      name: 'update_doc',
      provider_hints: { toolgate: { resource_key: '/doc_id' } },
    })
      .behavior({ readonly: false, idempotent: false })
      .builtin('update')
      .build();
    const { context, builtins } = createHarness({ tools: [update] });
    const log: string[] = [];
    builtins.registerBuiltin('update', async (args) => {
      const label = `${String(args['doc_id'])}:${String(args['text'])}`;
      log.push(`start ${label}`);
      await sleep(args['text'] === 'first' ? 30 : 1);
      log.push(`end ${label}`);
    });
    await executeBatch(
      [
        callOf('update_doc', { doc_id: 'a', text: 'first' }, '1'),
        callOf('update_doc', { doc_id: 'b', text: 'other' }, '2'),
        callOf('update_doc', { doc_id: 'a', text: 'second' }, '3'),
      ],
      context,
    );
    expect(log.indexOf('end a:first')).toBeLessThan(log.indexOf('start a:second'));
    // The write to doc b did not wait for doc a.
    expect(log.indexOf('end b:other')).toBeLessThan(log.indexOf('end a:first'));
  });

  it('gives every call a result on partial failure: dependents of a failed call get dependency_failed', async () => {
    const a = ToolBuilder.from({ name: 'a' }).builtin('fail').build();
    const b = ToolBuilder.from({ name: 'b', dependencies: { tools: ['a'] } })
      .builtin('ok')
      .build();
    const c = ToolBuilder.from({ name: 'c', dependencies: { tools: ['b'] } })
      .builtin('ok')
      .build();
    const d = ToolBuilder.from({ name: 'd' }).builtin('ok').build();
    const { context, builtins } = createHarness({ tools: [a, b, c, d] });
    const ran: string[] = [];
    builtins.registerBuiltin('fail', () => {
      throw new ToolExecutionError({ code: 'tool_error', message: 'nope' });
    });
    builtins.registerBuiltin('ok', (_args, { tool }) => {
      ran.push(tool.name);
      return 'ok';
    });
    const { results } = await executeBatch(
      [callOf('a', {}, 'a1'), callOf('b', {}, 'b1'), callOf('c', {}, 'c1'), callOf('d', {}, 'd1')],
      context,
    );
    expect(results.map((result) => result.result.error?.code ?? 'ok')).toEqual([
      'tool_error',
      'dependency_failed',
      'dependency_failed',
      'ok',
    ]);
    expect(results[1]!.result.error?.message).toContain('a1');
    expect(results[1]!.result.error?.details).toEqual({ depends_on: 'a1' });
    expect(
      ERROR_CODES.dependency_failed.details.safeParse(results[1]!.result.error?.details).success,
    ).toBe(true);
    expect(ran).toEqual(['d']);
  });

  it('does not run again what already completed', async () => {
    const a = ToolBuilder.from({ name: 'a' }).builtin('a').build();
    const b = ToolBuilder.from({ name: 'b', dependencies: { tools: ['a'] } })
      .builtin('b')
      .build();
    const { context, builtins } = createHarness({ tools: [a, b] });
    const ran: string[] = [];
    builtins.registerBuiltin('a', () => ran.push('a'));
    builtins.registerBuiltin('b', () => ran.push('b'));
    const first = await executeBatch([callOf('a', {}, 'a1'), callOf('b', {}, 'b1')], context);
    expect(ran).toEqual(['a', 'b']);
    const completed = new Map([['a1', first.results[0]!]]);
    const second = await executeBatch([callOf('a', {}, 'a1'), callOf('b', {}, 'b1')], context, {
      completed,
    });
    expect(ran).toEqual(['a', 'b', 'b']);
    expect(second.results[0]).toBe(first.results[0]);
  });

  it('detects dependency cycles with a typed error', async () => {
    const a = ToolBuilder.from({ name: 'a', dependencies: { tools: ['b'] } })
      .builtin('x')
      .build();
    const b = ToolBuilder.from({ name: 'b', dependencies: { tools: ['a'] } })
      .builtin('x')
      .build();
    const { context } = createHarness({ tools: [a, b] });
    const error = await executeBatch([callOf('a', {}, 'a1'), callOf('b', {}, 'b1')], context).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BatchPlanError);
    expect(error).toMatchObject({ code: 'dependency_cycle' });
    expect((error as BatchPlanError).cycle).toEqual(['a1', 'b1', 'a1']);
    // A ToolgateError of a thrown code of the table, its cycle as typed details.
    expect(ToolgateError.isInstance(error)).toBe(true);
    const planError = error as BatchPlanError;
    expect(planError.hasCode('dependency_cycle') && planError.details?.cycle).toEqual([
      'a1',
      'b1',
      'a1',
    ]);
    expect(planError.retryable).toBe(false);
    expect(ERROR_CODES[planError.code].surfaces).toContain('thrown');
  });
});

describe('planBatch', () => {
  it('keeps readonly calls free of resource ordering and rejects duplicate ids', () => {
    const read = ToolBuilder.from({ name: 'read' }).build();
    const plan = planBatch([callOf('read', {}, 'r1'), callOf('read', {}, 'r2')], () => read);
    expect(plan.nodes.map((node) => node.dependsOn)).toEqual([[], []]);
    expect(() => planBatch([callOf('read', {}, 'x'), callOf('read', {}, 'x')], () => read)).toThrow(
      BatchPlanError,
    );
    expect(() => planBatch([callOf('read', {}, 'x'), callOf('read', {}, 'x')], () => read)).toThrow(
      expect.objectContaining({ code: 'duplicate_call_id', retryable: false }),
    );
  });

  it('defaults the resource key of a write to the tool name', () => {
    const write = ToolBuilder.from({ name: 'write' }).behavior({ readonly: false }).build();
    const plan = planBatch([callOf('write', {}, 'w1'), callOf('write', {}, 'w2')], () => write);
    expect(plan.nodes[1]).toMatchObject({ dependsOn: ['w1'], resourceKey: 'tool:write' });
  });

  it('keys writes by the resource their concurrency declares, across tools of that type', () => {
    const concurrency = {
      resource: { type: 'doc', id: '/arguments/id' },
      version: { header: 'ETag' },
      expected: { header: 'If-Match' },
    };
    const put = ToolBuilder.from({ name: 'put' })
      .behavior({ readonly: false })
      .with({ concurrency })
      .build();
    const patch = ToolBuilder.from({ name: 'patch' })
      .behavior({ readonly: false })
      .with({ concurrency })
      .build();
    const plan = planBatch(
      [
        callOf('put', { id: 'a' }, 'p1'),
        callOf('put', { id: 'b' }, 'p2'),
        callOf('patch', { id: 'a' }, 'p3'),
        callOf('patch', {}, 'p4'),
      ],
      (call) => (call.name === 'put' ? put : patch),
    );
    expect(plan.nodes.map((node) => [node.resourceKey, node.dependsOn])).toEqual([
      ['resource:doc:a', []],
      ['resource:doc:b', []],
      ['resource:doc:a', ['p1']],
      // A call that names no resource falls back to its tool's name.
      ['tool:patch', []],
    ]);
  });
});
