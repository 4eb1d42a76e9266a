import type { Problem } from '@toolgate/contract';

/** Where the registry API listens, read per request so one build serves any address. */
export function apiBaseUrl(): string {
  return (process.env['TOOLGATE_API_URL'] ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
}

/** A problem the console's server routes answer themselves, shaped as the API's are. */
export function problemResponse(problem: Problem): Response {
  return Response.json(problem, {
    status: problem.status,
    headers: { 'content-type': 'application/problem+json' },
  });
}

/** The 502 problem document the console's server routes answer when the registry API is down. */
export function apiUnreachable(): Response {
  return problemResponse({
    type: 'about:blank',
    title: 'Registry API unreachable',
    status: 502,
    detail: `The console could not reach the registry API at ${apiBaseUrl()}. Start it (npm start) or set TOOLGATE_API_URL.`,
    code: 'unavailable',
    errors: [],
  });
}
