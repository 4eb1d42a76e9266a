import { once } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * Subscribes once the connection has passed ioredis' ready check. A SUBSCRIBE sent while the
 * connection is still connecting goes out before the ready check's INFO, which Redis then refuses
 * ("Connection in subscriber mode"), and the subscription is silently lost.
 */
export async function subscribeWhenReady(
  subscriber: Redis,
  ...channels: readonly string[]
): Promise<void> {
  if (subscriber.status !== 'ready') await once(subscriber, 'ready');
  await subscriber.subscribe(...channels);
}
