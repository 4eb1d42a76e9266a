/** Every failure a service can report; the problem filter maps each to one HTTP status. */
export enum ToolExceptionCode {
  InvalidRequest = 'invalid_request',
  InvalidToolDefinition = 'invalid_tool_definition',
  UnknownFormat = 'unknown_format',
  InvalidPayload = 'invalid_payload',
  UnknownTool = 'unknown_tool',
  InvalidPolicy = 'invalid_policy',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  /** Four eyes: whoever made a call may not decide its approval unless the team allows it. */
  SelfApprovalForbidden = 'self_approval_forbidden',
  NotFound = 'not_found',
  VersionNotFound = 'version_not_found',
  Conflict = 'conflict',
  BreakingChange = 'breaking_change',
  VersionSunset = 'version_sunset',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  UriTooLong = 'uri_too_long',
  /** The request's headers exceed what the HTTP parser accepts (refused before Fastify sees them). */
  HeadersTooLarge = 'headers_too_large',
  /** The client did not send a whole request in time (Node's requestTimeout / headersTimeout). */
  RequestTimeout = 'request_timeout',
  MethodNotAllowed = 'method_not_allowed',
  RateLimited = 'rate_limited',
  Unavailable = 'unavailable',
  /** An upstream server (an MCP server being imported) could not be reached or answered badly. */
  UpstreamUnavailable = 'upstream_unavailable',
  /** The address an import would reach is refused by the egress policy (TOOLGATE_EGRESS_ALLOW). */
  EgressDenied = 'egress_denied',
  /** A tool version references secrets its team does not have (named, with where they are referenced). */
  MissingSecrets = 'missing_secrets',
  /** A secret a stable or canary version references cannot be deleted without `?force=true`. */
  SecretInUse = 'secret_in_use',
  /** The secret store has no key (TOOLGATE_SECRETS_KEY is not set). */
  SecretsUnconfigured = 'secrets_unconfigured',
  Internal = 'internal',
}

/** One problem with one input, addressed by a JSON Pointer into the request. */
export interface ProblemIssue {
  path: string;
  message: string;
}

export interface ToolExceptionOptions {
  issues?: ProblemIssue[];
  /** Extra members of the problem document (RFC 9457 extension members). */
  extensions?: Record<string, unknown>;
  /** Response headers the problem needs, e.g. `Link` to a successor version. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The one exception services throw; never an HTTP exception, so services stay transport-free. */
export class ToolException extends Error {
  override readonly name = 'ToolException';
  readonly issues: ProblemIssue[];
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ToolExceptionCode,
    message: string,
    options: ToolExceptionOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.issues = options.issues ?? [];
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}
