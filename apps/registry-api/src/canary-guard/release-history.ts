import type { ReleaseHistoryBucket, ReleaseHistoryVersion } from '@toolgate/contract';
import type { VersionBucketCounts } from './canary-guard.repository';
import { statsOf } from './canary-guard.rules';

const NO_CALLS = { calls: 0, succeeded: 0, validationFailures: 0, p95LatencyMs: null, served: 0 };

/**
 * Per-version series over the window's buckets: the guard's figures per bucket and each
 * version's share of the tool's calls. Stable first, then the canary (both even without calls),
 * then every other version called, busiest first.
 */
export function releaseHistoryOf(
  counts: readonly VersionBucketCounts[],
  starts: readonly Date[],
  release: { stableVersion: string | null; canaryVersion: string | null },
): ReleaseHistoryVersion[] {
  const servedAt = new Map<number, number>();
  const byVersion = new Map<string, Map<number, VersionBucketCounts>>();
  for (const row of counts) {
    servedAt.set(row.start, (servedAt.get(row.start) ?? 0) + row.served);
    const buckets = byVersion.get(row.version) ?? new Map<number, VersionBucketCounts>();
    buckets.set(row.start, row);
    byVersion.set(row.version, buckets);
  }
  const roleOf = (version: string): ReleaseHistoryVersion['role'] =>
    version === release.stableVersion
      ? 'stable'
      : version === release.canaryVersion
        ? 'canary'
        : 'other';
  const versions = new Set<string>(
    [release.stableVersion, release.canaryVersion].filter(
      (version): version is string => version !== null,
    ),
  );
  for (const version of byVersion.keys()) versions.add(version);

  const series = [...versions].map((version): ReleaseHistoryVersion => {
    const rows = byVersion.get(version);
    const buckets = starts.map((start): ReleaseHistoryBucket => {
      const row = rows?.get(start.getTime()) ?? NO_CALLS;
      const stats = statsOf(version, row);
      const all = servedAt.get(start.getTime()) ?? 0;
      return {
        start: start.toISOString(),
        served: row.served,
        share: all === 0 ? null : row.served / all,
        calls: row.calls,
        succeeded: row.succeeded,
        validation_failures: row.validationFailures,
        success_rate: stats.successRate,
        validation_failure_rate: stats.validationFailureRate,
        p95_latency_ms: row.p95LatencyMs,
      };
    });
    return {
      version,
      role: roleOf(version),
      served: buckets.reduce((sum, bucket) => sum + bucket.served, 0),
      buckets,
    };
  });
  const rank = { stable: 0, canary: 1, other: 2 } as const;
  return series.sort(
    (left, right) =>
      rank[left.role] - rank[right.role] ||
      right.served - left.served ||
      left.version.localeCompare(right.version),
  );
}
