import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * One request header (lower-case name) as a handler parameter; unlike Nest's `@Headers`, it
 * accepts pipes, so a header that matters is validated like a body. A repeated header is an array.
 */
export const RequestHeader = createParamDecorator(
  (name: string, context: ExecutionContext): string | string[] | undefined =>
    context.switchToHttp().getRequest<FastifyRequest>().headers[name],
);
