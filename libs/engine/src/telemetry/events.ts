import type { PolicyDecision } from '../policy/policy-engine';

interface EventBase {
  /** The call the event belongs to. */
  call_id: string;
  /** The tool the event is about (a fallback tool's name once a fallback runs). */
  tool: string;
  /** Milliseconds since the epoch, from the injected clock. */
  at: number;
}

/** A progress event of one call, for SSE streams, call records and dashboards. */
export type ExecutionEvent =
  | (EventBase & { type: 'queued' })
  | (EventBase & { type: 'started'; attempt: number })
  | (EventBase & { type: 'progress'; progress: number; total?: number; message?: string })
  | (EventBase & { type: 'retry'; attempt: number; delay_ms: number; error_code: string })
  | (EventBase & {
      type: 'awaiting_approval';
      approval_id: string;
      reason: string;
      decision?: PolicyDecision;
    })
  | (EventBase & {
      type: 'finished';
      ok: boolean;
      status: string;
      error_code?: string;
      latency_ms: number;
    });

/** Receives progress events; must not throw and should return quickly. */
export interface EventSink {
  emit(event: ExecutionEvent): void;
}

/** An event sink that drops everything, used when the host injects none. */
export const noopEventSink: EventSink = { emit: () => undefined };

/** An event sink that keeps every event in memory, for tests and the in-process API. */
export class MemoryEventSink implements EventSink {
  /** Every event received, oldest first. */
  readonly events: ExecutionEvent[] = [];

  emit(event: ExecutionEvent): void {
    this.events.push(event);
  }
}
