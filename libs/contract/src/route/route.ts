import type { ProblemCode } from '@toolgate/toolir';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call a route: `api_key` (a bearer `tg_...` key, or a console session cookie, which the
 * console uses for the same routes), `bearer` (a `tg_...` key, or with OAuth configured an access
 * token of a trusted issuer, never a cookie: the MCP endpoint),
 * `console_session` (the cookie only: signing in and out), `public` (no credentials: health
 * probes, the document itself).
 */
export type RouteSecurity = 'api_key' | 'bearer' | 'console_session' | 'public';

/** What an API key may do; `admin` implies every other scope. */
export const SCOPES = [
  'tools:read',
  'tools:write',
  'calls:execute',
  'approvals:decide',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

/** One answer a route gives with a body (or none: 204, 304). */
export interface RouteResponse {
  description: string;
  /** The body's schema; absent for a response without a body. */
  schema?: z.ZodType;
  /** Default `application/json`. */
  mediaType?: string;
  /** Response headers worth documenting (lower-case names). */
  headers?: Readonly<Record<string, { description: string; schema: z.ZodType }>>;
}

/**
 * One route of the HTTP API, the single description the API validates with, the OpenAPI document
 * is generated from, and the SDK and console parse with.
 */
export interface RouteDefinition {
  /** Unique, camelCase; the OpenAPI operationId and the key clients name the route by. */
  operationId: string;
  method: HttpMethod;
  /** The full path, OpenAPI style: `/v1/tools/{toolId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: RouteSecurity;
  /** The scopes an API key needs (all of them); required unless `security` is `public`. */
  scopes?: readonly Scope[];
  /** Path parameters, one key per `{name}` in `path`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the route reads (lower-case names); other headers pass. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** Example request bodies (checked against `body` by the contract's tests). */
  bodyExamples?: Readonly<Record<string, unknown>>;
  /** Every success (and 3xx) answer, by status. */
  responses: Readonly<Record<number, RouteResponse>>;
  /** The problem codes this route itself may answer, beside those every route may (COMMON_PROBLEMS). */
  problems: readonly ProblemCode[];
  /** A route whose answer is a stream or protocol of its own (SSE, MCP): not parsed as JSON. */
  streaming?: boolean;
}

/** Keeps a route's literal types (path, method, schemas) so inputs and outputs are typed from it. */
export function defineRoute<const TRoute extends RouteDefinition>(route: TRoute): TRoute {
  return route;
}

type OutputOf<TSchema> = TSchema extends z.ZodType ? z.output<TSchema> : undefined;
type InputOf<TSchema> = TSchema extends z.ZodType ? z.input<TSchema> : undefined;

/** What a handler receives once the route's schemas have parsed the request. */
export interface RouteInput<TRoute extends RouteDefinition> {
  params: OutputOf<TRoute['params']>;
  query: OutputOf<TRoute['query']>;
  headers: OutputOf<TRoute['headers']>;
  body: OutputOf<TRoute['body']>;
}

/** What a client sends: the schemas' input types (before defaults and coercion). */
export interface RouteRequest<TRoute extends RouteDefinition> {
  params: InputOf<TRoute['params']>;
  query: InputOf<TRoute['query']>;
  headers: InputOf<TRoute['headers']>;
  body: InputOf<TRoute['body']>;
}

declare const serialized: unique symbol;

/**
 * A body already written as JSON text (a cached answer), typed by the value it holds, so a handler
 * may send the text it cached and still be checked against its route. Made by `serializeBody`.
 */
export type SerializedBody<TBody> = string & { readonly [serialized]: TBody };

/** JSON text of `value`, keeping its type for the route check. */
export function serializeBody<TBody>(value: TBody): SerializedBody<TBody> {
  return JSON.stringify(value) as SerializedBody<TBody>;
}

type ResponseSchemaOf<TResponse> = TResponse extends { schema: infer TSchema extends z.ZodType }
  ? TSchema
  : never;

/** The success statuses of a route. */
export type RouteStatus<TRoute extends RouteDefinition> = keyof TRoute['responses'] & number;

/**
 * The body a handler returns for any of its success answers (as a value or as JSON text made by
 * `serializeBody`); a streaming route writes its answer itself and returns nothing.
 */
export type RouteResult<TRoute extends RouteDefinition> = TRoute extends { streaming: true }
  ? undefined | void
  : {
      [TStatus in RouteStatus<TRoute>]: ResponseSchemaOf<TRoute['responses'][TStatus]> extends never
        ? undefined | void
        : | z.input<ResponseSchemaOf<TRoute['responses'][TStatus]>>
          | SerializedBody<z.input<ResponseSchemaOf<TRoute['responses'][TStatus]>>>;
    }[RouteStatus<TRoute>];

/** The body a client reads from the answer with `status`. */
export type RouteResponseBody<
  TRoute extends RouteDefinition,
  TStatus extends RouteStatus<TRoute> = RouteStatus<TRoute>,
> = {
  [TKey in TStatus]: ResponseSchemaOf<TRoute['responses'][TKey]> extends never
    ? undefined
    : z.output<ResponseSchemaOf<TRoute['responses'][TKey]>>;
}[TStatus];

/** The status a route answers with when the handler does not choose: its first 2xx. */
export function defaultStatusOf(route: RouteDefinition): number {
  const statuses = Object.keys(route.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((left, right) => left - right);
  const status = statuses[0];
  if (status === undefined) throw new Error(`route ${route.operationId} declares no 2xx response`);
  return status;
}

/** Fills `{name}` placeholders of a route's path (values are percent-encoded). */
export function routePath(route: Pick<RouteDefinition, 'path'>, params: object = {}): string {
  const values = params as Record<string, unknown>;
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) {
      throw new Error(`routePath: missing path parameter ${name} for ${route.path}`);
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`routePath: path parameter ${name} of ${route.path} must be a string`);
    }
    return encodeURIComponent(String(value));
  });
}
