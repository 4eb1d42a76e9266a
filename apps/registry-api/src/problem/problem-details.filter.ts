import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem-document';

/** Sends a problem response on a Fastify reply; shared by the Nest filter and Fastify's own error hooks. */
export function sendProblem(
  reply: FastifyReply,
  request: FastifyRequest,
  error: unknown,
): FastifyReply {
  const problem = toProblem(error);
  if (problem.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ status: problem.status, code: problem.body.code }, 'request refused');
  }
  return reply
    .status(problem.status)
    .headers(problem.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send({ ...problem.body, instance: request.url.split('?')[0] });
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
