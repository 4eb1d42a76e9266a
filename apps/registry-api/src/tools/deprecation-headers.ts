/** What a served version's lifecycle tells the caller. */
export interface VersionLifecycle {
  toolId: string;
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
  successorVersion: string | null;
  brownouts: ReadonlyArray<{ start: string; end: string }>;
}

export function successorLink(toolId: string, successor: string): string {
  return `</v1/tools/${toolId}/versions/${encodeURIComponent(successor)}>; rel="successor-version"`;
}

/** True once the sunset passed, or during a scheduled brownout window. */
export function isUnavailable(lifecycle: VersionLifecycle, now: Date): boolean {
  if (lifecycle.sunsetAt !== null && lifecycle.sunsetAt.getTime() <= now.getTime()) return true;
  return lifecycle.brownouts.some(
    (window) => Date.parse(window.start) <= now.getTime() && now.getTime() < Date.parse(window.end),
  );
}

/**
 * Response headers for a deprecated version: `Deprecation: @<unix seconds>` (RFC 9745),
 * `Sunset: <HTTP-date>` (RFC 8594) and a `successor-version` link (RFC 5829).
 */
export function deprecationHeaders(lifecycle: VersionLifecycle): Record<string, string> {
  if (lifecycle.deprecatedAt === null) return {};
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(lifecycle.deprecatedAt.getTime() / 1000)}`,
  };
  if (lifecycle.sunsetAt !== null) headers['sunset'] = lifecycle.sunsetAt.toUTCString();
  if (lifecycle.successorVersion !== null)
    headers['link'] = successorLink(lifecycle.toolId, lifecycle.successorVersion);
  return headers;
}
