/**
 * The console's one way to talk to the registry API: same-origin `/v1/*` (proxied by
 * app/v1/[...path]/route.ts), the session cookie rides along, and every mutating request carries
 * the CSRF token the session handed out.
 *
 * Requests are made from the routes of `@toolgate/contract`, so their inputs and answers are typed
 * from the same schemas the API validates with: a change to a shape breaks this app's compile. In
 * development every answer is also parsed with its route's schemas, so an API that drifted from
 * the contract fails loudly on the page that read it instead of rendering `undefined`.
 */
import {
  ProblemSchema,
  readRouteAnswer,
  routeUrl,
  type Problem,
  type RouteDefinition,
  type RouteRequest,
  type RouteResponseBody,
  type RouteStatus,
} from '@toolgate/contract';
import { ERROR_CODES, PROBLEM_CODES, type ProblemCode } from '@toolgate/toolir';

/** A request the API refused or could not answer; `problem` holds its explanation. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title);
  }

  /** The messages of the issues whose path ends with `field` (e.g. `text` for `/body/text`). */
  issuesFor(field: string): string[] {
    return this.problem.errors
      .filter((issue) => issue.path === field || issue.path.endsWith(`/${field}`))
      .map((issue) => issue.message);
  }
}

/**
 * An answer that is not what the contract says (development only): a bug in the API or in
 * libs/contract, not something a person can fix from the page, so it is not an ApiError.
 */
export class ContractMismatchError extends Error {
  override readonly name = 'ContractMismatchError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly issues: readonly string[],
  ) {
    super(
      `The answer of ${operationId} (status ${status}) does not match the contract: ${issues.join('; ')}`,
    );
  }
}

let csrfToken: string | null = null;

/** Remembers the CSRF token of the current session (null after sign-out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** A route the console can call: answered with JSON (SSE and MCP streams are not). */
export type ApiRoute = RouteDefinition & { streaming?: false };

type Empty = Record<never, never>;
type RequestPart = 'params' | 'query' | 'body';
/** A part may be left out when the route has none, or its schema is optional or has only optional members. */
type MayOmit<TValue> = undefined extends TValue ? true : Empty extends TValue ? true : false;
type RequiredParts<TRoute extends RouteDefinition> = {
  [TPart in RequestPart]: MayOmit<RouteRequest<TRoute>[TPart]> extends true ? never : TPart;
}[RequestPart];

/** What a call of `route` sends: its path parameters, query and body, typed from its schemas. */
export type ApiRequest<TRoute extends RouteDefinition> = Partial<
  Pick<RouteRequest<TRoute>, RequestPart>
> &
  Pick<RouteRequest<TRoute>, RequiredParts<TRoute>> & { signal?: AbortSignal };

/** The console never sends conditional requests, and fetch follows redirects: no 3xx reaches it. */
type RedirectStatus = 300 | 301 | 302 | 303 | 304 | 305 | 307 | 308;

/** The body of a route's success answer. */
export type ApiResult<TRoute extends RouteDefinition> = RouteResponseBody<
  TRoute,
  Exclude<RouteStatus<TRoute>, RedirectStatus>
>;

const SAFE_METHODS = new Set<RouteDefinition['method']>(['get']);

/** Whether answers are parsed with the contract; read per call so tests can switch it. */
function checksAnswers(): boolean {
  return process.env.NODE_ENV !== 'production';
}

/**
 * A code for a problem the console makes up (no answer, or one that is no problem document): the
 * API's first code of a 4xx status; for 5xx and no answer at all (0) the API's own outage codes,
 * since a 502 from a proxy is not a tool's `upstream_unavailable`.
 */
export function problemCodeFor(status: number): ProblemCode {
  if (status === 500) return 'internal';
  if (status === 0 || status > 500) return 'unavailable';
  return PROBLEM_CODES.find((code) => ERROR_CODES[code].status === status) ?? 'invalid_request';
}

function localProblem(status: number, title: string, detail: string): Problem {
  return {
    type: 'about:blank',
    title,
    status,
    detail,
    code: problemCodeFor(status),
    errors: [],
  };
}

interface RawAnswer {
  status: number;
  statusText: string;
  /** The parsed JSON; the text itself when it is not JSON; undefined without a body. */
  body: unknown;
}

async function send(
  route: ApiRoute,
  url: string,
  request: { body?: unknown; signal?: AbortSignal | undefined },
): Promise<RawAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE_METHODS.has(route.method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method.toUpperCase(),
      headers,
      credentials: 'same-origin',
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(
      0,
      localProblem(
        0,
        'The console cannot reach the registry API',
        'Check that the API is running and TOOLGATE_API_URL points at it, then retry.',
      ),
    );
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { status: response.status, statusText: response.statusText, body };
}

/**
 * The one place an answer's body takes its route's type: after `readRouteAnswer` parsed it in
 * development; on the contract's word in production, where parsing every answer would cost each
 * page for a mismatch the development build already reports.
 */
function asResult<TRoute extends ApiRoute>(body: unknown): ApiResult<TRoute> {
  return body as ApiResult<TRoute>;
}

/**
 * Calls `route` and returns the body of its success answer (undefined for 204); a problem answer
 * throws ApiError. In development an answer the contract does not describe throws
 * ContractMismatchError naming the route and the members that do not match.
 */
export async function apiRequest<TRoute extends ApiRoute>(
  route: TRoute,
  request: ApiRequest<TRoute>,
): Promise<ApiResult<TRoute>> {
  const url = routeUrl(route, request);
  const answer = await send(route, url, request);
  if (answer.status >= 300 && answer.status < 400) {
    throw new ContractMismatchError(route.operationId, answer.status, [
      `status ${answer.status}: the console neither sends conditional requests nor expects redirects`,
    ]);
  }
  if (checksAnswers()) {
    const read = readRouteAnswer(route, answer.status, answer.body);
    if (read.kind === 'problem') throw new ApiError(read.status, read.problem);
    if (read.kind === 'unexpected')
      throw new ContractMismatchError(route.operationId, read.status, read.issues);
    return asResult<TRoute>(read.body);
  }
  if (answer.status >= 400) {
    // Errors are rare and may come from something in front of the API (a proxy's HTML page), so
    // they are parsed even here: a page must always be able to show the problem.
    const problem = ProblemSchema.safeParse(answer.body);
    throw new ApiError(
      answer.status,
      problem.success
        ? problem.data
        : localProblem(answer.status, answer.statusText || 'Request failed', ''),
    );
  }
  return asResult<TRoute>(answer.body);
}

/** '' (an empty filter field) as absent, so it is left out of the query instead of refused. */
export function nonEmpty(value: string): string | undefined {
  return value === '' ? undefined : value;
}

/** `value` if it is one of `options` (e.g. a select's value), else `fallback`. */
export function oneOf<const TOption extends string, TFallback>(
  options: readonly TOption[],
  value: string,
  fallback: TFallback,
): TOption | TFallback {
  return options.find((option) => option === value) ?? fallback;
}

/** A human sentence for any error a page may catch. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const issues = error.problem.errors.map(
      (issue) => `${issue.path ? `${issue.path}: ` : ''}${issue.message}`,
    );
    return [error.problem.detail || error.problem.title, ...issues].join(' — ');
  }
  return error instanceof Error ? error.message : String(error);
}
