/**
 * Same-origin proxy of `/v1/*` to the registry API, so the session cookie belongs to the console's
 * origin and the browser never makes a cross-origin request. A route handler rather than a
 * `rewrites()` entry: rewrites are frozen into the build, while TOOLGATE_API_URL is read per
 * request, so one build serves any API address.
 */
import type { NextRequest } from 'next/server';
import { apiBaseUrl, apiUnreachable } from '../../lib/api-base-url';

export const dynamic = 'force-dynamic';

// Hop-by-hop headers (RFC 9110 section 7.6.1) and what fetch() recomputes are not forwarded.
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'accept-encoding',
]);
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'set-cookie',
]);

async function proxy(request: NextRequest): Promise<Response> {
  const target = `${apiBaseUrl()}${request.nextUrl.pathname}${request.nextUrl.search}`;
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (!DROPPED_REQUEST_HEADERS.has(name)) headers.set(name, value);
  });
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers,
      redirect: 'manual',
      cache: 'no-store',
      signal: request.signal,
      ...(hasBody ? { body: await request.arrayBuffer() } : {}),
    });
  } catch {
    return apiUnreachable();
  }
  const responseHeaders = new Headers();
  upstream.headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) responseHeaders.set(name, value);
  });
  for (const cookie of upstream.headers.getSetCookie())
    responseHeaders.append('set-cookie', cookie);
  if (responseHeaders.get('content-type')?.startsWith('text/event-stream')) {
    responseHeaders.set('cache-control', 'no-cache, no-transform');
    responseHeaders.set('x-accel-buffering', 'no');
  }
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: responseHeaders,
  });
}

export {
  proxy as GET,
  proxy as POST,
  proxy as PUT,
  proxy as PATCH,
  proxy as DELETE,
  proxy as HEAD,
};
