import type { Problem, ProblemIssue } from '@toolgate/contract';
import type { ProblemCode } from '@toolgate/toolir';
import { vi } from 'vitest';
import { problemCodeFor } from '../api';

/** One request the component sent, as it left for the network. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Responder = (request: SentRequest) => { status: number; body?: unknown } | undefined;

/**
 * Replaces fetch at the network boundary: each request is recorded and answered by the first
 * responder that returns something; an unanswered request fails the test loudly.
 */
export function stubFetch(...responders: Responder[]): {
  sent: SentRequest[];
  restore: () => void;
} {
  const sent: SentRequest[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const request: SentRequest = {
      url: typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url,
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(headers.entries()),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    sent.push(request);
    for (const responder of responders) {
      const answer = responder(request);
      if (answer === undefined) continue;
      const problem = answer.status >= 400;
      return Promise.resolve(
        new Response(answer.status === 204 ? null : JSON.stringify(answer.body ?? {}), {
          status: answer.status,
          headers: { 'content-type': problem ? 'application/problem+json' : 'application/json' },
        }),
      );
    }
    return Promise.reject(new Error(`unexpected request ${request.method} ${request.url}`));
  });
  return { sent, restore: () => (globalThis.fetch = original) };
}

/** Answers `[method, url]` (url may be a prefix ending in `*`). */
export function respond(
  [method, url]: [string, string],
  status: number,
  body?: unknown,
): Responder {
  return (request) => {
    const matches = url.endsWith('*')
      ? request.url.startsWith(url.slice(0, -1))
      : request.url === url;
    return request.method === method && matches ? { status, body } : undefined;
  };
}

/** A problem document as the API writes it (the client checks answers against the contract). */
export function problem(
  status: number,
  detail: string,
  {
    errors = [],
    code = problemCodeFor(status),
  }: { errors?: ProblemIssue[]; code?: ProblemCode } = {},
): Problem {
  return { type: 'about:blank', title: 'Problem', status, detail, code, errors };
}
