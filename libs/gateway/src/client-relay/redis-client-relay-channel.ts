import type { EngineLogger } from '@toolgate/engine';
import { GatewayChannel } from '@toolgate/persistence';
import type { Redis } from 'ioredis';
import type { ZodType } from 'zod';
import type { ClientRelayChannel } from './client-relay-channel';
import {
  ClientAnswerMessageSchema,
  ToClientMessageSchema,
  type ClientAnswerMessage,
  type ToClientMessage,
} from './client-relay-messages';

/** Where the Redis relay channel publishes and subscribes. */
export interface RedisClientRelayChannelOptions {
  /** Publishes (its replies count a channel's subscribers). */
  redis: Redis;
  /**
   * Subscribes; shared with the call events' subscription by the API, so a call's log messages
   * arrive before its `finished` event, both being published in that order on one connection.
   * Without one, the channel subscribes on a connection of its own.
   */
  subscriber?: Redis;
  prefix: string;
  logger: EngineLogger;
}

/**
 * The relay channel between processes, on Redis pub/sub under the queue prefix: one channel per
 * followed `relay_id` (PUBLISH counts its subscribers, so a request nobody follows is refused at
 * once) and one per runner for the answers.
 */
export class RedisClientRelayChannel implements ClientRelayChannel {
  private readonly subscriber: Redis;
  private readonly ownsSubscriber: boolean;
  private readonly receivers = new Map<string, Set<(payload: unknown) => void>>();

  constructor(private readonly options: RedisClientRelayChannelOptions) {
    this.ownsSubscriber = options.subscriber === undefined;
    this.subscriber = options.subscriber ?? options.redis.duplicate({ maxRetriesPerRequest: null });
    if (this.ownsSubscriber) {
      this.subscriber.on('error', (error: Error) =>
        options.logger.error({ err: error }, 'redis relay subscriber error'),
      );
    }
    this.subscriber.on('message', (channel: string, message: string) => {
      const receivers = this.receivers.get(channel);
      if (receivers === undefined) return;
      let payload: unknown;
      try {
        payload = JSON.parse(message);
      } catch {
        options.logger.warn({ channel }, 'ignored a relay message that is not JSON');
        return;
      }
      for (const receive of receivers) receive(payload);
    });
  }

  toClient(relayId: string, message: ToClientMessage): Promise<number> {
    const channel = GatewayChannel.relayToClient(this.options.prefix, relayId);
    return this.options.redis.publish(channel, JSON.stringify(message));
  }

  followClient(relayId: string, receive: (message: ToClientMessage) => void): Promise<() => void> {
    return this.follow(
      GatewayChannel.relayToClient(this.options.prefix, relayId),
      ToClientMessageSchema,
      receive,
    );
  }

  async toRunner(runnerId: string, message: ClientAnswerMessage): Promise<void> {
    const channel = GatewayChannel.relayToRunner(this.options.prefix, runnerId);
    await this.options.redis.publish(channel, JSON.stringify(message));
  }

  followRunner(
    runnerId: string,
    receive: (message: ClientAnswerMessage) => void,
  ): Promise<() => void> {
    return this.follow(
      GatewayChannel.relayToRunner(this.options.prefix, runnerId),
      ClientAnswerMessageSchema,
      receive,
    );
  }

  async close(): Promise<void> {
    const channels = [...this.receivers.keys()];
    this.receivers.clear();
    if (this.ownsSubscriber) {
      await this.subscriber.quit().catch(() => this.subscriber.disconnect());
    } else if (channels.length > 0) {
      await this.subscriber.unsubscribe(...channels).catch(() => undefined);
    }
  }

  /** Subscribes to `channel` (once however many follow it), each message checked against `schema`. */
  private async follow<TMessage>(
    channel: string,
    schema: ZodType<TMessage>,
    receive: (message: TMessage) => void,
  ): Promise<() => void> {
    const checked = (payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) receive(parsed.data);
      else this.options.logger.warn({ channel }, 'ignored a malformed relay message');
    };
    let set = this.receivers.get(channel);
    if (set === undefined) {
      set = new Set();
      this.receivers.set(channel, set);
    }
    set.add(checked);
    if (set.size === 1) await this.subscriber.subscribe(channel);
    return () => {
      set.delete(checked);
      if (set.size > 0 || this.receivers.get(channel) !== set) return;
      this.receivers.delete(channel);
      this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }
}
