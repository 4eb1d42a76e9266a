/** Where the registry API listens, read per request so one build serves any address. */
export function apiBaseUrl(): string {
  return (process.env['TOOLGATE_API_URL'] ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');
}
