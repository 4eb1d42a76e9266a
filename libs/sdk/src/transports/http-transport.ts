import {
  ProblemIssueSchema,
  ProblemSchema,
  type ProblemIssue,
  type RouteDefinition,
  type routes,
} from '@toolgate/contract';
import { isRecord } from '@toolgate/toolir';
import {
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateSdkError,
  ToolgateTimeoutError,
  type ProblemFields,
} from '../errors/toolgate-sdk-error';
import {
  RETRYABLE_STATUSES,
  backoffDelay,
  parseRetryAfter,
  type RetryOptions,
} from './retry-policy';
import {
  markClientSpanFailed,
  startRequestSpan,
  traceHeadersOfSpan,
  type TracerLike,
} from '../telemetry/client-tracing';
import { networkFailureOf } from './network-failure';

/**
 * The header that names who is asking, for canary bucketing (checked against the headers
 * `GET /v1/exports` reads); sent with every request.
 */
export const SUBJECT_HEADER =
  'x-toolgate-subject' satisfies keyof (typeof routes.exportTools.headers)['shape'];

/** The `fetch` the SDK calls: the global one, or any function with its signature. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Waits before a retry; injectable so tests can assert the delays without waiting. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What the transport needs from the client's options. */
export interface HttpTransportOptions {
  baseUrl: string;
  apiKey: string;
  subject: string | undefined;
  fetch: FetchFunction;
  retry: RetryOptions;
  /** Budget of one attempt, response body included. */
  timeoutMs: number;
  sleep: SleepFunction;
  random: () => number;
  /** Starts a CLIENT span per request and sends its trace context; none when absent. */
  tracer?: TracerLike | undefined;
}

/** One request to the gateway. */
export interface HttpRequest {
  /** The contract's route; the request's method is its method. */
  route: Pick<RouteDefinition, 'method' | 'path'>;
  /** Path and query, made with `routeUrl` from the route, e.g. `/v1/exports?format=anthropic`. */
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Whether repeating the request is safe (GET, or POST with an Idempotency-Key). */
  safeToRetry: boolean;
  signal?: AbortSignal | undefined;
  /** `null` turns the per-attempt timeout off (event streams, which last as long as the call). */
  timeoutMs?: number | null;
}

/** Reads a successful response inside the attempt, so a body cut off midway is retried like any network error. */
export type ResponseReader<TResult> = (response: Response, signal: AbortSignal) => Promise<TResult>;

const DETAIL_MAX = 500;

/**
 * The members of an error body that is JSON but not a problem document (a proxy's error, or a
 * newer gateway's problem with a code this SDK's contract does not list): each one that reads as
 * a problem document has it is kept.
 */
function readableMembers(body: unknown, text: string): ProblemFields {
  if (!isRecord(body)) return { detail: text.slice(0, DETAIL_MAX) };
  const stringMember = (key: string): string | undefined => {
    const value = body[key];
    return typeof value === 'string' ? value : undefined;
  };
  const type = stringMember('type');
  const title = stringMember('title');
  const detail = stringMember('detail') ?? text.slice(0, DETAIL_MAX);
  const code = stringMember('code');
  const errors = Array.isArray(body['errors'])
    ? body['errors'].flatMap((issue: unknown): ProblemIssue[] => {
        const parsed = ProblemIssueSchema.safeParse(issue);
        return parsed.success ? [parsed.data] : [];
      })
    : [];
  return {
    ...(type === undefined ? {} : { type }),
    ...(title === undefined ? {} : { title }),
    detail,
    ...(code === undefined ? {} : { problemCode: code }),
    ...(errors.length === 0 ? {} : { errors }),
  };
}

/** What an error answer says: its problem document (RFC 9457) parsed with the contract's `ProblemSchema`. */
function problemFieldsOf(text: string, contentType: string): ProblemFields {
  if (text === '') return {};
  // application/problem+json is the gateway's; any other JSON error body is read as far as it goes.
  if (!/json/i.test(contentType)) return { detail: text.slice(0, DETAIL_MAX) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { detail: text.slice(0, DETAIL_MAX) };
  }
  const parsed = ProblemSchema.safeParse(body);
  if (!parsed.success) return readableMembers(body, text);
  const problem = parsed.data;
  return {
    type: problem.type,
    title: problem.title,
    detail: problem.detail,
    problemCode: problem.code,
    errors: problem.errors,
    problem,
  };
}

