import { z } from 'zod';
import { defineRoute, type RouteResponse } from '../route/route';
import {
  CallIdSchema,
  CallPageSchema,
  CallPolicyDecisionSchema,
  CallSchema,
  CallsAcceptedSchema,
  CallsCompletedSchema,
  CreateCallsHeadersSchema,
  CreateCallsSchema,
  CreateIRCallsQuerySchema,
  CreateIRCallsSchema,
  IRCallsCompletedSchema,
  ListCallsQuerySchema,
  MAX_CALLS_PER_REQUEST,
} from './calls.schemas';

const tags = ['calls'] as const;

/**
 * What a response served by deprecated tool versions says (RFC 9745, RFC 8594, RFC 5829); the
 * calls' `deprecation` members name each version, the headers only the most urgent one.
 */
export const DEPRECATION_RESPONSE_HEADERS = {
  deprecation: {
    description:
      'Present when a deprecated tool version serves the answer: `@<unix seconds>` of its deprecation (RFC 9745); of the most urgent one (earliest sunset) when several do.',
    schema: z.string().optional(),
  },
  sunset: {
    description:
      'The HTTP-date after which that version is no longer served (RFC 8594), when it has one.',
    schema: z.string().optional(),
  },
  link: {
    description:
      'A `rel="successor-version"` link to the version to move to, one per deprecated tool that names a successor.',
    schema: z.string().optional(),
  },
} as const satisfies RouteResponse['headers'];

/** What an answer with results says besides deprecations: a budget of the caller past a limit. */
const CALL_RESPONSE_HEADERS = {
  ...DEPRECATION_RESPONSE_HEADERS,
  'toolgate-budget': {
    description:
      "Present when a call's result notes a budget of the caller's team or key past a limit: `soft_exceeded; scope=team; period=day` (the call ran), or `hard_exceeded; ...` (spent: further calls are refused with `budget_exceeded`); of the worst one when several do. The result's `_meta.toolgate.budget` has the amounts.",
    schema: z.string().optional(),
  },
} as const satisfies RouteResponse['headers'];

const callParams = z.strictObject({ callId: CallIdSchema });

const accepted = {
  description:
    'Some calls are still running or waiting for approval after `wait_ms`: follow each with GET /v1/calls/{callId}/events or GET /v1/calls/{callId}.',
  schema: CallsAcceptedSchema,
  headers: CALL_RESPONSE_HEADERS,
} as const satisfies RouteResponse;

const CALL_PROBLEMS_DESCRIPTION =
  'Nothing is recorded when the request is refused: `invalid_payload` when the payload holds no readable tool calls (or two with one id), `unknown_tool` when a call names a tool the team cannot call, `conflict` when the Idempotency-Key already names other calls, `version_sunset` (410, with the successor) when a pinned or snapshot version is past its sunset, `invalid_request` for a `snapshot` no export gave out or `partial_states` naming a call the payload does not hold. A call whose arguments do not match the tool is not refused: it gets an `invalid_arguments` result for the model.';

