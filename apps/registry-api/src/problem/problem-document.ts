import { HttpException } from '@nestjs/common';
import { ToolException, ToolExceptionCode, type ProblemIssue } from './tool.exception';

/** An RFC 9457 problem document as this API writes it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ToolExceptionCode;
  errors: ProblemIssue[];
  [extension: string]: unknown;
}

export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: ProblemDocument;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
const PROBLEM_TYPE_BASE = 'https://toolgate.dev/problems/';

/** Status of every code; a Record, so adding a code without a status fails to compile. */
const STATUS_BY_CODE: Record<ToolExceptionCode, number> = {
  [ToolExceptionCode.InvalidRequest]: 400,
  [ToolExceptionCode.InvalidToolDefinition]: 422,
  [ToolExceptionCode.UnknownFormat]: 400,
  [ToolExceptionCode.InvalidPayload]: 422,
  [ToolExceptionCode.UnknownTool]: 422,
  [ToolExceptionCode.InvalidPolicy]: 422,
  [ToolExceptionCode.Unauthenticated]: 401,
  [ToolExceptionCode.Forbidden]: 403,
  [ToolExceptionCode.SelfApprovalForbidden]: 403,
  [ToolExceptionCode.NotFound]: 404,
  [ToolExceptionCode.VersionNotFound]: 404,
  [ToolExceptionCode.Conflict]: 409,
  [ToolExceptionCode.BreakingChange]: 409,
  [ToolExceptionCode.VersionSunset]: 410,
  [ToolExceptionCode.PayloadTooLarge]: 413,
  [ToolExceptionCode.UnsupportedMediaType]: 415,
  [ToolExceptionCode.UriTooLong]: 414,
  [ToolExceptionCode.HeadersTooLarge]: 431,
  [ToolExceptionCode.RequestTimeout]: 408,
  [ToolExceptionCode.MethodNotAllowed]: 405,
  [ToolExceptionCode.RateLimited]: 429,
  [ToolExceptionCode.Unavailable]: 503,
  [ToolExceptionCode.UpstreamUnavailable]: 502,
  [ToolExceptionCode.EgressDenied]: 422,
  [ToolExceptionCode.MissingSecrets]: 422,
  [ToolExceptionCode.SecretInUse]: 409,
  [ToolExceptionCode.SecretsUnconfigured]: 503,
  [ToolExceptionCode.Internal]: 500,
};

function assertUnreachable(value: never): never {
  throw new Error(`unhandled problem code ${String(value)}`);
}

function titleOf(code: ToolExceptionCode): string {
  switch (code) {
    case ToolExceptionCode.InvalidRequest:
      return 'Invalid request';
    case ToolExceptionCode.InvalidToolDefinition:
      return 'Invalid tool definition';
    case ToolExceptionCode.UnknownFormat:
      return 'Unknown format';
    case ToolExceptionCode.InvalidPayload:
      return 'Invalid provider payload';
    case ToolExceptionCode.UnknownTool:
      return 'Unknown tool';
    case ToolExceptionCode.InvalidPolicy:
      return 'Invalid policy';
    case ToolExceptionCode.Unauthenticated:
      return 'Authentication required';
    case ToolExceptionCode.Forbidden:
      return 'Missing scope';
    case ToolExceptionCode.SelfApprovalForbidden:
      return 'Self-approval not allowed';
    case ToolExceptionCode.NotFound:
      return 'Not found';
    case ToolExceptionCode.VersionNotFound:
      return 'Version not found';
    case ToolExceptionCode.Conflict:
      return 'Conflict';
    case ToolExceptionCode.BreakingChange:
      return 'Breaking change needs a major version';
    case ToolExceptionCode.VersionSunset:
      return 'Version past its sunset';
    case ToolExceptionCode.PayloadTooLarge:
      return 'Payload too large';
    case ToolExceptionCode.UnsupportedMediaType:
      return 'Unsupported media type';
    case ToolExceptionCode.UriTooLong:
      return 'URI too long';
    case ToolExceptionCode.HeadersTooLarge:
      return 'Request header fields too large';
    case ToolExceptionCode.RequestTimeout:
      return 'Request timeout';
    case ToolExceptionCode.MethodNotAllowed:
      return 'Method not allowed';
    case ToolExceptionCode.RateLimited:
      return 'Too many requests';
    case ToolExceptionCode.Unavailable:
      return 'Service unavailable';
    case ToolExceptionCode.UpstreamUnavailable:
      return 'Upstream server unreachable';
    case ToolExceptionCode.EgressDenied:
      return 'Address refused by the egress policy';
    case ToolExceptionCode.MissingSecrets:
      return 'Referenced secrets do not exist';
    case ToolExceptionCode.SecretInUse:
      return 'Secret in use';
    case ToolExceptionCode.SecretsUnconfigured:
      return 'Secret store not configured';
    case ToolExceptionCode.Internal:
      return 'Internal error';
    default:
      return assertUnreachable(code);
  }
}

