import type { ServerResponse } from 'node:http';
import {
  PROBLEM_MEDIA_TYPE,
  type Call,
  type CallStreamEventData,
  type CallStreamEventName,
  type Problem,
} from '@toolgate/contract';
import {
  problemStatusOf,
  problemTitleOf,
  type ProblemCode,
  type ToolResultIR,
} from '@toolgate/toolir';

/**
 * Answers of the registry API for tests that stub it, each typed by `@toolgate/contract` so the
 * compiler holds every stub to what the API really sends.
 */

/** Gateway call ids: the API's are uuids (the model's own ids live in the results). */
export const CALL_IDS = [
  '0b6f3c1e-8c2a-4f3b-9d4e-2a1b3c4d5e01',
  '0b6f3c1e-8c2a-4f3b-9d4e-2a1b3c4d5e02',
] as const;
export const TEAM_ID = '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
export const TOOL_ID = '3c2b1a09-8f7e-4d6c-9b5a-493827160514';
export const APPROVAL_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AT = Date.parse('2026-03-01T12:00:00.000Z');

/** A problem document as the API writes it: type URI, title and status from the table of error codes. */
export function problemOf(
  code: ProblemCode,
  detail: string,
  errors: Problem['errors'] = [],
): Problem {
  return {
    type: `https://toolgate.dev/problems/${code}`,
    title: problemTitleOf(code),
    status: problemStatusOf(code),
    detail,
    code,
    errors,
  };
}

/** Sends a problem document with its status and media type. */
export function sendProblem(
  response: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  response.writeHead(problem.status, {
    'content-type': `${PROBLEM_MEDIA_TYPE}; charset=utf-8`,
    ...headers,
  });
  response.end(JSON.stringify(problem));
}

/** Starts a call's event stream as the API does. */
export function startEventStream(response: ServerResponse): void {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
}

/** One message of a call's event stream, as the API writes it; the data is checked by the event's name. */
export function callEventMessage<TName extends CallStreamEventName>(
  name: TName,
  data: CallStreamEventData<TName>,
): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The common members of every event but `state`. */
export function eventBase(callId: string, tool: string, offsetMs = 0) {
  return { call_id: callId, tool, at: AT + offsetMs };
}

/** A call record (`GET /v1/calls/{callId}`, and the `state` event that opens each stream). */
export function callRecord(input: {
  id: string;
  tool: string;
  providerCallId: string;
  status: Call['status'];
  result?: ToolResultIR;
}): Call {
  const final = input.result !== undefined;
  return {
    id: input.id,
    team_id: TEAM_ID,
    status: input.status,
    provider: 'anthropic',
    provider_call_id: input.providerCallId,
    conversation_id: null,
    tool: { id: TOOL_ID, name: input.tool, version: '1.0.0' },
    arguments: {},
    arguments_hash: 'sha256:0f1e2d3c',
    result: input.result ?? null,
    error_code: input.result?.error?.code ?? null,
    attempts: input.status === 'queued' ? 0 : 1,
    answered_by: final ? input.tool : null,
    cache_age_ms: null,
    latency_ms: final ? 12 : null,
    decision: { effect: 'allow', rule: null, policy_revision: null },
    input_check: null,
    partial_states: null,
    arguments_repair: null,
    trace_id: null,
    cost: {
      tool_usd: null,
      tokens_usd: null,
      total_usd: null,
      tool_source: null,
      tokens: null,
      model: null,
      provider: null,
      tokens_unpriced_reason: null,
    },
    created_at: new Date(AT).toISOString(),
    started_at: input.status === 'queued' ? null : new Date(AT + 1).toISOString(),
    finished_at: final ? new Date(AT + 13).toISOString() : null,
  };
}
