import { CallStreamEventSchemas, type CallStreamEventName } from '@toolgate/contract';
import type { z } from 'zod';
import { parseJsonText } from './gateway-answer';
import { parseResponse } from './parse-response';
import type { ServerSentEvent } from './read-event-stream';

/** An event of `GET /v1/calls/{callId}/events` whose name the contract defines, its data parsed with that event's schema. */
export type KnownCallEvent = {
  [TName in CallStreamEventName]: {
    /** The gateway's id of the call (not the provider's). */
    callId: string;
    type: TName;
    data: z.output<(typeof CallStreamEventSchemas)[TName]>;
  };
}[CallStreamEventName];

/**
 * An event whose name this SDK does not know (a newer gateway may add some): passed on untyped,
 * never refused, so an older SDK keeps following its calls.
 */
export interface UnknownCallEvent {
  callId: string;
  type: 'unknown';
  /** The SSE `event:` name as sent. */
  event: string;
  /** The data parsed as JSON, or the text as sent when it is not JSON. */
  data: unknown;
}

/** An event of a call being followed, as `onEvent` receives it. */
export type CallEvent = KnownCallEvent | UnknownCallEvent;

function isKnownName(name: string): name is CallStreamEventName {
  return Object.hasOwn(CallStreamEventSchemas, name);
}

function jsonOrText(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * Reads one SSE event of a call's stream: a name the contract defines parses with its schema (a
 * mismatch is a `ToolgateInvalidResponseError`), any other name is passed on as an `UnknownCallEvent`.
 */
export function readCallEvent(callId: string, event: ServerSentEvent, what: string): CallEvent {
  const name = event.event;
  if (!isKnownName(name))
    return { callId, type: 'unknown', event: name, data: jsonOrText(event.data) };
  const json = parseJsonText(event.data, `${what} ${name} event data`);
  const read = <TSchema extends z.ZodType>(schema: TSchema): z.output<TSchema> =>
    parseResponse(schema, json, `${what} ${name} event`);
  // One case per name, so the data's type follows the name without a cast, and a new event
  // name in the contract fails to compile here until the SDK reads it.
  switch (name) {
    case 'state':
      return { callId, type: name, data: read(CallStreamEventSchemas.state) };
    case 'queued':
      return { callId, type: name, data: read(CallStreamEventSchemas.queued) };
    case 'started':
      return { callId, type: name, data: read(CallStreamEventSchemas.started) };
    case 'progress':
      return { callId, type: name, data: read(CallStreamEventSchemas.progress) };
    case 'retry':
      return { callId, type: name, data: read(CallStreamEventSchemas.retry) };
    case 'awaiting_approval':
      return { callId, type: name, data: read(CallStreamEventSchemas.awaiting_approval) };
    case 'finished':
      return { callId, type: name, data: read(CallStreamEventSchemas.finished) };
    case 'cancelled':
      return { callId, type: name, data: read(CallStreamEventSchemas.cancelled) };
  }
}
