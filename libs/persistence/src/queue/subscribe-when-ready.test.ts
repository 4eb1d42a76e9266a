import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestRedisServer, type TestRedisServer } from '../testing/redis-server';
import { redisAddress, subscribeWhenReady } from './subscribe-when-ready';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const connections: Redis[] = [];
const servers: TestRedisServer[] = [];

function connect(url = REDIS_URL): Redis {
  // BullMQ-style connection options, as the API and the worker use them.
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  connections.push(redis);
  return redis;
}

function recordingLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((redis) => redis.quit()));
  await Promise.all(servers.splice(0).map((server) => server.dispose()));
});

describe('subscribeWhenReady', () => {
  it('keeps a subscription made between connecting and the ready check, with no error', async () => {
    const channel = `toolgate-test:${randomUUID()}`;
    const subscriber = connect();
    const errors: Error[] = [];
    subscriber.on('error', (error: Error) => errors.push(error));
    // The window that loses subscriptions: the socket is up, the ready check has not run yet.
    await once(subscriber, 'connect');
    await subscribeWhenReady(subscriber, [channel], { logger: recordingLogger() });
    const received = once(subscriber, 'message');
    const publisher = connect();
    expect(await publisher.publish(channel, 'hello')).toBe(1);
    expect(await received).toEqual([channel, 'hello']);
    expect(errors).toEqual([]);
  });

  it('waits for a Redis that is down when it starts, and subscribes once it is up', async () => {
    const server = await createTestRedisServer();
    servers.push(server);
    const channel = `toolgate-test:${randomUUID()}`;
    const logger = recordingLogger();
    const subscriber = connect(server.url);
    // Before the fix the first refused connection rejected the wait, and the process exited.
    const subscribed = subscribeWhenReady(subscriber, [channel], { logger });
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledTimes(2), { timeout: 10_000 });
    expect(logger.warn).toHaveBeenLastCalledWith(
      expect.objectContaining({ attempt: 2 }),
      `waiting for Redis at redis://127.0.0.1:${server.port}/0, retrying`,
    );

    await server.start();
    await subscribed;
    const received = once(subscriber, 'message');
    const publisher = connect(server.url);
    expect(await publisher.publish(channel, 'hello')).toBe(1);
    expect(await received).toEqual([channel, 'hello']);
  });

  it('names a connection without its password', () => {
    const redis = new Redis('redis://user:hunter2@cache.internal:6380/2', { lazyConnect: true });
    expect(redisAddress(redis)).toBe('redis://cache.internal:6380/2');
  });
});
