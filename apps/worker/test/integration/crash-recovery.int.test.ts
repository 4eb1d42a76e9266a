import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullMqDriver } from '@toolgate/persistence';
import { JobName, QueueName } from '@toolgate/persistence';
import { OUTCOME_UNKNOWN_MESSAGE } from '@toolgate/gateway';
import { RedisCallRepository } from '../../src/tool-calls/redis-call.repository';
import {
  TEST_REDIS_URL,
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '@toolgate/persistence/testing';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';
import type { WorkerProcess } from '../support/worker-process';
import {
  readRecordedOutcomes,
  readTestCounter,
  startWorkerProcess,
  waitFor,
} from '../support/worker-process';

describe('a worker killed with SIGKILL mid-call', () => {
  const prefix = createTestPrefix();
  let redis: Redis;
  let calls: RedisCallRepository;
  let queue: BullMqDriver;
  const workers: WorkerProcess[] = [];

  const counter = (name: 'starts' | 'completions' | 'outcomes', callId: string): Promise<number> =>
    readTestCounter(redis, { prefix, counter: name, callId });
  const recordedOutcomes = (callId: string): Promise<number> =>
    readRecordedOutcomes(redis, { prefix, callId });

  beforeAll(() => {
    redis = connectTestRedis();
    calls = new RedisCallRepository({ redis, prefix });
    queue = new BullMqDriver({ queue: QueueName.ToolCalls, redisUrl: TEST_REDIS_URL, prefix });
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queue.obliterate();
    await queue.close();
    await deleteKeys(redis, prefix);
    await closeRedis(redis);
  });

  it('is picked up by another worker: an idempotent call finishes once, a non-idempotent one ends as outcome_unknown', async () => {
    const idempotent = buildTool({
      name: 'refresh_cache',
      handler: 'test.counted_sleep',
      idempotent: true,
    });
    const chargeCard = buildTool({
      name: 'charge_card',
      handler: 'test.counted_sleep',
      idempotent: false,
    });
    const safeCall = buildCall(idempotent, { ms: 2_500 });
    const riskyCall = buildCall(chargeCard, { ms: 2_500 });
    for (const [tool, call] of [
      [idempotent, safeCall],
      [chargeCard, riskyCall],
    ] as const) {
      await calls.create({ call, tool, caller: TEST_CALLER });
      await queue.enqueue({
        name: JobName.ExecuteToolCall,
        id: call.id,
        data: { call_id: call.id },
      });
    }

    const first = await startWorkerProcess({ name: 'worker-a', prefix });
    workers.push(first);
    await waitFor(
      async () =>
        (await counter('starts', safeCall.id)) === 1 &&
        (await counter('starts', riskyCall.id)) === 1
          ? true
          : undefined,
      { timeoutMs: 20_000, what: 'worker-a to start both calls' },
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await calls.getCall(safeCall.id)).toMatchObject({
      state: 'running',
      run: { worker_id: 'worker-a' },
    });

    const second = await startWorkerProcess({ name: 'worker-b', prefix });
    workers.push(second);
    const final = async (callId: string) => {
      const record = await calls.getCall(callId);
      return record !== undefined && record.state !== 'running' && record.state !== 'queued'
        ? record
        : undefined;
    };
    const [safe, risky] = await Promise.all([
      waitFor(() => final(safeCall.id), {
        timeoutMs: 30_000,
        what: 'the idempotent call to finish',
      }),
      waitFor(() => final(riskyCall.id), {
        timeoutMs: 30_000,
        what: 'the non-idempotent call to finish',
      }),
    ]);

    // The idempotent tool's side effect started twice (once per worker) but the call finished once, ok.
    expect(safe).toMatchObject({
      state: 'succeeded',
      run: { worker_id: 'worker-b' },
      outcome: { status: 'succeeded', result: { ok: true, data: { worker_id: 'worker-b' } } },
    });
    expect(await counter('starts', safeCall.id)).toBe(2);
    expect(await counter('completions', safeCall.id)).toBe(1);
    expect(await recordedOutcomes(safeCall.id)).toBe(1);

    // The non-idempotent tool was not run again: a person or the model decides.
    expect(risky).toMatchObject({
      state: 'outcome_unknown',
      run: { worker_id: 'worker-b' },
      outcome: {
        status: 'outcome_unknown',
        // The killed pickup reached the tool (`starts` is 1): it counts, though it never finished.
        attempts: 1,
        result: {
          ok: false,
          error: { code: 'outcome_unknown', retryable: false, message: OUTCOME_UNKNOWN_MESSAGE },
        },
      },
    });
    expect(risky?.runs?.map((run) => [run.worker_id, run.ended?.state])).toEqual([
      ['worker-a', 'abandoned'],
      ['worker-b', 'outcome_unknown'],
    ]);
    expect(await counter('starts', riskyCall.id)).toBe(1);
    expect(await counter('completions', riskyCall.id)).toBe(0);
    expect(await recordedOutcomes(riskyCall.id)).toBe(1);

    // Both jobs completed in BullMQ (expected outcomes are results, not failures).
    await expect(queue.waitForResult(safeCall.id, { timeoutMs: 5_000 })).resolves.toMatchObject({
      state: 'completed',
      value: { status: 'executed', recovered: true },
    });
    await expect(queue.waitForResult(riskyCall.id, { timeoutMs: 5_000 })).resolves.toEqual({
      state: 'completed',
      value: { status: 'outcome_unknown' },
    });
  }, 90_000);
});
