import type { EngineLogger } from '@toolgate/engine';
import type { Redis } from 'ioredis';

/** Who is told while a process waits for Redis. */
export interface WaitForRedisOptions {
  logger: EngineLogger;
}

/** Where a connection points, for logs: options never hold the URL, so no password can leak. */
export function redisAddress(redis: Redis): string {
  const { host, port, db, path } = redis.options;
  return path === undefined || path === null || path === ''
    ? `redis://${host ?? '127.0.0.1'}:${port ?? 6379}/${db ?? 0}`
    : `redis+unix://${path}`;
}

/**
 * Resolves once the connection has passed ioredis' ready check, however long Redis takes to come
 * up. ioredis reconnects with backoff on its own; a failed attempt is only logged, because a
 * process started before its Redis (a deploy, a restart of both) must wait, not exit. Rejects only
 * when the connection is closed for good (the process is shutting down).
 */
export async function waitForRedis(redis: Redis, options: WaitForRedisOptions): Promise<void> {
  if (redis.status === 'ready') return;
  if (redis.status === 'end')
    throw new Error(`the Redis connection to ${redisAddress(redis)} was closed`);
  await new Promise<void>((resolve, reject) => {
    let attempt = 0;
    const onError = (error: Error) => {
      attempt += 1;
      options.logger.warn(
        { attempt, err: error.message },
        `waiting for Redis at ${redisAddress(redis)}, retrying`,
      );
    };
    const onReady = () => {
      stop();
      resolve();
    };
    const onEnd = () => {
      stop();
      reject(
        new Error(`the Redis connection to ${redisAddress(redis)} was closed before it was ready`),
      );
    };
    const stop = () => {
      redis.off('error', onError);
      redis.off('ready', onReady);
      redis.off('end', onEnd);
    };
    redis.on('error', onError);
    redis.once('ready', onReady);
    redis.once('end', onEnd);
    // A lazy connection waits for its first command; this is it.
    if (redis.status === 'wait') redis.connect().catch(() => undefined);
  });
}

/**
 * Subscribes once the connection has passed ioredis' ready check (see {@link waitForRedis}). A
 * SUBSCRIBE sent while the connection is still connecting goes out before the ready check's INFO,
 * which Redis then refuses ("Connection in subscriber mode"), and the subscription is silently
 * lost. ioredis subscribes again by itself after a reconnect.
 */
export async function subscribeWhenReady(
  subscriber: Redis,
  channels: readonly string[],
  options: WaitForRedisOptions,
): Promise<void> {
  await waitForRedis(subscriber, options);
  await subscriber.subscribe(...channels);
}
