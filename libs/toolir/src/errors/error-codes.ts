/**
 * The one table of Toolgate's error codes: every code any part of Toolgate reports, with the HTTP
 * status a problem document answers it with, whether repeating the same request can succeed, where
 * it surfaces and who emits it. The API, the engine, the SDK and the console all read it, so a code
 * has one meaning everywhere and a client can branch on it without reading messages.
 */

/** Where a code is seen: an API problem document, a tool result's `error.code`, or an exception a lib throws. */
export type ErrorSurface = 'problem' | 'result' | 'thrown';

/** Who reports a code. */
export type ErrorEmitter = 'api' | 'mcp' | 'engine' | 'toolir' | 'adapters' | 'sdk';

export interface ErrorCodeSpec {
  /** What the code means, for people reading the OpenAPI document or a log. */
  summary: string;
  /** The HTTP status of a problem document with this code; absent for codes no API answer carries. */
  status?: number;
  /** Whether the same request, repeated unchanged, may succeed (after backing off). */
  retryable: boolean;
  surfaces: readonly ErrorSurface[];
  emitters: readonly ErrorEmitter[];
}

export const ERROR_CODES = {
  // Problems the API answers with (application/problem+json).
  invalid_request: {
    summary: 'The request (path, query, headers or body) is invalid; `errors` names each problem by JSON Pointer.',
    status: 400,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  invalid_tool_definition: {
    summary: 'The ToolIR or provider definition is not a valid tool; `errors` names each problem.',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  unknown_format: {
    summary: 'The provider format is not one Toolgate speaks.',
    status: 400,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  invalid_payload: {
    summary: "The provider payload holds no tool calls Toolgate can read in that provider's format.",
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  unknown_tool: {
    summary: 'A call names a tool the caller cannot reach (not in the catalog, or not released).',
    status: 422,
    retryable: false,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
  },
  invalid_policy: {
    summary: 'The policy text does not parse or validate; `policy_errors` has what Cedar reported.',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  unauthenticated: {
    summary: 'No valid credentials: send `Authorization: Bearer tg_...` or sign in to the console.',
    status: 401,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  forbidden: {
    summary: 'The credentials lack a scope or role this route needs (`required_scopes`), or the CSRF token is missing.',
    status: 403,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  self_approval_forbidden: {
    summary: 'Four eyes: whoever made a call may not decide its approval unless the team allows it.',
    status: 403,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  not_found: {
    summary: 'No such resource for this caller.',
    status: 404,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  version_not_found: {
    summary: 'The tool has no such version.',
    status: 404,
    retryable: false,
    surfaces: ['problem', 'thrown'],
    emitters: ['api', 'toolir'],
  },
  conflict: {
    summary: 'The request conflicts with the current state (a name taken, an idempotency key reused for another request, a state already decided).',
    status: 409,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  breaking_change: {
    summary: 'A version breaks its predecessor without a major version bump; `breaking_changes` lists what broke.',
    status: 409,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  version_sunset: {
    summary: 'The version is past its sunset (or in a brownout); move to the successor named in `Link`.',
    status: 410,
    retryable: false,
    surfaces: ['problem', 'thrown'],
    emitters: ['api', 'toolir'],
  },
  payload_too_large: {
    summary: 'The request body exceeds the configured limit.',
    status: 413,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  unsupported_media_type: {
    summary: 'Request bodies must be UTF-8 `application/json`.',
    status: 415,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  uri_too_long: {
    summary: 'The request target is longer than the server accepts.',
    status: 414,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  headers_too_large: {
    summary: 'The request headers exceed what the HTTP parser accepts.',
    status: 431,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  request_timeout: {
    summary: 'The client did not send a whole request in time.',
    status: 408,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  method_not_allowed: {
    summary: 'The path exists but not with this method; `Allow` lists the methods it has.',
    status: 405,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  rate_limited: {
    summary: 'Too many requests or calls; wait for `Retry-After` and repeat.',
    status: 429,
    retryable: true,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
  },
  unavailable: {
    summary: 'The service cannot answer now (shutting down, database or queue unreachable); repeat later.',
    status: 503,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  upstream_unavailable: {
    summary: 'An upstream server (an MCP server being imported) could not be reached or answered badly.',
    status: 502,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  egress_denied: {
    summary: 'The address is refused by the egress policy (TOOLGATE_EGRESS_ALLOW).',
    status: 422,
    retryable: false,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
  },
  missing_secrets: {
    summary: 'A tool version references secrets its team does not have; `missing_secrets` names them.',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  secret_in_use: {
    summary: 'A stable or canary version references the secret; delete with `?force=true` to do it anyway.',
    status: 409,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  secrets_unconfigured: {
    summary: 'The secret store has no key: set TOOLGATE_SECRETS_KEY.',
    status: 503,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  internal: {
    summary: 'Something failed inside Toolgate; the server log has the details under the request id.',
    status: 500,
    retryable: false,
    surfaces: ['problem', 'result', 'thrown'],
    emitters: ['api', 'mcp', 'engine', 'toolir', 'adapters', 'sdk'],
  },

  // Codes of a failed tool call (ToolResultIR `error.code`).
  invalid_arguments: {
    summary: "The call's arguments do not match the tool's input schema.",
    retryable: false,
    surfaces: ['result', 'thrown'],
    emitters: ['engine', 'adapters'],
  },
  incomplete_arguments: {
    summary: "The call's arguments are cut off (a stream ended inside them).",
    retryable: false,
    surfaces: ['result', 'thrown'],
    emitters: ['engine', 'adapters'],
  },
  policy_denied: {
    summary: 'The active policy forbids this call.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  approval_denied: {
    summary: 'A person denied the approval this call needed.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  approval_expired: {
    summary: 'Nobody decided the approval before it expired.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  secret_unavailable: {
    summary: 'A secret the tool needs could not be read at call time.',
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  timeout: {
    summary: 'The tool (or the gateway, for an SDK) did not answer in time.',
    retryable: true,
    surfaces: ['result', 'thrown'],
    emitters: ['engine', 'sdk'],
  },
  cancelled: {
    summary: 'The call was cancelled before it finished.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  upstream_error: {
    summary: 'The tool answered with an error (an HTTP error status, an MCP error, a redirect).',
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  tool_error: {
    summary: 'The tool ran and reported a failure of its own.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  outcome_unknown: {
    summary: 'The call may or may not have taken effect (a process died while it ran); it is not repeated.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },

  // Codes the libraries throw.
  invalid_tool_ir: {
    summary: 'The value is not a valid ToolIR; `details.issues` lists each problem.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
  },
  invalid_schema: {
    summary: 'A JSON Schema in the tool is not valid.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir', 'adapters'],
  },
  unsupported_schema: {
    summary: 'The JSON Schema uses a feature the target format cannot express.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
  },
  invalid_version: {
    summary: 'The version is not a semantic version.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
  },
  adapter_error: {
    summary: "A provider definition or payload could not be read in that provider's format.",
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
  },
  name_collision: {
    summary: 'Two tools map to the same name on the wire.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
  },
  invalid_json: {
    summary: 'The text is not valid JSON.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
  },

  // Codes the SDK throws locally (never serialized by a server).
  api_error: {
    summary: 'The gateway answered with a problem document; `details` holds its status and code.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['sdk'],
  },
  network_error: {
    summary: 'The gateway could not be reached.',
    retryable: true,
    surfaces: ['thrown'],
    emitters: ['sdk'],
  },
  invalid_response: {
    summary: 'The gateway answered with a body that does not match the contract.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['sdk'],
  },
  aborted: {
    summary: "The caller's AbortSignal fired.",
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['sdk'],
  },
  invalid_options: {
    summary: 'The options given to the SDK are invalid.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['sdk'],
  },
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

type CodesOn<TSurface extends ErrorSurface> = {
  [TCode in ErrorCode]: TSurface extends (typeof ERROR_CODES)[TCode]['surfaces'][number]
    ? TCode
    : never;
}[ErrorCode];

/** A code an API problem document may carry. */
export type ProblemCode = CodesOn<'problem'>;
/** A code a failed tool result may carry (tools may add their own beside these). */
export type ResultErrorCode = CodesOn<'result'>;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

function codesOn<TSurface extends ErrorSurface>(surface: TSurface): CodesOn<TSurface>[] {
  return ALL_ERROR_CODES.filter((code) =>
    (ERROR_CODES[code].surfaces as readonly ErrorSurface[]).includes(surface),
  ) as CodesOn<TSurface>[];
}

export const PROBLEM_CODES: readonly ProblemCode[] = codesOn('problem');
export const RESULT_ERROR_CODES: readonly ResultErrorCode[] = codesOn('result');

/** The HTTP status a problem document with `code` is answered with. */
export function problemStatusOf(code: ProblemCode): number {
  return ERROR_CODES[code].status;
}
