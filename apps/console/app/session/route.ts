/**
 * `GET /session`: the current console session or `{session: null}`, always 200 for a signed-out
 * visitor. Asking GET /v1/console/session from the browser would answer 401 on every fresh visit,
 * which browsers log as a console error; here the question is asked server-side.
 */
import { readRouteAnswer, routes, type RouteResult } from '@toolgate/contract';
import type { NextRequest } from 'next/server';
import { apiBaseUrl, apiUnreachable, problemResponse } from '../lib/api-base-url';
import type { currentSessionRoute } from '../lib/console-routes';

export const dynamic = 'force-dynamic';

type Answer = RouteResult<typeof currentSessionRoute>;

export async function GET(request: NextRequest): Promise<Response> {
  const cookie = request.headers.get('cookie');
  if (cookie === null) return Response.json({ session: null } satisfies Answer);
  let upstream: Response;
  try {
    upstream = await fetch(`${apiBaseUrl()}/v1/console/session`, {
      headers: { cookie, accept: 'application/json' },
      cache: 'no-store',
    });
  } catch {
    return apiUnreachable();
  }
  if (upstream.status === 401) return Response.json({ session: null } satisfies Answer);
  const body: unknown = await upstream.json().catch(() => null);
  // Checked here in every build, once per page load: the role decides what the pages offer and
  // the CSRF token guards every change.
  const answer = readRouteAnswer(routes.getConsoleSession, upstream.status, body);
  switch (answer.kind) {
    case 'success':
      return Response.json({ session: answer.body } satisfies Answer, {
        headers: { 'cache-control': 'no-store' },
      });
    case 'problem':
      return problemResponse(answer.problem);
    case 'unexpected':
      return problemResponse({
        type: 'about:blank',
        title: 'Unexpected session',
        status: 502,
        detail: 'The API answered with a session this console does not understand.',
        code: 'unavailable',
        errors: answer.issues.map((issue) => ({ path: '/session', message: issue })),
      });
  }
}
