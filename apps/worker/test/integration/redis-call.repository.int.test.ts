import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOutcome } from '@toolgate/persistence';
import { RedisCallRepository } from '../../src/tool-calls/redis-call.repository';
import { describeCallRepositoryContract } from '@toolgate/persistence/testing';
import { isClaimed } from '@toolgate/persistence';
import {
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '@toolgate/persistence/testing';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';

const prefix = createTestPrefix();
let redis: Redis;

beforeAll(() => {
  redis = connectTestRedis();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await closeRedis(redis);
});

describeCallRepositoryContract('redis', () => new RedisCallRepository({ redis, prefix }));

describe('RedisCallRepository', () => {
  it('expires a finished call after the retention period, and keeps one awaiting approval', async () => {
    const calls = new RedisCallRepository({ redis, prefix, retentionSeconds: 3600 });
    const tool = buildTool();
    const finished = buildCall(tool);
    const waiting = buildCall(tool);
    const outcome = (callId: string, status: CallOutcome['status']): CallOutcome => ({
      status,
      result: { call_id: callId, name: tool.name, ok: status === 'succeeded' },
      attempts: 1,
      latency_ms: 1,
      answered_by: undefined,
      finished_at: 1,
    });
    for (const call of [finished, waiting]) {
      await calls.create({ call, tool, caller: TEST_CALLER });
      await calls
        .claim(call.id, {
          worker_id: 'w',
          attempt: 1,
          run_id: `run-${call.id}`,
          started_at: 0,
        })
        .then(isClaimed);
    }
    await calls.recordOutcome(finished.id, {
      runId: `run-${finished.id}`,
      outcome: outcome(finished.id, 'succeeded'),
    });
    await calls.recordOutcome(waiting.id, {
      runId: `run-${waiting.id}`,
      outcome: outcome(waiting.id, 'awaiting_approval'),
    });
    const ttl = await redis.ttl(calls.keyOf(finished.id));
    expect(ttl).toBeGreaterThan(3000);
    expect(ttl).toBeLessThanOrEqual(3600);
    expect(await redis.ttl(calls.keyOf(waiting.id))).toBe(-1);
  });

  it('fails loudly on a corrupted record rather than guessing', async () => {
    const calls = new RedisCallRepository({ redis, prefix });
    await redis.hset(calls.keyOf('call_corrupt'), 'record', '{"call":{}}', 'state', 'queued');
    await expect(calls.getCall('call_corrupt')).rejects.toThrow();
  });
});