export function statusOf(code: ToolExceptionCode): number {
  return STATUS_BY_CODE[code];
}

function fromToolException(exception: ToolException): ProblemResponse {
  const status = statusOf(exception.code);
  const headers: Record<string, string> = { ...exception.headers };
  // RFC 9110 §11.6.1: a 401 carries the challenge the client must answer.
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="toolgate"';
  return {
    status,
    headers,
    body: {
      ...exception.extensions,
      type: `${PROBLEM_TYPE_BASE}${exception.code}`,
      title: titleOf(exception.code),
      status,
      detail: exception.message,
      code: exception.code,
      errors: exception.issues,
    },
  };
}

// Fastify's own failures (body parsing, limits) carry an FST_* code and a 4xx statusCode.
const FASTIFY_CODES: Partial<Record<string, ToolExceptionCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ToolExceptionCode.PayloadTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ToolExceptionCode.UnsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ToolExceptionCode.InvalidRequest,
  FST_ERR_CTP_EMPTY_JSON_BODY: ToolExceptionCode.InvalidRequest,
  FST_ERR_CTP_INVALID_JSON_BODY: ToolExceptionCode.InvalidRequest,
};

interface ErrorWithStatus {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

function codeForStatus(status: number): ToolExceptionCode {
  if (status === 401) return ToolExceptionCode.Unauthenticated;
  if (status === 403) return ToolExceptionCode.Forbidden;
  if (status === 404) return ToolExceptionCode.NotFound;
  if (status === 405) return ToolExceptionCode.MethodNotAllowed;
  if (status === 408) return ToolExceptionCode.RequestTimeout;
  if (status === 409) return ToolExceptionCode.Conflict;
  if (status === 413) return ToolExceptionCode.PayloadTooLarge;
  if (status === 414) return ToolExceptionCode.UriTooLong;
  if (status === 415) return ToolExceptionCode.UnsupportedMediaType;
  if (status === 431) return ToolExceptionCode.HeadersTooLarge;
  if (status === 429) return ToolExceptionCode.RateLimited;
  if (status >= 400 && status < 500) return ToolExceptionCode.InvalidRequest;
  if (status === 503) return ToolExceptionCode.Unavailable;
  return ToolExceptionCode.Internal;
}

/** What a client is told when something unexpected failed: no detail, only where the log has it. */
export const INTERNAL_ERROR_MESSAGE =
  'An unexpected error occurred; the server log has the details under this request id.';

/**
 * The one sanitizer: what of an error a client may see, as a ToolException (a code, a message
 * written for clients, issues, headers). A ToolException is ours and says only what it was written
 * to say; Nest's and Fastify's own 4xx errors keep their messages; anything else (a database or
 * driver error, a bug) becomes `internal` with a fixed message, since its message, stack and SQL
 * name files and tables. Every transport (problem documents, MCP's JSON-RPC errors) goes through it,
 * and the caller logs the original error with the request id.
 */
export function publicErrorOf(error: unknown): ToolException {
  if (error instanceof ToolException) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = codeForStatus(status);
    if (code === ToolExceptionCode.Internal) return internalError();
    const message = status === 404 ? 'No route matches this method and path.' : error.message;
    return new ToolException(code, message);
  }
  if (typeof error === 'object' && error !== null) {
    const { code, statusCode, message } = error as ErrorWithStatus;
    const text = typeof message === 'string' ? message : 'The request was rejected.';
    const mapped = typeof code === 'string' ? FASTIFY_CODES[code] : undefined;
    if (mapped !== undefined) return new ToolException(mapped, text);
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return new ToolException(codeForStatus(statusCode), text);
    }
  }
  return internalError();
}

function internalError(): ToolException {
  return new ToolException(ToolExceptionCode.Internal, INTERNAL_ERROR_MESSAGE);
}

/** Turns anything thrown while serving a request into a problem response; unknown errors hide their internals. */
export function toProblem(error: unknown): ProblemResponse {
  return fromToolException(publicErrorOf(error));
}