export const callsRoutes = {
  createCalls: defineRoute({
    operationId: 'createCalls',
    method: 'post',
    path: '/v1/calls',
    summary:
      "Execute a model's tool calls, posted in the provider's format; 200 with results in that format, or 202 with call ids.",
    description: `The calls of one turn (up to ${MAX_CALLS_PER_REQUEST}) are recorded and run; the request waits up to \`wait_ms\` for them. ${CALL_PROBLEMS_DESCRIPTION}`,
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    headers: CreateCallsHeadersSchema,
    body: CreateCallsSchema,
    bodyExamples: {
      anthropic: {
        provider: 'anthropic',
        payload: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me check the weather.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        conversation_id: 'conv_42',
        wait_ms: 10_000,
      },
      openaiChat: {
        provider: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_abc',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
      },
    },
    responses: {
      200: {
        description:
          "Every call finished: the results in the provider's wire format, and the calls.",
        schema: CallsCompletedSchema,
        headers: CALL_RESPONSE_HEADERS,
      },
      202: accepted,
    },
    problems: ['unknown_format', 'invalid_payload', 'unknown_tool', 'conflict', 'version_sunset'],
  }),
  createIRCalls: defineRoute({
    operationId: 'createIRCalls',
    method: 'post',
    path: '/v1/calls/ir',
    summary: 'Execute ToolCallIR calls; results come back as ToolResultIR.',
    description: CALL_PROBLEMS_DESCRIPTION,
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    query: CreateIRCallsQuerySchema,
    headers: CreateCallsHeadersSchema,
    body: CreateIRCallsSchema,
    bodyExamples: {
      weather: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
    },
    responses: {
      200: {
        description: 'Every call finished: one ToolResultIR per call, and the calls.',
        schema: IRCallsCompletedSchema,
        headers: CALL_RESPONSE_HEADERS,
      },
      202: accepted,
    },
    problems: ['invalid_payload', 'unknown_tool', 'conflict', 'version_sunset'],
  }),
  listCalls: defineRoute({
    operationId: 'listCalls',
    method: 'get',
    path: '/v1/calls',
    summary: "List the team's calls by status and tool, newest first; cursor-paginated.",
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    query: ListCallsQuerySchema,
    responses: { 200: { description: 'One page of calls, newest first.', schema: CallPageSchema } },
    problems: [],
  }),
  getCall: defineRoute({
    operationId: 'getCall',
    method: 'get',
    path: '/v1/calls/{callId}',
    summary: 'One call: status, tool version, result (ToolResultIR) and execution data.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: callParams,
    responses: { 200: { description: 'The call.', schema: CallSchema } },
    problems: ['not_found'],
  }),
  getCallDecision: defineRoute({
    operationId: 'getCallDecision',
    method: 'get',
    path: '/v1/calls/{callId}/decision',
    summary: 'The policy decision of a call: effect, matched rule and policy revision.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: callParams,
    responses: {
      200: { description: "The call's policy decision.", schema: CallPolicyDecisionSchema },
    },
    problems: ['not_found'],
  }),
  cancelCall: defineRoute({
    operationId: 'cancelCall',
    method: 'post',
    path: '/v1/calls/{callId}/cancel',
    summary: 'Cancel a call: a running one is aborted, a queued or waiting one never runs.',
    description: 'A call that already finished answers `conflict`.',
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: callParams,
    responses: { 200: { description: 'The call, cancelled.', schema: CallSchema } },
    problems: ['not_found', 'conflict'],
  }),
  streamCallEvents: defineRoute({
    operationId: 'streamCallEvents',
    method: 'get',
    path: '/v1/calls/{callId}/events',
    summary:
      'Server-sent events of a call: its current state, then queued, started, progress, retry, awaiting_approval, finished.',
    description: [
      'A `text/event-stream`; each event names its type on the `event:` line and carries one JSON object as `data`:',
      '- `state`: the call record (as GET /v1/calls/{callId}), always first; the stream ends after it when the call is already final.',
      '- `queued`, `started` (`attempt`), `progress` (`progress`, `total`, `message`), `retry` (`attempt`, `delay_ms`, `error_code`): what the call does, with `call_id`, `tool` and `at` (ms since the epoch).',
      '- `awaiting_approval` (`approval_id`, `reason`, `decision`): a person must decide; the stream stays open.',
      '- `finished` (`ok`, `status`, `error_code`, `latency_ms`, `result` as ToolResultIR) or `cancelled`: the last event; the stream ends.',
      'Progress events are advisory: one sent before the stream opened is not replayed.',
    ].join('\n'),
    tags,
    security: 'api_key',
    scopes: ['calls:execute'],
    params: callParams,
    responses: {
      200: {
        description:
          "The call's events until it is final (see the description for each event's data).",
        mediaType: 'text/event-stream',
      },
    },
    problems: ['not_found'],
    streaming: true,
  }),
};
