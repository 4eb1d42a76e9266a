import {
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateSdkError,
  ToolgateTimeoutError,
} from '../errors/toolgate-sdk-error';
import { ProblemDocumentSchema, SUBJECT_HEADER, type ProblemDocument } from './gateway-contract';
import {
  RETRYABLE_STATUSES,
  backoffDelay,
  parseRetryAfter,
  type RetryOptions,
} from './retry-policy';

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
}

/** One request to the gateway. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/exports?format=anthropic`. */
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

function problemFromBody(text: string, contentType: string): ProblemDocument | undefined {
  // application/problem+json per RFC 9457; a plain JSON error body is read the same way.
  if (!/json/i.test(contentType)) return undefined;
  try {
    const problem = ProblemDocumentSchema.safeParse(JSON.parse(text));
    return problem.success ? problem.data : undefined;
  } catch {
    return undefined;
  }
}

async function toApiError(response: Response, now: number): Promise<ToolgateApiError> {
  const text = await response.text().catch(() => '');
  const problem = problemFromBody(text, response.headers.get('content-type') ?? '');
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now);
  return new ToolgateApiError(response.status, {
    ...(problem?.type === undefined ? {} : { type: problem.type }),
    ...(problem?.title === undefined ? {} : { title: problem.title }),
    ...(problem?.detail !== undefined
      ? { detail: problem.detail }
      : problem === undefined && text !== ''
        ? { detail: text.slice(0, 500) }
        : {}),
    ...(problem?.code === undefined ? {} : { problemCode: problem.code }),
    ...(problem?.errors === undefined ? {} : { errors: problem.errors }),
    ...(problem === undefined ? {} : { problem }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    retryable: RETRYABLE_STATUSES.has(response.status),
  });
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
    try {
      const response = await this.options.fetch(url, {
        method: request.method,
        headers: this.headers(request),
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: controller.signal,
      });
      if (response.status >= 400) throw await toApiError(response, Date.now());
      return await read(response, controller.signal);
    } catch (error) {
      if (ToolgateSdkError.isInstance(error)) throw error;
      if (timedOut && timeoutMs !== null) {
        throw new ToolgateTimeoutError(
          `${request.method} ${request.path} got no answer within ${timeoutMs} ms`,
          {
            timeoutMs,
            cause: error,
          },
        );
      }
      if (request.signal?.aborted) {
        throw new ToolgateSdkError('aborted', `${request.method} ${request.path} was aborted`, {
          cause: error,
        });
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new ToolgateNetworkError(`${request.method} ${request.path} failed: ${message}`, {
        cause: error,
      });
    } finally {
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
