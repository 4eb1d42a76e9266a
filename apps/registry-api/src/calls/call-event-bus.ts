import { Injectable } from '@nestjs/common';
import type { ExecutionEvent } from '@toolgate/engine';

/** The engine's `finished`, sent once the outcome is stored, with the result the model gets. */
export type CallFinishedEvent = Extract<ExecutionEvent, { type: 'finished' }> & {
  /** ToolResultIR addressed to the model's own call id. */
  result: Record<string, unknown>;
};

/** An engine event, or the gateway's own lifecycle events, keyed by the call's row id. */
export type CallEvent =
  | Exclude<ExecutionEvent, { type: 'finished' }>
  | CallFinishedEvent
  | { type: 'cancelled'; call_id: string; tool: string; at: number };

type Listener = (event: CallEvent) => void;

/**
 * In-process fan-out of call events (engine EventSink -> SSE streams and waiters). The engine
 * runs in this process in the embedded mode; a queue-backed mode would feed it from Redis.
 */
@Injectable()
export class CallEventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

  emit(event: CallEvent): void {
    for (const listener of this.listeners.get(event.call_id) ?? []) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed stream) must not break execution.
      }
    }
  }

  /** Listens to one call's events; returns the unsubscribe function. */
  subscribe(callId: string, listener: Listener): () => void {
    let set = this.listeners.get(callId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(callId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(callId);
    };
  }
}
