/** What a served version's lifecycle tells the caller. */
/** What the deprecation headers and notices say of a version (the catalog carries exactly this). */
export interface VersionDeprecation {
  toolId: string;
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
  successorVersion: string | null;
}

export interface VersionLifecycle extends VersionDeprecation {
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
export function deprecationHeaders(lifecycle: VersionDeprecation): Record<string, string> {
  if (lifecycle.deprecatedAt === null) return {};
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(lifecycle.deprecatedAt.getTime() / 1000)}`,
  };
  if (lifecycle.sunsetAt !== null) headers['sunset'] = lifecycle.sunsetAt.toUTCString();
  if (lifecycle.successorVersion !== null)
    headers['link'] = successorLink(lifecycle.toolId, lifecycle.successorVersion);
  return headers;
}

/**
 * A deprecated version's lifecycle as a response body or an MCP `_meta` entry carries it, beside
 * the headers: a response (or an MCP result) may answer for several versions, the headers name one.
 */
export interface DeprecationNotice {
  deprecated_at: string;
  sunset_at: string | null;
  /** The version to move to, when the deprecation names one. */
  successor: string | null;
}

/** Null for a version that is not deprecated. */
export function deprecationNotice(lifecycle: VersionDeprecation): DeprecationNotice | null {
  if (lifecycle.deprecatedAt === null) return null;
  return {
    deprecated_at: lifecycle.deprecatedAt.toISOString(),
    sunset_at: lifecycle.sunsetAt?.toISOString() ?? null,
    successor: lifecycle.successorVersion,
  };
}

/**
 * The headers of a response served by several versions: `Deprecation` and `Sunset` of the most
 * urgent deprecated one (the earliest sunset, then the earliest deprecation), as one header can
 * name one date, and a `successor-version` link for each deprecated tool that names a successor.
 */
export function combinedDeprecationHeaders(
  lifecycles: readonly VersionDeprecation[],
): Record<string, string> {
  const deprecated = lifecycles.filter((lifecycle) => lifecycle.deprecatedAt !== null);
  const earliest = [...deprecated].sort(
    (left, right) =>
      (left.sunsetAt?.getTime() ?? Infinity) - (right.sunsetAt?.getTime() ?? Infinity) ||
      (left.deprecatedAt?.getTime() ?? 0) - (right.deprecatedAt?.getTime() ?? 0),
  )[0];
  if (earliest === undefined) return {};
  const headers = deprecationHeaders(earliest);
  const links = new Set(
    deprecated.flatMap((lifecycle) =>
      lifecycle.successorVersion === null
        ? []
        : [successorLink(lifecycle.toolId, lifecycle.successorVersion)],
    ),
  );
  if (links.size > 0) headers['link'] = [...links].join(', ');
  return headers;
}
