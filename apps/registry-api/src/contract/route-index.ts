import { ROUTE_LIST, type RouteDefinition } from '@toolgate/contract';
import { nestPathOf } from './endpoint.decorator';

/** The contract routes by `METHOD /fastify/:path` as Fastify reports a matched route. */
const BY_FASTIFY_ROUTE = new Map<string, RouteDefinition>(
  ROUTE_LIST.map((route) => {
    const local = nestPathOf(route.path);
    const full = route.path.startsWith('/v1') ? `/v1${local === '/' ? '' : local}` : local;
    return [`${route.method.toUpperCase()} ${full}`, route];
  }),
);

/** The contract route Fastify matched for a request (`routeOptions.url`), if it is one. */
export function contractRouteOf(
  method: string,
  routeUrl: string | undefined,
): RouteDefinition | undefined {
  if (routeUrl === undefined) return undefined;
  return BY_FASTIFY_ROUTE.get(`${method.toUpperCase()} ${routeUrl}`);
}
