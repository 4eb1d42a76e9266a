import type { ToolCallStreamEvent } from '@toolgate/adapters';
import {
  PARTIAL_STATES_LIMITS,
  partialStateBytes,
  type PartialArgumentStates,
  type PartialStateEntry,
} from '@toolgate/contract';
import { ToolgateSdkError } from '../../errors/toolgate-sdk-error';
import type { TracerLike } from '../../telemetry/client-tracing';
import { StreamedCallSpan } from './partial-state-spans';

/** How partial states are recorded: their bounds, the clock, and the tracer that gets them as span events. */
export interface PartialStatesOptions {
  /** Most entries per call (default and most: `PARTIAL_STATES_LIMITS.maxEntries`, 256); past it the record is `truncated`. */
  maxEntries?: number;
  /** Most bytes of JSON Pointers per call (default and most: `PARTIAL_STATES_LIMITS.maxBytes`, 16 KiB); past it the record is `truncated`. */
  maxBytes?: number;
  /** When given, each streamed call gets a `stream_tool_call <name>` span and each entry an event on it. */
  tracer?: TracerLike;
  /** The clock in milliseconds (default `Date.now`); only differences are read. */
  now?: () => number;
}

/** Records, per streamed call, which argument values completed when (see `recordPartialStates`). */
export interface PartialStateRecorder {
  /** Takes one event of `streamToolCalls` (or of the loop); never throws. */
  observe(event: ToolCallStreamEvent): void;
  /** The record of one call by its id, once it started. */
  statesOf(callId: string): PartialArgumentStates | undefined;
  /**
   * The records to post with calls (`execute({ partialStates })`): of the given call ids, or of every
   * call; calls that completed nothing along the way (free text, arguments sent whole) are left out.
   */
  byCall(callIds?: Iterable<string>): Record<string, PartialArgumentStates>;
}

interface CallRecord {
  firstDeltaAt: number | undefined;
  entries: PartialStateEntry[];
  bytes: number;
  truncated: boolean;
  span: StreamedCallSpan | undefined;
}

/**
 * Hands a provider event's tool-call events on after the recorder (when there is one) saw them all:
 * at once, as they arrived, before the consumer's own time passes, and before the parser reuses a
 * delta's paths on its next push.
 */
export function observed(
  events: readonly ToolCallStreamEvent[],
  recorder: PartialStateRecorder | undefined,
): readonly ToolCallStreamEvent[] {
  if (recorder !== undefined) for (const event of events) recorder.observe(event);
  return events;
}

function limitOf(name: keyof typeof PARTIAL_STATES_LIMITS, value: number | undefined): number {
  const most = PARTIAL_STATES_LIMITS[name];
  if (value === undefined) return most;
  if (!Number.isInteger(value) || value < 0 || value > most) {
    throw new ToolgateSdkError(
      'invalid_options',
      `partial states: ${name} must be an integer from 0 to ${most} (the gateway's limit), got ${value}`,
    );
  }
  return value;
}

/**
 * Creates a recorder of the partial states of streamed calls: after every argument delta that
 * completed values, the JSON Pointers the partial-JSON parser reported and the milliseconds since
 * the call's first delta, bounded by `maxEntries` and `maxBytes` (then the record says `truncated`
 * and stops growing). Pass it to `streamToolCalls` as `partialStates`, then post `byCall()` with the
 * calls; with a `tracer`, each call's states are also events on its span.
 */
export function recordPartialStates(options: PartialStatesOptions = {}): PartialStateRecorder {
  const maxEntries = limitOf('maxEntries', options.maxEntries);
  const maxBytes = limitOf('maxBytes', options.maxBytes);
  const now = options.now ?? Date.now;
  const calls = new Map<string, CallRecord>();

  const add = (record: CallRecord, pointers: readonly string[]): void => {
    const at = now();
    record.firstDeltaAt ??= at;
    if (pointers.length === 0 || record.truncated) return;
    const previous = record.entries.at(-1)?.offset_ms ?? 0;
    // A clock set back must not make offsets decrease: the gateway refuses that order.
    const offset = Math.min(
      Math.max(previous, Math.round(at - record.firstDeltaAt)),
      PARTIAL_STATES_LIMITS.maxOffsetMs,
    );
    const bytes = partialStateBytes(pointers);
    if (record.entries.length + 1 > maxEntries || record.bytes + bytes > maxBytes) {
      record.truncated = true;
      record.span?.truncated(offset);
      return;
    }
    // The parser reuses its list on the next push: keep a copy.
    const entry = { offset_ms: offset, pointers: [...pointers] };
    record.entries.push(entry);
    record.bytes += bytes;
    record.span?.completed(entry);
  };

  const statesOf = (record: CallRecord): PartialArgumentStates => ({
    entries: record.entries.map((entry) => ({ ...entry, pointers: [...entry.pointers] })),
    truncated: record.truncated,
  });

  return {
    observe(event) {
      switch (event.type) {
        case 'tool_call_start': {
          const span =
            options.tracer === undefined
              ? undefined
              : StreamedCallSpan.start(options.tracer, event);
          calls.set(event.id, {
            firstDeltaAt: undefined,
            entries: [],
            bytes: 0,
            truncated: false,
            span,
          });
          return;
        }
        case 'tool_call_delta': {
          const record = calls.get(event.id);
          if (record !== undefined) add(record, event.completePaths);
          return;
        }
        case 'tool_call_end': {
          const record = calls.get(event.call.id);
          if (record === undefined) return;
          record.span?.end({
            entries: record.entries.length,
            truncated: record.truncated,
            ...(event.error === undefined ? {} : { error: event.error }),
          });
          record.span = undefined;
          return;
        }
        case 'text_delta':
        case 'error':
          return;
      }
    },
    statesOf(callId) {
      const record = calls.get(callId);
      return record === undefined ? undefined : statesOf(record);
    },
    byCall(callIds) {
      const recorded: Array<[string, PartialArgumentStates]> = [];
      for (const id of callIds ?? calls.keys()) {
        const record = calls.get(id);
        if (record === undefined || (record.entries.length === 0 && !record.truncated)) continue;
        recorded.push([id, statesOf(record)]);
      }
      // Own properties whatever the id (`__proto__` included), as JSON.stringify sends them.
      return Object.fromEntries(recorded);
    },
  };
}
