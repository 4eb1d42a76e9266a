import { z } from 'zod';

/**
 * The one table of Toolgate's error codes: every code any part of Toolgate reports, with the HTTP
 * status a problem document answers it with, whether repeating the same request can succeed, where
 * it surfaces, who emits it and the structured data it carries. The API, the engine, the SDK and the
 * console all read it, so a code has one meaning everywhere and a client can branch on it without
 * reading messages. `error-codes.test.ts` scans the sources for emitted codes, so a code missing
 * here fails a test, not a client.
 */

/** Where a code is seen: an API problem document, a tool result's `error.code`, or an exception a lib throws. */
export type ErrorSurface = 'problem' | 'result' | 'thrown';

/** Who reports a code. */
export type ErrorEmitter =
  'api' | 'mcp' | 'engine' | 'gateway' | 'persistence' | 'toolir' | 'adapters' | 'sdk';

export interface ErrorCodeSpec {
  /** What the code means, for people reading the OpenAPI document or a log. */
  summary: string;
  /** The `title` of a problem document with this code (RFC 9457 §3.1.3); only for problem codes. */
  title?: string;
  /** The HTTP status of a problem document with this code; absent for codes no API answer carries. */
  status?: number;
  /** Whether the same request, repeated unchanged, may succeed (after backing off). */
  retryable: boolean;
  surfaces: readonly ErrorSurface[];
  emitters: readonly ErrorEmitter[];
  /** What `details` holds: of a thrown ToolgateError, and of a failed result's `error`. */
  details?: z.ZodType;
  /** The extension members (RFC 9457 §3.2) a problem document with this code may carry. */
  extensions?: z.ZodObject;
}

// The shapes below mirror what the emitters build; they are descriptions first, so members that
// only some emitters set are optional, and loose objects keep what an emitter adds on top.

/**
 * The extension members of a problem code. Each is optional: a problem of any code may also be
 * raised bare (a Nest or Fastify error mapped by its status, a service with nothing to add).
 */
function members<TShape extends z.ZodRawShape>(shape: TShape) {
  return z.object(shape).partial();
}

const IssueSchema = z.object({ path: z.string(), message: z.string() });
const IssuesDetailsSchema = z.object({ issues: z.array(IssueSchema) });

/** What an upstream HTTP answer left in a failure the engine classified by its status. */
const upstreamAnswer = {
  status: z.number().int().optional(),
  body: z.unknown().optional(),
};

