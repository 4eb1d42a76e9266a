/** Where the registry API listens, read per request so one build serves any address. */
export function apiBaseUrl(): string {
  return (process.env['TOOLGATE_API_URL'] ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
}

/** The 502 problem document the console's server routes answer when the registry API is down. */
export function apiUnreachable(): Response {
  return Response.json(
    {
      type: 'about:blank',
      title: 'Registry API unreachable',
      status: 502,
      detail: `The console could not reach the registry API at ${apiBaseUrl()}. Start it (npm start) or set TOOLGATE_API_URL.`,
    },
    { status: 502, headers: { 'content-type': 'application/problem+json' } },
  );
}
