import {
  applyDecorators,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
} from '@nestjs/common';
import { defaultStatusOf, type RouteDefinition, type RouteResult } from '@toolgate/contract';
import { PublicRoute, RequireScopes } from '../auth/require-scopes.decorator';

/** Where Endpoint keeps a handler's route, for Input and the response check. */
export const ROUTE_METADATA = 'toolgate:route';

const METHODS: Record<RouteDefinition['method'], RequestMethod> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
};

/** The Nest path of a contract path: without the global `/v1` prefix, `{name}` as `:name`. */
export function nestPathOf(path: string): string {
  const local = path === '/v1' ? '/' : path.startsWith('/v1/') ? path.slice(3) : path;
  return local.replace(/\{(\w+)\}/g, ':$1');
}

type MaybePromise<TValue> = TValue | Promise<TValue>;

/**
 * Serves a contract route: method, path, default status and scopes come from the route, and the
 * handler must return one of the route's response bodies (checked by the compiler; the shape is
 * checked again at run time by ContractResponseInterceptor). The controller using it has no prefix.
 */
export function Endpoint<TRoute extends RouteDefinition>(route: TRoute) {
  const decorators = [
    RequestMapping({ path: nestPathOf(route.path), method: METHODS[route.method] }),
    HttpCode(defaultStatusOf(route)),
    SetMetadata(ROUTE_METADATA, route),
  ];
  if (route.security === 'public') decorators.push(PublicRoute());
  else if (route.scopes !== undefined && route.scopes.length > 0) {
    const [first, ...rest] = route.scopes;
    if (first !== undefined) decorators.push(RequireScopes(first, ...rest));
  }
  const apply = applyDecorators(...decorators);
  return <THandler extends (...args: never[]) => MaybePromise<RouteResult<TRoute>>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<THandler>,
  ): void => {
    apply(target, key, descriptor);
  };
}
