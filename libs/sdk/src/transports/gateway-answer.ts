import {
  readRouteAnswer,
  type RouteAnswer,
  type RouteDefinition,
  type RouteResponse,
} from '@toolgate/contract';
import { ToolgateInvalidResponseError } from '../errors/toolgate-sdk-error';

/** A success answer of `TRoute`: its status, and its body parsed with that status's schema. */
export type RouteSuccess<TRoute extends RouteDefinition> = Extract<
  RouteAnswer<TRoute>,
  { kind: 'success' }
>;

function isSuccess<TRoute extends RouteDefinition>(
  answer: RouteAnswer<TRoute>,
): answer is RouteSuccess<TRoute> {
  return answer.kind === 'success';
}

/** Parses a body as JSON; text that is not JSON is a broken answer, not a crash. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolgateInvalidResponseError(`${what} is not JSON`, { cause: error });
  }
}

/**
 * Reads a gateway answer of `route` (a status below 400; the transport turns the others into
 * errors) with the route's response schemas from `@toolgate/contract`. A status the route does
 * not declare, or a body its schema refuses (another server, a proxy, an incompatible gateway),
 * becomes a `ToolgateInvalidResponseError` listing every issue.
 */
export async function readGatewayAnswer<TRoute extends RouteDefinition>(
  route: TRoute,
  response: Response,
  what: string,
): Promise<RouteSuccess<TRoute>> {
  const declared: RouteResponse | undefined = route.responses[response.status];
  let body: unknown;
  if (declared?.schema === undefined) {
    // Nothing of it is read (a 304 has no body, an undeclared status is refused below): free the connection.
    await response.body?.cancel().catch(() => undefined);
  } else {
    body = parseJsonText(await response.text(), what);
  }
  const answer = readRouteAnswer(route, response.status, body);
  if (isSuccess(answer)) return answer;
  const issues =
    answer.kind === 'unexpected'
      ? answer.issues
      : [`status ${answer.status} is an error, not an answer of ${route.operationId}`];
  throw new ToolgateInvalidResponseError(
    `${what} answered ${response.status}, which does not match the contract: ${issues.join('; ')}`,
    { issues },
  );
}
