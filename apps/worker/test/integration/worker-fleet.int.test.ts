import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullMqDriver } from '@toolgate/persistence';
import { JobName, QueueName } from '@toolgate/persistence';
import type { CallRecord } from '@toolgate/persistence';
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

describe('two worker processes on one Redis', () => {
  const prefix = createTestPrefix();
  let redis: Redis;
  let calls: RedisCallRepository;
  let queue: BullMqDriver;
  let workers: WorkerProcess[] = [];

  const counter = (name: 'starts' | 'completions' | 'outcomes', callId: string): Promise<number> =>
    readTestCounter(redis, { prefix, counter: name, callId });
  const recordedOutcomes = (callId: string): Promise<number> =>
    readRecordedOutcomes(redis, { prefix, callId });

  const finished = async (callId: string): Promise<CallRecord | undefined> => {
    const record = await calls.getCall(callId);
    return record !== undefined && record.state !== 'running' && record.state !== 'queued'
      ? record
      : undefined;
  };

  beforeAll(async () => {
    redis = connectTestRedis();
    calls = new RedisCallRepository({ redis, prefix });
    queue = new BullMqDriver({ queue: QueueName.ToolCalls, redisUrl: TEST_REDIS_URL, prefix });
    workers = await Promise.all([
      startWorkerProcess({ name: 'worker-a', prefix, env: { WORKER_CONCURRENCY: '3' } }),
      startWorkerProcess({ name: 'worker-b', prefix, env: { WORKER_CONCURRENCY: '3' } }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await queue.obliterate();
    await queue.close();
    await deleteKeys(redis, prefix);
    await closeRedis(redis);
  });

  it("hold a tool's rate limit together: exactly rpm calls run in the window", async () => {
    const rpm = 4;
    const tool = buildTool({ name: 'limited', handler: 'test.counted_sleep', rpm });
    const batch = Array.from({ length: 12 }, () => buildCall(tool, { ms: 300 }));
    for (const call of batch) await calls.create({ call, tool, caller: TEST_CALLER });
    await Promise.all(
      batch.map((call) =>
        queue.enqueue({ name: JobName.ExecuteToolCall, id: call.id, data: { call_id: call.id } }),
      ),
    );

    const records = await Promise.all(
      batch.map((call) =>
        waitFor(() => finished(call.id), { timeoutMs: 30_000, what: `call ${call.id}` }),
      ),
    );
    const admitted = records.filter((record) => record.outcome?.result.ok === true);
    const limited = records.filter(
      (record) => record.outcome?.result.error?.code === 'rate_limited',
    );
    expect(admitted).toHaveLength(rpm);
    expect(limited).toHaveLength(batch.length - rpm);
    // Both processes took calls, so the limit was shared rather than held by one.
    expect(new Set(records.map((record) => record.run?.worker_id))).toEqual(
      new Set(['worker-a', 'worker-b']),
    );
    const starts = await Promise.all(batch.map((call) => counter('starts', call.id)));
    expect(starts.reduce((sum, count) => sum + count, 0)).toBe(rpm);
  }, 60_000);

  it('SIGTERM during a call lets it finish and record its outcome, then the process exits 0', async () => {
    const tool = buildTool({
      name: 'slow_report',
      handler: 'test.counted_sleep',
      idempotent: false,
    });
    const call = buildCall(tool, { ms: 1_500 });
    await calls.create({ call, tool, caller: TEST_CALLER });
    await queue.enqueue({ name: JobName.ExecuteToolCall, id: call.id, data: { call_id: call.id } });

    await waitFor(async () => ((await counter('starts', call.id)) === 1 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the call to start',
    });
    const running = await calls.getCall(call.id);
    const owner = workers.find((worker) => worker.name === running?.run?.worker_id);
    expect(owner).toBeDefined();
    owner!.child.kill('SIGTERM');

    expect(await owner!.exited).toEqual({ code: 0, signal: null });
    expect(owner!.output()).toContain('every call in flight finished');
    expect(await calls.getCall(call.id)).toMatchObject({
      state: 'succeeded',
      run: { worker_id: owner!.name },
      outcome: { result: { ok: true, data: { slept_ms: 1_500 } } },
    });
    expect(await counter('starts', call.id)).toBe(1);
    expect(await counter('completions', call.id)).toBe(1);
    expect(await recordedOutcomes(call.id)).toBe(1);
  }, 60_000);
});
