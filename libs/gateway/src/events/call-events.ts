import type { EngineLogger, EventSink } from '@toolgate/engine';
import { GatewayChannel } from '@toolgate/persistence';
import type { CallEventMessage, CallOutcome } from '@toolgate/persistence';
import type { ToolResultIR } from '@toolgate/toolir';
import type { Redis } from 'ioredis';

/** A call's final outcome, announced once it is stored: waiters and streams read it from here. */
export interface CallFinishedMessage {
  type: 'finished';
  /** The call's row id. */
  call_id: string;
  tool: string;
  at: number;
  ok: boolean;
  status: Exclude<CallOutcome['status'], 'awaiting_approval'>;
  error_code?: string;
  latency_ms: number;
  /** The stored result, addressed to the model's own call id. */
  result: ToolResultIR;
}

/** Where a runner's events go: the engine's events of running calls, and stored final outcomes. */
export interface CallEventSinks {
  engine: EventSink;
  finished: (message: CallFinishedMessage) => void;
}

/** Where call events are published: a Redis connection and the queue prefix the API listens under. */
export interface RedisEventChannel {
  redis: Redis;
  prefix: string;
  logger: EngineLogger;
}

function publish(
  channel: RedisEventChannel,
  message: CallEventMessage | CallFinishedMessage,
): void {
  channel.redis
    .publish(GatewayChannel.events(channel.prefix), JSON.stringify(message))
    .catch((error: unknown) =>
      channel.logger.warn(
        { err: error, call_id: message.call_id },
        'publishing a call event failed',
      ),
    );
}

/**
 * A worker's events, to the API over Redis pub/sub. The engine's `finished` is left out: the
 * runner announces it once the outcome is stored, with that outcome. Progress events (`started`,
 * `progress`, `retry`) go out only for calls someone streams (`isWatched`); `awaiting_approval`
 * always does, since waiters settle on it.
 */
export function redisCallEvents(
  channel: RedisEventChannel,
  isWatched: (callId: string) => boolean = () => true,
): CallEventSinks {
  return {
    engine: {
      emit: (event) => {
        if (event.type === 'finished') return;
        if (event.type !== 'awaiting_approval' && !isWatched(event.call_id)) return;
        publish(channel, { ...event });
      },
    },
    finished: (message) => publish(channel, message),
  };
}

// How long a stream's interest in a call lasts without being renewed.
const WATCH_TTL_MS = 10 * 60_000;

/**
 * The calls someone streams, as announced on `GatewayChannel.watch`: a worker publishes progress
 * events only for these, so a call nobody streams costs no Redis command beyond its outcome.
 */
export class WatchedCalls {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  watch(callId: string): void {
    this.until.set(callId, this.now() + WATCH_TTL_MS);
    if (this.until.size > 10_000) this.sweep();
  }

  isWatched(callId: string): boolean {
    const until = this.until.get(callId);
    if (until === undefined) return false;
    if (until >= this.now()) return true;
    this.until.delete(callId);
    return false;
  }

  private sweep(): void {
    const now = this.now();
    for (const [callId, until] of this.until) if (until < now) this.until.delete(callId);
  }
}
