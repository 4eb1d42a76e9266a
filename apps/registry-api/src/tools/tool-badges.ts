import type { ToolBadges } from '@toolgate/contract';
import { compareVersions } from '@toolgate/toolir';

/** What the badges of a tool are read from: its published versions, as the repository selects them. */
export interface BadgeVersionRow {
  toolId: string;
  version: string;
  destructive: boolean;
  sourceKind: string | null;
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
}

/**
 * A tool's badges from its published versions: destructive and imported describe the version
 * callers get (stable, else the newest published), deprecations list every deprecated one.
 */
export function toolBadgesOf(
  stableVersion: string | null | undefined,
  versions: readonly BadgeVersionRow[],
): ToolBadges {
  const newestFirst = [...versions].sort((left, right) =>
    compareVersions(right.version, left.version),
  );
  const served = newestFirst.find((row) => row.version === stableVersion) ?? newestFirst[0] ?? null;
  const kind = served?.sourceKind;
  return {
    destructive: served?.destructive ?? false,
    imported_from: kind === 'openapi' || kind === 'mcp' ? kind : null,
    deprecated: newestFirst
      .filter((row) => row.deprecatedAt !== null)
      .map((row) => ({ version: row.version, sunset_at: row.sunsetAt?.toISOString() ?? null })),
  };
}
