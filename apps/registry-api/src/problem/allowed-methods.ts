import type { FastifyInstance, FastifyRequest } from 'fastify';

interface RouteShape {
  url: string;
  pattern: RegExp;
  methods: Set<string>;
}

// Per Fastify instance, since tests build many apps in one process.
const tables = new WeakMap<FastifyInstance, RouteShape[]>();

/** A Fastify route path (`/v1/tools/:toolId`, `/v1/docs/*`) as a regular expression over paths. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Records every route as it is registered (Nest registers its routes at `init`, after this hook),
 * so a request no route matches can be told which methods its path does serve.
 */
export function recordRouteMethods(fastify: FastifyInstance): void {
  const table: RouteShape[] = [];
  tables.set(fastify, table);
  fastify.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
    const existing = table.find((shape) => shape.pattern.source === patternOf(route.url).source);
    if (existing === undefined)
      table.push({ url: route.url, pattern: patternOf(route.url), methods: new Set(methods) });
    else for (const method of methods) existing.methods.add(method);
  });
}

// A plugin's instance inherits from its parent's (Fastify's encapsulation), so walk up to the root.
function tableOf(server: FastifyInstance): RouteShape[] {
  for (let current: unknown = server; current !== null; current = Object.getPrototypeOf(current)) {
    const table = tables.get(current as FastifyInstance);
    if (table !== undefined) return table;
  }
  return [];
}

/** The methods the request's path is served for (HEAD wherever GET is), sorted; [] for an unknown path. */
export function allowedMethodsOf(request: FastifyRequest): string[] {
  const table = tableOf(request.server);
  const path = request.url.split('?')[0] ?? '';
  const methods = new Set<string>();
  for (const shape of table) {
    if (!shape.pattern.test(path)) continue;
    for (const method of shape.methods) methods.add(method);
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** Every route the server serves as `{ method, url }` (Fastify's `/v1/tools/:toolId` form). */
export function servedRoutesOf(server: FastifyInstance): Array<{ method: string; url: string }> {
  return tableOf(server).flatMap((shape) =>
    [...shape.methods].map((method) => ({ method, url: shape.url })),
  );
}
