import { BullMqDriver } from '../../src/queue/bullmq.driver';
import { QueueName } from '../../src/queue/queue-driver';
import { describeQueueDriverContract } from './queue-driver.contract';
import {
  TEST_REDIS_URL,
  closeRedis,
  connectTestRedis,
  createTestPrefix,
  deleteKeys,
} from '../../src/testing/redis-test-prefix';

describeQueueDriverContract('bullmq', () => {
  const prefix = createTestPrefix();
  const driver = new BullMqDriver({
    queue: QueueName.ToolCalls,
    redisUrl: TEST_REDIS_URL,
    prefix,
    stalled: { lockDurationMs: 2_000, stalledIntervalMs: 1_000, maxStalledCount: 1 },
  });
  return Promise.resolve({
    driver,
    cleanup: async () => {
      // The driver is closed by now: obliterate through a second one, then sweep what is left under the prefix.
      const sweeper = new BullMqDriver({
        queue: QueueName.ToolCalls,
        redisUrl: TEST_REDIS_URL,
        prefix,
      });
      await sweeper.obliterate();
      await sweeper.close();
      const redis = connectTestRedis();
      await deleteKeys(redis, prefix);
      await closeRedis(redis);
    },
  });
});
