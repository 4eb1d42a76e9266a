import { isRecord, ToolgateError, toToolgateError } from '@toolgate/toolir';
import type { Provider } from '../shared/provider';
import type {
  StreamErrorEvent,
  ToolCallStream,
  ToolCallStreamEvent,
} from './tool-call-stream-event';

/** Where a stream event did not have the shape its provider documents. */
export interface StreamEventShapeDetails {
  provider: Provider;
  /** JSON Pointer into the event. */
  path: string;
  expected: string;
  /** The JSON type found instead. */
  received: string;
}

/** A provider stream event of the wrong shape: reported as an `error` event, never thrown at the caller. */
export class StreamEventShapeError extends ToolgateError<'adapter_error'> {
  declare readonly details: StreamEventShapeDetails;

  constructor(details: StreamEventShapeDetails) {
    super(
      'adapter_error',
      `${details.provider} stream event: ${details.path || '/'} must be ${details.expected}, got ${details.received}`,
      {
        details,
      },
    );
  }
}

/** Reads fields of one untrusted event; the first wrong field throws a StreamEventShapeError (caught by `guardStream`). */
export class EventReader {
  constructor(readonly provider: Provider) {}

  record(value: unknown, path: string): Record<string, unknown> {
    if (isRecord(value)) return value;
    throw this.wrong(value, { path, expected: 'an object' });
  }

  optionalRecord(value: unknown, path: string): Record<string, unknown> | undefined {
    return value === undefined || value === null ? undefined : this.record(value, path);
  }

  array(value: unknown, path: string): unknown[] {
    if (Array.isArray(value)) return value;
    throw this.wrong(value, { path, expected: 'an array' });
  }

  optionalArray(value: unknown, path: string): unknown[] | undefined {
    return value === undefined || value === null ? undefined : this.array(value, path);
  }

  string(value: unknown, path: string): string {
    if (typeof value === 'string') return value;
    throw this.wrong(value, { path, expected: 'a string' });
  }

  optionalString(value: unknown, path: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, path);
  }

  index(value: unknown, path: string): number {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    throw this.wrong(value, { path, expected: 'a non-negative integer' });
  }

  optionalIndex(value: unknown, path: string): number | undefined {
    return value === undefined || value === null ? undefined : this.index(value, path);
  }

  wrong(value: unknown, where: { path: string; expected: string }): StreamEventShapeError {
    return new StreamEventShapeError({
      provider: this.provider,
      path: where.path,
      expected: where.expected,
      received: jsonTypeOf(value),
    });
  }
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** The body of a provider stream parser: adds events to `events`, may throw on a malformed event. */
export interface StreamHandlers {
  push(event: unknown, events: ToolCallStreamEvent[]): void;
  end(events: ToolCallStreamEvent[]): void;
}

/**
 * Wraps a parser so that nothing escapes to the caller: a malformed event (or an undecodable SSE
 * message passed on by `parseSSE`) becomes an `error` event after the events already learned.
 */
export function guardStream(handlers: StreamHandlers): ToolCallStream {
  let ended = false;
  const run = (step: (events: ToolCallStreamEvent[]) => void): ToolCallStreamEvent[] => {
    const events: ToolCallStreamEvent[] = [];
    try {
      step(events);
    } catch (error) {
      events.push(errorEvent(toToolgateError(error)));
    }
    return events;
  };
  return {
    push(event) {
      if (ended)
        return [
          errorEvent(
            new ToolgateError('adapter_error', 'push() after end(): the stream is closed'),
          ),
        ];
      if (ToolgateError.isInstance(event)) return [errorEvent(event)];
      return run((events) => handlers.push(event, events));
    },
    end() {
      if (ended) return [];
      ended = true;
      return run((events) => handlers.end(events));
    },
  };
}

/** An `error` event. */
export function errorEvent(error: ToolgateError): StreamErrorEvent {
  return { type: 'error', error };
}

/** A provider's own error event (`{type: 'error', error: {...}}` and the like) as an `error` event. */
export function providerErrorEvent(provider: Provider, payload: unknown): StreamErrorEvent {
  const body = isRecord(payload) ? payload : {};
  const message =
    typeof body['message'] === 'string' ? body['message'] : 'the provider reported an error';
  return errorEvent(
    new ToolgateError('adapter_error', `${provider} stream error: ${message}`, {
      details: { provider, error: payload },
    }),
  );
}
