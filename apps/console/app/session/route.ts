/**
 * `GET /session`: the current console session or `{session: null}`, always 200 for a signed-out
 * visitor. Asking GET /v1/console/session from the browser would answer 401 on every fresh visit,
 * which browsers log as a console error; here the question is asked server-side.
 */
import type { NextRequest } from 'next/server';
import { apiBaseUrl, apiUnreachable } from '../lib/api-base-url';

export const dynamic = 'force-dynamic';

export async function GET(request: NextRequest): Promise<Response> {
  const cookie = request.headers.get('cookie');
  if (cookie === null) return Response.json({ session: null });
  let upstream: Response;
  try {
    upstream = await fetch(`${apiBaseUrl()}/v1/console/session`, {
      headers: { cookie, accept: 'application/json' },
      cache: 'no-store',
    });
  } catch {
    return apiUnreachable();
  }
  if (upstream.status === 401) return Response.json({ session: null });
  const body: unknown = await upstream.json().catch(() => null);
  if (!upstream.ok) {
    return Response.json(body, {
      status: upstream.status,
      headers: { 'content-type': 'application/problem+json' },
    });
  }
  return Response.json({ session: body }, { headers: { 'cache-control': 'no-store' } });
}
