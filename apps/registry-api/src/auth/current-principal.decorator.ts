import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ToolException } from '../problem/tool.exception';
import type { Principal } from './principal';

const PRINCIPALS = new WeakMap<object, Principal>();

/** Remembers the caller authenticated for a request (set by the guard). */
export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  PRINCIPALS.set(request, principal);
}

export function getPrincipal(request: FastifyRequest): Principal | undefined {
  return PRINCIPALS.get(request);
}

/** Injects the authenticated caller into a handler parameter. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = getPrincipal(context.switchToHttp().getRequest<FastifyRequest>());
    if (!principal) throw new ToolException('unauthenticated', 'No credentials were presented.');
    return principal;
  },
);
