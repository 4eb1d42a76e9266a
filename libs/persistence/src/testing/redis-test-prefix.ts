import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis every integration test uses (the development machine's). */
export const TEST_REDIS_URL = process.env['TOOLGATE_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test run shares. */
export function createTestPrefix(): string {
  return `toolgate-test-${randomUUID().slice(0, 12)}`;
}

/** A plain connection for assertions and seeding; close it with `closeRedis`. */
export function connectTestRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 3 });
}

/** Deletes every key under the prefix (queue, call records, rate limits, test counters). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

/** Quits a connection, or drops it when quitting fails. */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
