import { describe, expect, it } from 'vitest';
import type { VersionBucketCounts } from './canary-guard.repository';
import { releaseHistoryOf } from './release-history';

const STARTS = [0, 1].map((index) => new Date(Date.UTC(2026, 11, 6, index)));

function counts(version: string, served: number, start = STARTS[0]!): VersionBucketCounts {
  return {
    version,
    start: start.getTime(),
    served,
    calls: served,
    succeeded: served,
    validationFailures: 0,
    p95LatencyMs: 100,
  };
}

describe('release history', () => {
  it('puts stable and canary first, even without calls, then other versions busiest first', () => {
    const versions = releaseHistoryOf(
      [counts('0.8.0', 1), counts('0.9.0', 3), counts('1.0.0', 6)],
      STARTS,
      { stableVersion: '1.0.0', canaryVersion: '1.1.0' },
    );
    expect(versions.map((entry) => [entry.version, entry.role, entry.served])).toEqual([
      ['1.0.0', 'stable', 6],
      ['1.1.0', 'canary', 0],
      ['0.9.0', 'other', 3],
      ['0.8.0', 'other', 1],
    ]);
    // Shares are of every call of the tool in the bucket; an empty bucket has none.
    expect(versions[0]?.buckets.map((bucket) => bucket.share)).toEqual([0.6, null]);
    expect(versions[1]?.buckets[0]).toMatchObject({ served: 0, share: 0, success_rate: null });
  });
});
