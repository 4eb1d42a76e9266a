import { HttpException } from '@nestjs/common';
import { problemStatusOf, problemTitleOf, type ProblemCode } from '@toolgate/toolir';
import { ToolException, type ProblemIssue } from './tool.exception';

/** An RFC 9457 problem document as this API writes it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
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

/** The HTTP status of a problem code, from the table of error codes. */
export function statusOf(code: ProblemCode): number {
  return problemStatusOf(code);
}

function fromToolException(exception: ToolException): ProblemResponse {
  const status = statusOf(exception.code);
  const headers: Record<string, string> = { ...exception.headers };
  // RFC 9110 §11.6.1: a 401 carries the challenge the client must answer (one of its own, if set).
  if (status === 401) headers['www-authenticate'] ??= 'Bearer realm="toolgate"';
  return {
    status,
    headers,
    body: {
      ...exception.extensions,
      type: `${PROBLEM_TYPE_BASE}${exception.code}`,
      title: problemTitleOf(exception.code),
      status,
      detail: exception.message,
      code: exception.code,
      errors: exception.issues,
    },
  };
}

// Fastify's own failures (body parsing, limits) carry an FST_* code and a 4xx statusCode.
const FASTIFY_CODES: Partial<Record<string, ProblemCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
};

interface ErrorWithStatus {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

function codeForStatus(status: number): ProblemCode {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 408) return 'request_timeout';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 414) return 'uri_too_long';
  if (status === 415) return 'unsupported_media_type';
  if (status === 431) return 'headers_too_large';
  if (status === 429) return 'rate_limited';
  if (status >= 400 && status < 500) return 'invalid_request';
  if (status === 503) return 'unavailable';
  return 'internal';
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
  // `instanceof` types a generic class's instance as ToolException<any>; its code is a ProblemCode.
  if (error instanceof ToolException) return error as ToolException;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = codeForStatus(status);
    if (code === 'internal') return internalError();
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
  return new ToolException('internal', INTERNAL_ERROR_MESSAGE);
}

/** Turns anything thrown while serving a request into a problem response; unknown errors hide their internals. */
export function toProblem(error: unknown): ProblemResponse {
  return fromToolException(publicErrorOf(error));
}
