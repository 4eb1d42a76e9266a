import type { EngineLogger, EventSink } from '@toolgate/engine';
import { GatewayChannel } from '@toolgate/persistence';
import type { CallEventMessage, CallRepository } from '@toolgate/persistence';
import type { Redis } from 'ioredis';

/** Where call events are published: a Redis connection and the queue prefix the API listens under. */
export interface CallEventChannel {
  redis: Redis;
  prefix: string;
  logger: EngineLogger;
}

function publish(channel: CallEventChannel, message: CallEventMessage): void {
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
 * The engine's events of each call, to the API over Redis pub/sub. `finished` is left out: it is
 * published once the outcome is stored, so a listener that reads the call sees it.
 */
export function publishCallEvents(channel: CallEventChannel): EventSink {
  return {
    emit: (event) => {
      if (event.type !== 'finished') publish(channel, { ...event });
    },
  };
}

/** Wraps a repository so every stored final outcome is announced as `finished`. */
export function publishFinishedCalls(
  calls: CallRepository,
  channel: CallEventChannel,
): CallRepository {
  return {
    getCall: (callId) => calls.getCall(callId),
    markStarted: (callId, run) => calls.markStarted(callId, run),
    takeOver: (callId, input) => calls.takeOver(callId, input),
    recordOutcome: async (callId, input) => {
      const recorded = await calls.recordOutcome(callId, input);
      const { outcome } = input;
      // A call waiting for approval is not finished; the engine already sent `awaiting_approval`.
      if (recorded && outcome.status !== 'awaiting_approval') {
        publish(channel, {
          type: 'finished',
          call_id: callId,
          tool: outcome.result.name,
          at: outcome.finished_at,
          ok: outcome.status === 'succeeded',
          status: outcome.status,
          ...(outcome.result.error === undefined ? {} : { error_code: outcome.result.error.code }),
          latency_ms: outcome.latency_ms,
        });
      }
      return recorded;
    },
  };
}
