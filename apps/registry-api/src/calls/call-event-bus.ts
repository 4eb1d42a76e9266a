import { Injectable } from '@nestjs/common';
import type { ExecutionEvent } from '@toolgate/engine';
import { addToKeyedSet, type CallFinishedMessage } from '@toolgate/gateway';

/** `finished`, sent once the outcome is stored, with that outcome and the result the model gets. */
export type CallFinishedEvent = CallFinishedMessage;

/** An engine event, or the gateway's own lifecycle events, keyed by the call's row id. */
export type CallEvent =
  | Exclude<ExecutionEvent, { type: 'finished' }>
  | CallFinishedEvent
  | { type: 'cancelled'; call_id: string; tool: string; at: number };

type Listener = (event: CallEvent) => void;

/**
 * In-process fan-out of call events (engine EventSink -> SSE streams and waiters). The engine
 * runs in this process in the embedded mode; with BullMQ the dispatcher feeds it from the
 * workers' Redis channel.
 */
/** What a waiter learns: the call may have settled, read it again. */
export type CallSettledType = 'finished' | 'awaiting_approval' | 'cancelled';
type Watcher = (type: CallSettledType) => void;

const SETTLED_TYPES = new Set<string>(['finished', 'awaiting_approval', 'cancelled']);

@Injectable()
export class CallEventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly resyncs = new Set<() => void>();

  emit(event: CallEvent): void {
    for (const listener of this.listeners.get(event.call_id) ?? []) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a closed stream) must not break execution.
      }
    }
    if (SETTLED_TYPES.has(event.type)) this.settled(event.call_id, event.type as CallSettledType);
  }

  /** Wakes the waiters of a call without a full event (they re-read the call themselves). */
  settled(callId: string, type: CallSettledType): void {
    for (const watcher of this.watchers.get(callId) ?? []) watcher(type);
  }

  /** Whether anyone streams this call's events (beyond waiters). */
  hasSubscribers(callId: string): boolean {
    return this.listeners.has(callId);
  }

  /** Listens to one call's events; returns the unsubscribe function. */
  subscribe(callId: string, listener: Listener): () => void {
    return addToKeyedSet(this.listeners, callId, listener);
  }

  /**
   * Tells every stream to re-read its call from the record: events may have been lost (the
   * connection they come over was down), so the bus alone cannot be trusted to end a stream.
   */
  resync(): void {
    for (const listener of this.resyncs) listener();
  }

  /** Listens for {@link resync}; returns the unsubscribe function. */
  onResync(listener: () => void): () => void {
    this.resyncs.add(listener);
    return () => this.resyncs.delete(listener);
  }

  /** Listens for a call settling (finished, awaiting approval, cancelled); returns the unsubscribe function. */
  watch(callId: string, watcher: Watcher): () => void {
    return addToKeyedSet(this.watchers, callId, watcher);
  }
}