async function toApiError(response: Response, now: number): Promise<ToolgateApiError> {
  const text = await response.text().catch(() => '');
  const fields = problemFieldsOf(text, response.headers.get('content-type') ?? '');
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now);
  return new ToolgateApiError(response.status, {
    ...fields,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    retryable: RETRYABLE_STATUSES.has(response.status),
  });
}

function methodOf(request: HttpRequest): string {
  return request.route.method.toUpperCase();
}

/** The gateway's HTTP client: auth headers, per-attempt timeouts, typed errors and retries of safe requests only. */
export class HttpTransport {
  constructor(private readonly options: HttpTransportOptions) {}

  /** Sends `request`, retrying it while that is safe, and reads the response with `read`. */
  async send<TResult>(request: HttpRequest, read: ResponseReader<TResult>): Promise<TResult> {
    const { retry } = this.options;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(request, read);
      } catch (error) {
        const delay = this.retryDelay({ error, attempt, request });
        if (delay === undefined) throw error;
        if (attempt >= retry.maxAttempts) throw error;
        await this.options.sleep(delay, request.signal);
      }
    }
  }

  /** The delay before the next attempt, or undefined when the failure must not be retried. */
  private retryDelay(input: {
    error: unknown;
    attempt: number;
    request: HttpRequest;
  }): number | undefined {
    const { error, attempt, request } = input;
    // Only a request that is safe to repeat is retried: a second POST without a key may run a tool twice.
    if (!request.safeToRetry || !ToolgateSdkError.isInstance(error) || !error.retryable)
      return undefined;
    const backoff = backoffDelay(attempt, this.options);
    if (error instanceof ToolgateApiError && error.retryAfterMs !== undefined) {
      if (error.retryAfterMs > this.options.retry.maxRetryAfterMs) return undefined;
      return Math.max(error.retryAfterMs, 0);
    }
    return backoff;
  }

  private async attempt<TResult>(
    request: HttpRequest,
    read: ResponseReader<TResult>,
  ): Promise<TResult> {
    const controller = new AbortController();
    const timeoutMs = request.timeoutMs === undefined ? this.options.timeoutMs : request.timeoutMs;
    let timedOut = false;
    const timer =
      timeoutMs === null
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) onCallerAbort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}${request.path}`;
    const span =
      this.options.tracer === undefined
        ? undefined
        : startRequestSpan(this.options.tracer, {
            method: methodOf(request),
            route: request.route.path,
            url,
          });
    try {
      const response = await this.options.fetch(url, {
        method: methodOf(request),
        headers: {
          ...this.headers(request),
          ...(span === undefined ? {} : traceHeadersOfSpan(span)),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: controller.signal,
      });
      span?.setAttribute('http.response.status_code', response.status);
      if (response.status >= 400) {
        if (span !== undefined)
          markClientSpanFailed(span, String(response.status), `HTTP ${response.status}`);
        throw await toApiError(response, Date.now());
      }
      return await read(response, controller.signal);
    } catch (error) {
      if (span !== undefined && !(error instanceof ToolgateApiError)) {
        markClientSpanFailed(
          span,
          ToolgateSdkError.isInstance(error) ? error.code : 'network',
          error instanceof Error ? error.message : String(error),
        );
      }
      if (ToolgateSdkError.isInstance(error)) throw error;
      if (timedOut && timeoutMs !== null) {
        throw new ToolgateTimeoutError(
          `${methodOf(request)} ${request.path} got no answer within ${timeoutMs} ms`,
          {
            timeoutMs,
            cause: error,
          },
        );
      }
      if (request.signal?.aborted) {
        throw new ToolgateSdkError('aborted', `${methodOf(request)} ${request.path} was aborted`, {
          cause: error,
        });
      }
      const failure = networkFailureOf(error);
      throw new ToolgateNetworkError(
        `${methodOf(request)} ${url} got no answer: ${failure.message}`,
        { cause: failure.cause, systemCode: failure.code },
      );
    } finally {
      span?.end();
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  private headers(request: HttpRequest): Record<string, string> {
    return {
      accept: 'application/json',
      authorization: `Bearer ${this.options.apiKey}`,
      ...(this.options.subject === undefined ? {} : { [SUBJECT_HEADER]: this.options.subject }),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    };
  }
}
