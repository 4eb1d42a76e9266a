import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { subscribeWhenReady } from './subscribe-when-ready';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const connections: Redis[] = [];

function connect(): Redis {
  // BullMQ-style connection options, as the API and the worker use them.
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  connections.push(redis);
  return redis;
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((redis) => redis.quit()));
});

describe('subscribeWhenReady', () => {
  it('keeps a subscription made between connecting and the ready check, with no error', async () => {
    const channel = `toolgate-test:${randomUUID()}`;
    const subscriber = connect();
    const errors: Error[] = [];
    subscriber.on('error', (error: Error) => errors.push(error));
    // The window that loses subscriptions: the socket is up, the ready check has not run yet.
    await once(subscriber, 'connect');
    await subscribeWhenReady(subscriber, channel);
    const received = once(subscriber, 'message');
    const publisher = connect();
    expect(await publisher.publish(channel, 'hello')).toBe(1);
    expect(await received).toEqual([channel, 'hello']);
    expect(errors).toEqual([]);
  });
});
