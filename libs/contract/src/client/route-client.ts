import type { z } from 'zod';
import { ProblemSchema, type Problem } from '../problem/problem';
import {
  routePath,
  type RouteDefinition,
  type RouteRequest,
  type RouteResponseBody,
  type RouteStatus,
} from '../route/route';

/** The parts of a request that end up in its URL. */
export type RouteUrlParts<TRoute extends RouteDefinition> = Partial<
  Pick<RouteRequest<TRoute>, 'params' | 'query'>
>;

/**
 * The path and query string of a request to `route`: `{name}` placeholders filled (encoded), query
 * values written as the API reads them (arrays repeat the name, undefined values are left out).
 */
export function routeUrl<TRoute extends RouteDefinition>(
  route: TRoute,
  parts: RouteUrlParts<TRoute> = {},
): string {
  const path = routePath(route, parts.params ?? {});
  const search = new URLSearchParams();
  const query: object = parts.query ?? {};
  for (const [name, value] of Object.entries(query) as Array<[string, unknown]>) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value])
      search.append(name, queryText(item));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** A query value as text: scalars as written, anything else as JSON. */
function queryText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/** An answer read with its route's schemas. */
export type RouteAnswer<TRoute extends RouteDefinition> =
  | {
      [TStatus in RouteStatus<TRoute>]: {
        kind: 'success';
        status: TStatus;
        body: RouteResponseBody<TRoute, TStatus>;
      };
    }[RouteStatus<TRoute>]
  | { kind: 'problem'; status: number; problem: Problem }
  /** The answer's status or body is not what the contract says (another server, a proxy, a newer API). */
  | { kind: 'unexpected'; status: number; issues: string[] };

function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `/${issue.path.map(String).join('/')}: ${issue.message}`);
}

/**
 * Reads an answer of `route`: a declared success status parses with its schema, a 4xx/5xx with the
 * problem document's; anything else is `unexpected`, with what did not match.
 */
export function readRouteAnswer<TRoute extends RouteDefinition>(
  route: TRoute,
  status: number,
  body: unknown,
): RouteAnswer<TRoute> {
  if (status >= 400) {
    const problem = ProblemSchema.safeParse(body);
    return problem.success
      ? { kind: 'problem', status, problem: problem.data }
      : { kind: 'unexpected', status, issues: issuesOf(problem.error) };
  }
  const response = route.responses[status];
  if (response === undefined) {
    return {
      kind: 'unexpected',
      status,
      issues: [`status ${status} is not an answer of ${route.operationId}`],
    };
  }
  if (response.schema === undefined) {
    return { kind: 'success', status, body: undefined } as RouteAnswer<TRoute>;
  }
  const parsed = response.schema.safeParse(body);
  return parsed.success
    ? ({ kind: 'success', status, body: parsed.data } as RouteAnswer<TRoute>)
    : { kind: 'unexpected', status, issues: issuesOf(parsed.error) };
}
