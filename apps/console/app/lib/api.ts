/**
 * The console's one way to talk to the registry API: same-origin `/v1/*` (proxied by
 * app/v1/[...path]/route.ts), the session cookie rides along, and every mutating request carries
 * the CSRF token the session handed out.
 */
import { isRecord } from '@toolgate/toolir';

/** An RFC 9457 problem document as the registry API writes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}

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
    return (this.problem.errors ?? [])
      .filter((issue) => issue.path === field || issue.path.endsWith(`/${field}`))
      .map((issue) => issue.message);
  }
}

let csrfToken: string | null = null;

/** Remembers the CSRF token of the current session (null after sign-out). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

function toProblem(status: number, body: unknown, fallback: string): Problem {
  if (isRecord(body) && typeof body['title'] === 'string') {
    const errors = Array.isArray(body['errors'])
      ? body['errors'].flatMap((issue) =>
          isRecord(issue) && typeof issue['message'] === 'string'
            ? [
                {
                  path: typeof issue['path'] === 'string' ? issue['path'] : '',
                  message: issue['message'],
                },
              ]
            : [],
        )
      : [];
    return {
      type: typeof body['type'] === 'string' ? body['type'] : 'about:blank',
      title: body['title'],
      status,
      detail: typeof body['detail'] === 'string' ? body['detail'] : '',
      errors,
    };
  }
  return { type: 'about:blank', title: fallback, status, detail: '' };
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Calls the API and returns its JSON body (undefined for 204); throws ApiError otherwise. */
export async function apiFetch<TResult>(
  path: string,
  options: ApiRequestOptions = {},
): Promise<TResult> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (!SAFE_METHODS.has(method) && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, {
      type: 'about:blank',
      title: 'The console cannot reach the registry API',
      status: 0,
      detail: 'Check that the API is running and TOOLGATE_API_URL points at it, then retry.',
    });
  }
  if (response.status === 204) return undefined as TResult;
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
  }
  if (!response.ok)
    throw new ApiError(
      response.status,
      toProblem(response.status, body, response.statusText || 'Request failed'),
    );
  return body as TResult;
}

/** Builds a query string from the defined, non-empty values. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** A human sentence for any error a page may catch. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const issues = (error.problem.errors ?? []).map(
      (issue) => `${issue.path ? `${issue.path}: ` : ''}${issue.message}`,
    );
    return [error.problem.detail || error.problem.title, ...issues].join(' — ');
  }
  return error instanceof Error ? error.message : String(error);
}
