'use client';

import type { ToolListItem } from '@toolgate/contract';
import { formatRelative, formatTime } from '../lib/format';

const SOURCE_LABELS = { openapi: 'OpenAPI', mcp: 'MCP' } as const;

/**
 * The markers that change how people treat a tool, beside its name in every table: destructive,
 * imported (OpenAPI / MCP), a running canary's share, and each deprecated version's sunset.
 */
export function ToolBadges({ tool }: { tool: ToolListItem }) {
  const { badges, release } = tool;
  const canary = release?.canary_version && release.canary_percent > 0 ? release : null;
  return (
    <span className="tool-badges">
      {badges.destructive ? (
        <span className="badge flag-on flag-destructive" title="Calls wait for a person's approval">
          destructive
        </span>
      ) : null}
      {badges.imported_from ? (
        <span className="badge badge-imported">
          imported · {SOURCE_LABELS[badges.imported_from]}
        </span>
      ) : null}
      {canary ? (
        <span className="badge status-running">
          canary {canary.canary_version} · {canary.canary_percent}%
        </span>
      ) : null}
      {badges.deprecated.map((entry) => (
        <span
          key={entry.version}
          className="badge status-expired"
          title={entry.sunset_at ? `Sunset ${formatTime(entry.sunset_at)}` : 'No sunset set'}
        >
          {entry.version} deprecated
          {entry.sunset_at ? ` · sunset ${formatRelative(entry.sunset_at, Date.now())}` : ''}
        </span>
      ))}
    </span>
  );
}
