import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RouteDefinition } from '@toolgate/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { findRequestProblems } from '../common/zod-validation.pipe';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';
import { ROUTE_METADATA } from './endpoint.decorator';

const PARTS = ['params', 'query', 'headers', 'body'] as const;

/**
 * Only the headers the route reads: a request carries a dozen others, which the loose headers
 * schema would copy and walk on every call for nothing.
 */
function declaredHeaders(
  schema: z.ZodType,
  headers: FastifyRequest['headers'],
): Record<string, unknown> {
  const declared = schema instanceof z.ZodObject ? Object.keys(schema.shape) : Object.keys(headers);
  const picked: Record<string, unknown> = {};
  for (const name of declared) if (headers[name] !== undefined) picked[name] = headers[name];
  return picked;
}

/** Parses a request's parts with its route's schemas; every problem of every part becomes one 400. */
export function parseRouteInput(
  route: RouteDefinition,
  request: FastifyRequest,
): Record<(typeof PARTS)[number], unknown> {
  const input: Record<(typeof PARTS)[number], unknown> = {
    params: undefined,
    query: undefined,
    headers: undefined,
    body: undefined,
  };
  const issues: ProblemIssue[] = [];
  let firstPart: string | undefined;
  for (const part of PARTS) {
    const schema = route[part];
    if (schema === undefined) continue;
    const result = findRequestProblems(
      schema,
      part === 'headers' ? declaredHeaders(schema, request.headers) : request[part],
      part,
    );
    if (result.ok) input[part] = result.value;
    else {
      firstPart ??= part;
      issues.push(...result.issues);
    }
  }
  if (issues.length > 0) {
    throw new ToolException(
      'invalid_request',
      `The request ${firstPart === 'params' ? 'path' : firstPart} is invalid.`,
      { issues },
    );
  }
  return input;
}

/**
 * The handler's input, parsed with the schemas of the route its `@Endpoint` names:
 * `{ params, query, headers, body }`, typed as `RouteInput<typeof route>`.
 */
export const Input = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const route = Reflect.getMetadata(ROUTE_METADATA, context.getHandler()) as
    RouteDefinition | undefined;
  if (route === undefined) throw new Error('@Input() needs @Endpoint(route) on the same handler');
  return parseRouteInput(route, context.switchToHttp().getRequest<FastifyRequest>());
});
