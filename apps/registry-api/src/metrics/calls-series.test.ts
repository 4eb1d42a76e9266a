import { describe, expect, it } from 'vitest';
import { callsBucketOf, callsToolSeriesOf } from './calls-series';

const STARTS = [0, 1, 2].map((index) => new Date(Date.UTC(2026, 11, 6, index)));

describe('calls series', () => {
  it('counts every status, and leaves cancelled calls out of the error rate', () => {
    const bucket = callsBucketOf(STARTS[0]!, {
      start: STARTS[0]!.getTime(),
      byStatus: { succeeded: 6, failed: 1, outcome_unknown: 1, cancelled: 2, queued: 1 },
      p50Ms: 10,
      p95Ms: 90,
    });
    expect(bucket).toMatchObject({ calls: 11, error_rate: 1 / 8, p50_ms: 10, p95_ms: 90 });
    expect(Object.keys(bucket.by_status)).toHaveLength(7);
    expect(bucket.by_status.running).toBe(0);
  });

  it('gives an empty bucket zeros and nulls', () => {
    expect(callsBucketOf(STARTS[1]!, undefined)).toMatchObject({
      calls: 0,
      error_rate: null,
      p50_ms: null,
    });
  });

  it("aligns each tool's counts with the buckets, by tool name", () => {
    const series = callsToolSeriesOf(
      [
        { start: STARTS[2]!.getTime(), toolId: 's', tool: 'search', calls: 4, failed: 1 },
        { start: STARTS[0]!.getTime(), toolId: 's', tool: 'search', calls: 2, failed: 0 },
        { start: STARTS[1]!.getTime(), toolId: 'r', tool: 'refund', calls: 1, failed: 1 },
      ],
      STARTS,
    );
    expect(series).toEqual([
      {
        tool: 'refund',
        tool_id: 'r',
        calls: 1,
        failed: 1,
        calls_per_bucket: [0, 1, 0],
        failed_per_bucket: [0, 1, 0],
      },
      {
        tool: 'search',
        tool_id: 's',
        calls: 6,
        failed: 1,
        calls_per_bucket: [2, 0, 4],
        failed_per_bucket: [0, 0, 1],
      },
    ]);
  });
});