const ArgumentErrorSchema = z.object({
  path: z.string(),
  keyword: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** An adapter's payload errors: which wire format, and where in its payload. */
const AdapterDetailsSchema = z.looseObject({
  provider: z.string(),
  path: z.string().optional(),
  issues: z.array(IssueSchema).optional(),
});

/** What a ToolExecutionError reports for the classification table (the engine's FailureSignal). */
const FailureSignalSchema = z.object({
  code: z.string().optional(),
  http_status: z.number().int().optional(),
  network_code: z.string().optional(),
  timeout: z.boolean().optional(),
  aborted: z.boolean().optional(),
  retry_after_ms: z.number().optional(),
  message: z.string(),
  details: z.unknown().optional(),
});

export const ERROR_CODES = {
  // Problems the API answers with (application/problem+json).
  invalid_request: {
    summary:
      'The request (path, query, headers or body) is invalid; `errors` names each problem by JSON Pointer.',
    title: 'Invalid request',
    status: 400,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  invalid_tool_definition: {
    summary: 'The ToolIR or provider definition is not a valid tool; `errors` names each problem.',
    title: 'Invalid tool definition',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({
      /** What a publish inherited from the previous version or defaulted, which may be the cause. */
      fields: z.object({
        inherited: z.array(z.object({ field: z.string(), from_version: z.string() })),
        defaulted: z.array(z.object({ field: z.string(), value: z.unknown(), reason: z.string() })),
      }),
    }),
  },
  unknown_format: {
    summary: 'The provider format is not one Toolgate speaks.',
    title: 'Unknown format',
    status: 400,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  invalid_payload: {
    summary:
      "The provider payload holds no tool calls Toolgate can read in that provider's format.",
    title: 'Invalid provider payload',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  unknown_tool: {
    summary: 'A call names a tool the caller cannot reach (not in the catalog, or not released).',
    title: 'Unknown tool',
    status: 422,
    retryable: false,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine', 'adapters', 'sdk'],
    // A streamed call to a tool the stream was not given names the tools it was given.
    details: z.object({ name: z.string(), available: z.array(z.string()) }),
  },
  invalid_policy: {
    summary: 'The policy text does not parse or validate; `policy_errors` has what Cedar reported.',
    title: 'Invalid policy',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({
      policy_errors: z.array(
        z.object({
          policyId: z.string().optional(),
          message: z.string(),
          line: z.number().int().optional(),
          column: z.number().int().optional(),
          offset: z.number().int().optional(),
        }),
      ),
    }),
  },
  unauthenticated: {
    summary: 'No valid credentials: send `Authorization: Bearer tg_...` or sign in to the console.',
    title: 'Authentication required',
    status: 401,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  forbidden: {
    summary:
      'The credentials lack a scope or role this route needs (`required_scopes`), or the CSRF token is missing.',
    title: 'Missing scope',
    status: 403,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
    extensions: members({
      required_scopes: z.array(z.string()),
      /** `csrf` when the console session's CSRF token is missing or wrong. */
      reason: z.literal('csrf'),
    }),
  },
  self_approval_forbidden: {
    summary:
      'Four eyes: whoever made a call may not decide its approval unless the team allows it.',
    title: 'Self-approval not allowed',
    status: 403,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({ requested_by: z.string() }),
  },
  not_found: {
    summary: 'No such resource for this caller.',
    title: 'Not found',
    status: 404,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  version_not_found: {
    summary: 'The tool has no such version.',
    title: 'Version not found',
    status: 404,
    retryable: false,
    surfaces: ['problem', 'thrown'],
    emitters: ['api', 'toolir'],
    details: z.object({ toolId: z.string(), requested: z.string() }),
  },
  conflict: {
    summary:
      'The request conflicts with the current state (a name taken, an idempotency key reused for another request, a state already decided); as a tool result, the resource changed since the version the write expected (an upstream 409/412): read it again and write against `details.current_version`.',
    title: 'Conflict',
    status: 409,
    retryable: false,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
    details: z.looseObject({
      ...upstreamAnswer,
      /** The resource the write touched, `type:id`. */
      resource: z.string().optional(),
      /** The version the write expected. */
      expected_version: z.string().optional(),
      /** The resource's version now, when the upstream said it. */
      current_version: z.string().optional(),
    }),
    extensions: members({
      /** The tool holding the id or name; another team's tool is named by id only. */
      existing_tool: z.object({ id: z.string(), name: z.string().optional() }),
      /** The state an approval was already decided into. */
      approval_status: z.string(),
    }),
  },
  breaking_change: {
    summary:
      'A version breaks its predecessor without a major version bump; `breaking_changes` lists what broke.',
    title: 'Breaking change needs a major version',
    status: 409,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({
      previous_version: z.string(),
      breaking_changes: z.array(
        z.object({
          kind: z.string(),
          path: z.string(),
          breaking: z.boolean(),
          message: z.string(),
        }),
      ),
    }),
  },
  invalid_plan: {
    summary:
      'A run plan cannot run as posted (a dependency cycle, an unknown step, a reference to a step it does not wait for, a tool the team cannot call); `errors` names each problem. Nothing is written.',
    title: 'Invalid plan',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  version_sunset: {
    summary:
      'The version is past its sunset (or in a brownout); move to the successor named in `Link`.',
    title: 'Version past its sunset',
    status: 410,
    retryable: false,
    surfaces: ['problem', 'thrown'],
    emitters: ['api', 'toolir'],
    details: z.object({
      toolId: z.string(),
      version: z.string(),
      sunset_at: z.string().nullable(),
    }),
    extensions: members({
      tool_id: z.string(),
      version: z.string(),
      sunset_at: z.string().nullable(),
      successor_version: z.string().nullable(),
    }),
  },
  payload_too_large: {
    summary:
      "The request body exceeds the route's limit; `limit_bytes` says it, and the server's `BODY_LIMIT` raises it.",
    title: 'Payload too large',
    status: 413,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({ limit_bytes: z.number().int() }),
  },
  unsupported_media_type: {
    summary: 'Request bodies must be UTF-8 `application/json`.',
    title: 'Unsupported media type',
    status: 415,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({ accepted: z.array(z.string()) }),
  },
  uri_too_long: {
    summary: 'The request target is longer than the server accepts.',
    title: 'URI too long',
    status: 414,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  headers_too_large: {
    summary: 'The request headers exceed what the HTTP parser accepts.',
    title: 'Request header fields too large',
    status: 431,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  request_timeout: {
    summary: 'The client did not send a whole request in time.',
    title: 'Request timeout',
    status: 408,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  method_not_allowed: {
    summary: 'The path exists but not with this method; `Allow` lists the methods it has.',
    title: 'Method not allowed',
    status: 405,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
    extensions: members({ allowed_methods: z.array(z.string()) }),
  },
  rate_limited: {
    summary: 'Too many requests or calls; wait for `Retry-After` and repeat.',
    title: 'Too many requests',
    status: 429,
    retryable: true,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
    // The engine's own limiter says how long to wait; an upstream 429 leaves its answer.
    details: z.looseObject({ retry_after_ms: z.number().optional(), ...upstreamAnswer }),
  },
  unavailable: {
    summary:
      'The service cannot answer now (shutting down, database or queue unreachable); repeat later.',
    title: 'Service unavailable',
    status: 503,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api', 'mcp'],
  },
  upstream_unavailable: {
    summary:
      'An upstream server (an MCP server being imported) could not be reached or answered badly.',
    title: 'Upstream server unreachable',
    status: 502,
    retryable: true,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({ upstream_url: z.string() }),
  },
  egress_denied: {
    summary: 'The address is refused by the egress policy (TOOLGATE_EGRESS_ALLOW).',
    title: 'Address refused by the egress policy',
    status: 422,
    retryable: false,
    surfaces: ['problem', 'result'],
    emitters: ['api', 'engine'],
    details: z.object({ host: z.string(), port: z.number().int(), address_class: z.string() }),
  },
  missing_secrets: {
    summary:
      'A tool version references secrets its team does not have; `missing_secrets` names them.',
    title: 'Referenced secrets do not exist',
    status: 422,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({ missing_secrets: z.array(z.string()) }),
  },
  secret_in_use: {
    summary:
      'A stable or canary version references the secret; delete with `?force=true` to do it anyway.',
    title: 'Secret in use',
    status: 409,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
    extensions: members({
      referenced_by: z.array(
        z.object({
          tool_id: z.string(),
          tool_name: z.string(),
          version: z.string(),
          status: z.enum(['draft', 'published']),
          release: z.enum(['stable', 'canary']).nullable(),
          pointer: z.string(),
        }),
      ),
    }),
  },
  secrets_unconfigured: {
    summary: 'The secret store has no key: set TOOLGATE_SECRETS_KEY.',
    title: 'Secret store not configured',
    status: 503,
    retryable: false,
    surfaces: ['problem'],
    emitters: ['api'],
  },
  internal: {
    summary:
      'Something failed inside Toolgate; the server log has the details under the request id.',
    title: 'Internal error',
    status: 500,
    retryable: false,
    surfaces: ['problem', 'result', 'thrown'],
    emitters: ['api', 'mcp', 'engine', 'toolir', 'adapters'],
  },

  // Codes of a failed tool call (ToolResultIR `error.code`).
  invalid_arguments: {
    summary: "The call's arguments do not match the tool's input schema.",
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine', 'toolir', 'adapters', 'sdk'],
    // Schema errors (`errors`), or where arguments that are not JSON broke (`raw_arguments`, `position`).
    details: z.looseObject({
      errors: z.array(ArgumentErrorSchema).optional(),
      raw_arguments: z.string().optional(),
      position: z.number().int().optional(),
    }),
  },
  incomplete_arguments: {
    summary: "The call's arguments are cut off (a stream ended inside them).",
    retryable: false,
    surfaces: ['result', 'thrown'],
    emitters: ['adapters'],
    details: z.union([
      // Where more input was needed, and what the JSON grammar still required there.
      z.object({ position: z.number().int(), expected: z.array(z.string()).readonly() }),
      // How many characters of arguments arrived before the stream ended.
      z.object({ received: z.number().int() }),
    ]),
  },
  policy_denied: {
    summary: 'The active policy forbids this call.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  approval_required: {
    summary:
      "The call waits for a person's approval and has not run; `details.approval_id` names the request.",
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine'],
    details: z.object({ approval_id: z.string() }),
  },
  approval_denied: {
    summary: 'A person denied the approval this call needed (in process: nobody approved it).',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine', 'sdk'],
  },
  approval_expired: {
    summary: 'Nobody decided the approval before it expired; calling again asks anew.',
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  secret_unavailable: {
    summary:
      'A secret the tool references is not stored for the team (or cannot be opened); a team admin must store it.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine'],
  },
  timeout: {
    summary: 'The tool (or the gateway, for an SDK) did not answer in time.',
    retryable: true,
    surfaces: ['result', 'thrown'],
    emitters: ['engine', 'sdk'],
    details: z.looseObject(upstreamAnswer),
  },
  cancelled: {
    summary: 'The call was cancelled before it finished.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine', 'api'],
  },
  upstream_error: {
    summary: 'The tool answered with an error (an HTTP error status, an MCP error, a redirect).',
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine', 'adapters'],
    details: z.looseObject({ ...upstreamAnswer, jsonrpc_code: z.number().int().optional() }),
  },
  tool_error: {
    summary: 'The tool ran and reported a failure of its own.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['engine', 'adapters', 'sdk'],
    details: z.looseObject(upstreamAnswer),
  },
  dependency_failed: {
    summary:
      'Not run: the call depends on a call of the same turn that did not succeed (`details.depends_on`).',
    retryable: true,
    surfaces: ['result'],
    emitters: ['engine', 'gateway'],
    details: z.object({ depends_on: z.string() }),
  },
  dependency_cycle: {
    summary: 'The calls of a turn depend on each other in a cycle, so none of them can run.',
    retryable: false,
    surfaces: ['result', 'thrown'],
    emitters: ['engine', 'gateway'],
    details: z.object({ cycle: z.array(z.string()) }),
  },
  unresolved_reference: {
    summary:
      "A run step's argument references an earlier step's result that is not there (no such call, or the JSON Pointer names nothing); the step fails without running.",
    retryable: false,
    surfaces: ['result'],
    emitters: ['api'],
    details: z.object({ step: z.string(), call: z.number().int(), pointer: z.string() }),
  },
  outcome_unknown: {
    summary:
      'The call may or may not have taken effect (a process died while it ran); it is not repeated.',
    retryable: false,
    surfaces: ['result'],
    emitters: ['gateway'],
  },
  budget_exceeded: {
    summary:
      "Not run: the hard budget of the call's team or API key for the current UTC day or month is spent; `details` names the budget, its limit, the spend and when it resets.",
    // The same call succeeds only after `resets_at` or once the budget is raised.
    retryable: false,
    surfaces: ['result'],
    emitters: ['gateway'],
    details: z.object({
      scope: z.enum(['team', 'key']),
      period: z.enum(['day', 'month']),
      /** The hard limit in US dollars. */
      limit: z.number(),
      /** What the team or key has spent in the period, in US dollars. */
      spent: z.number(),
      /** When the period ends and its spend starts again from zero (ISO 8601, UTC). */
      resets_at: z.string(),
    }),
  },

  // Codes the libraries throw.
  invalid_tool_ir: {
    summary: 'The value is not a valid ToolIR; `details.issues` lists each problem.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
    details: IssuesDetailsSchema,
  },
  invalid_schema: {
    summary: 'A JSON Schema in the tool is not valid.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
    details: IssuesDetailsSchema,
  },
  unsupported_schema: {
    summary: 'The JSON Schema uses a feature (or a size) Toolgate cannot handle.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
    details: IssuesDetailsSchema,
  },
  invalid_version: {
    summary: 'The version (or a pin, date or canary percent) is not valid.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['toolir'],
    details: z.object({ field: z.string(), value: z.unknown() }),
  },
  adapter_error: {
    summary: "A provider definition or payload could not be read in that provider's format.",
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
    details: z.union([
      // A definition, payload or tool list that could not be read or written (AdapterError).
      AdapterDetailsSchema,
      // A stream event of the wrong shape.
      z.object({
        provider: z.string(),
        path: z.string(),
        expected: z.string(),
        received: z.string(),
      }),
      // A streamed tool call that ended before the provider named its function.
      z.object({
        provider: z.string(),
        slot: z.string(),
        id: z.string().optional(),
        arguments: z.string(),
      }),
      // The provider's own stream error event, as it sent it.
      z.object({ provider: z.string(), error: z.unknown() }),
      // A wire that has no model stream at all.
      z.object({ provider: z.string() }),
    ]),
  },
  name_collision: {
    summary: 'Two tools map to the same name on the wire.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
    details: AdapterDetailsSchema.extend({
      path: z.string(),
      names: z.array(z.string()),
      wireName: z.string(),
    }),
  },
  invalid_json: {
    summary: 'The text is not valid JSON.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['adapters'],
    details: z.union([
      // Arguments of a call in a provider payload.
      AdapterDetailsSchema,
      // The streaming JSON parser.
      z.object({
        position: z.number().int(),
        found: z.string(),
        expected: z.array(z.string()).readonly(),
      }),
      // The data of a server-sent event.
      z.object({ event: z.string(), data: z.string(), position: z.number().int().optional() }),
    ]),
  },
  duplicate_call_id: {
    summary: 'A batch holds two calls with the same id.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['engine'],
  },
  execution_failed: {
    summary:
      'An executor or builtin handler reports a failed attempt (ToolExecutionError); the engine classifies `details` (the failure) into a result code, so callers never see this one.',
    retryable: false,
    surfaces: ['thrown'],
    emitters: ['engine', 'persistence'],
    details: FailureSignalSchema,
  },

  // Codes the SDK throws locally (never serialized by a server).
  api_error: {
    summary:
      'The gateway answered with an HTTP error; the error carries its status and the problem document.',
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
  run_ended: {
    summary:
      'The durable run the SDK drives has ended (succeeded, failed or cancelled): it takes no further turn.',
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

type SpecOf<TCode extends ErrorCode> = (typeof ERROR_CODES)[TCode];

/** The codes seen on one surface. */
export type ErrorCodesOn<TSurface extends ErrorSurface> = {
  [TCode in ErrorCode]: TSurface extends SpecOf<TCode>['surfaces'][number] ? TCode : never;
}[ErrorCode];

/** The codes one emitter reports (on any surface). */
export type ErrorCodesOf<TEmitter extends ErrorEmitter> = {
  [TCode in ErrorCode]: TEmitter extends SpecOf<TCode>['emitters'][number] ? TCode : never;
}[ErrorCode];

/** A code an API problem document may carry. */
export type ProblemCode = ErrorCodesOn<'problem'>;
/**
 * A code a failed tool result may carry. The engine only ever sets these (its classification table
 * maps every failure onto one); results read from a wire may carry a tool's own codes besides.
 */
export type ResultErrorCode = ErrorCodesOn<'result'>;
/** A code a Toolgate library throws (`ToolgateError.code`). */
export type ThrownErrorCode = ErrorCodesOn<'thrown'>;

/**
 * What `details` holds for a code (thrown error or failed result); `undefined` for a code that
 * carries none. Distributes over a union of codes.
 */
export type ErrorDetails<TCode extends ErrorCode> = TCode extends ErrorCode
  ? SpecOf<TCode> extends { details: infer TSchema extends z.ZodType }
    ? z.output<TSchema>
    : undefined
  : never;

/**
 * The extension members of a problem document with this code; a code without any gets none, so an
 * extension a code does not declare here fails to compile where it is thrown.
 */
export type ProblemExtensions<TCode extends ProblemCode> = TCode extends ProblemCode
  ? SpecOf<TCode> extends { extensions: infer TSchema extends z.ZodObject }
    ? z.output<TSchema>
    : Record<string, never>
  : never;

/** The schema of a problem code's extension members: what `ProblemExtensions<TCode>` is the type of. */
export type ProblemExtensionsSchema<TCode extends ProblemCode> = TCode extends ProblemCode
  ? SpecOf<TCode> extends { extensions: infer TSchema extends z.ZodObject }
    ? TSchema
    : z.ZodObject<Record<string, never>>
  : never;

export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as ErrorCode[];

function codesOn<TSurface extends ErrorSurface>(surface: TSurface): ErrorCodesOn<TSurface>[] {
  return ALL_ERROR_CODES.filter((code) =>
    (ERROR_CODES[code].surfaces as readonly ErrorSurface[]).includes(surface),
  ) as ErrorCodesOn<TSurface>[];
}

export const PROBLEM_CODES: readonly ProblemCode[] = codesOn('problem');
export const RESULT_ERROR_CODES: readonly ResultErrorCode[] = codesOn('result');
export const THROWN_ERROR_CODES: readonly ThrownErrorCode[] = codesOn('thrown');

/** Whether a string is a code of the table (seen on `surface`, when one is given). */
export function isErrorCode(value: string): value is ErrorCode;
export function isErrorCode<TSurface extends ErrorSurface>(
  value: string,
  surface: TSurface,
): value is ErrorCodesOn<TSurface>;
export function isErrorCode(value: string, surface?: ErrorSurface): boolean {
  if (!Object.hasOwn(ERROR_CODES, value)) return false;
  const spec: ErrorCodeSpec = ERROR_CODES[value as ErrorCode];
  return surface === undefined || spec.surfaces.includes(surface);
}

/** The HTTP status a problem document with `code` is answered with. */
export function problemStatusOf(code: ProblemCode): number {
  return ERROR_CODES[code].status;
}

/** The `title` of a problem document with `code`. */
export function problemTitleOf(code: ProblemCode): string {
  return ERROR_CODES[code].title;
}

const NO_EXTENSIONS = z.object({});

/**
 * The zod schema of the extension members a problem document with `code` carries (an empty object
 * schema for a code without any), e.g. to extend a route's problem schema with them.
 */
export function problemExtensionsSchemaOf<TCode extends ProblemCode>(
  code: TCode,
): ProblemExtensionsSchema<TCode> {
  const spec: ErrorCodeSpec = ERROR_CODES[code];
  return (spec.extensions ?? NO_EXTENSIONS) as ProblemExtensionsSchema<TCode>;
}

/** The zod schema of what `details` holds for `code`, or `undefined` for a code that carries none. */
export function errorDetailsSchemaOf(code: ErrorCode): z.ZodType | undefined {
  const spec: ErrorCodeSpec = ERROR_CODES[code];
  return spec.details;
}
