import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { OPENAPI_IMPORT_BODY_LIMIT } from '@toolgate/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteOutcome } from '../logging/request-log';
import { allowedMethodsOf } from './allowed-methods';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem-document';
import { ToolException } from './tool.exception';

/**
 * Nest answers a request no route matches with a NotFoundException; when the path is served for
 * other methods, the answer is a 405 naming them in `Allow` (RFC 9110 §15.5.6) instead.
 */
function routeMissOf(request: FastifyRequest, error: unknown): unknown {
  if (!(error instanceof HttpException) || error.getStatus() !== 404) return error;
  const allowed = allowedMethodsOf(request);
  if (allowed.length === 0) return error;
  return new ToolException(
    'method_not_allowed',
    `${request.method} is not served at this path; use ${allowed.join(', ')}.`,
    { headers: { allow: allowed.join(', ') }, extensions: { allowed_methods: allowed } },
  );
}

/**
 * A body past the route's limit (Fastify's FST_ERR_CTP_BODY_TOO_LARGE, which reaches the filter
 * as Nest's 413): the answer says the limit and what raises it.
 */
function bodyTooLargeOf(request: FastifyRequest, error: unknown): unknown {
  const tooLarge =
    (error instanceof HttpException && error.getStatus() === 413) ||
    (typeof error === 'object' &&
      error !== null &&
      (error as { code?: unknown }).code === 'FST_ERR_CTP_BODY_TOO_LARGE');
  if (!tooLarge) return error;
  const limit = request.routeOptions.bodyLimit;
  return new ToolException(
    'payload_too_large',
    `The request body is larger than the ${limit.toLocaleString('en')} bytes this route accepts; the server's BODY_LIMIT setting raises it (for every route but POST /v1/imports/openapi, which takes at least ${OPENAPI_IMPORT_BODY_LIMIT.toLocaleString('en')}).`,
    { extensions: { limit_bytes: limit } },
  );
}

/**
 * The one problem helper: sends a problem response on a Fastify reply (the Nest filter, Fastify's
 * own error paths). The client gets the sanitized problem and the request id; the original error
 * goes to the request's log line.
 */
export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  error: unknown,
): FastifyReply {
  const problem = toProblem(bodyTooLargeOf(request, routeMissOf(request, error)));
  noteOutcome(request, {
    code: problem.body.code,
    ...(problem.status >= 500 ? { err: error } : {}),
  });
  return reply
    .status(problem.status)
    .headers(problem.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send({ ...problem.body, instance: request.url.split('?')[0], request_id: String(request.id) });
}

/**
 * The same problem written straight onto a socket, for what Node's HTTP parser refuses before
 * Fastify has a request (a request line or headers past maxHeaderSize): Fastify's `clientError`
 * handler would answer those with plain JSON. The connection is closed after it.
 */
export function writeProblemToSocket(socket: Duplex, error: unknown, requestId: string): void {
  const problem = toProblem(error);
  const body = JSON.stringify({ ...problem.body, request_id: requestId });
  const headers = {
    ...problem.headers,
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n${head}\r\n${body}`,
  );
}

/** The one place errors become `application/problem+json` (RFC 9457). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    void sendProblem(
      http.getResponse<FastifyReply>(),
      http.getRequest<FastifyRequest>(),
      exception,
    );
  }
}
