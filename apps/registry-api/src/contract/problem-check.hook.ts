import type { FastifyInstance } from 'fastify';
import { PROBLEM_MEDIA_TYPE } from '@toolgate/contract';
import { declaresProblem, recordViolation, type ResponseCheckMode } from './response-check';
import { contractRouteOf } from './route-index';

/**
 * Checks that every problem a route answers with carries a code its contract declares, so the
 * OpenAPI document lists every error a client can get. Drifts are logged, and recorded in `strict`.
 */
export function installProblemCheck(fastify: FastifyInstance, mode: ResponseCheckMode): void {
  if (mode === 'off') return;
  fastify.addHook('onSend', async (request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (
      typeof type !== 'string' ||
      !type.startsWith(PROBLEM_MEDIA_TYPE) ||
      typeof payload !== 'string'
    ) {
      return payload;
    }
    const route = contractRouteOf(request.method, request.routeOptions.url);
    if (route === undefined) return payload;
    let code: unknown;
    try {
      code = (JSON.parse(payload) as { code?: unknown }).code;
    } catch {
      return payload;
    }
    if (typeof code === 'string' && !declaresProblem(route, code)) {
      const violation = {
        operationId: route.operationId,
        status: reply.statusCode,
        problems: [`problem code ${code} is not declared by the route`],
      };
      request.log.error({ contractViolation: violation }, 'problem code not in the contract');
      if (mode === 'strict') recordViolation(violation);
    }
    return payload;
  });
}
