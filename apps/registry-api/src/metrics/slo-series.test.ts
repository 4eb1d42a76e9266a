import { describe, expect, it } from 'vitest';
import type { BucketFigures } from './metrics.repository';
import { MAX_SLO_SERIES, sloBucketOf, sloSeriesOf } from './slo-series';

const HOUR = 3_600_000;
const STARTS = [0, 1, 2].map((index) => new Date(Date.UTC(2026, 11, 6, index)));

function figures(overrides: Partial<BucketFigures>): BucketFigures {
  return {
    start: STARTS[0]!.getTime(),
    toolId: '6f1c1e2a-7d1e-4a55-9d8c-000000000001',
    tool: 'search',
    version: '1.0.0',
    calls: 4,
    succeeded: 3,
    cached: 0,
    p50Ms: 100,
    p95Ms: 300,
    destructiveRuns: 0,
    destructiveApproved: 0,
    approvalWaitP50Ms: null,
    approvalWaitP95Ms: null,
    ...overrides,
  };
}

describe('SLO series', () => {
  it('fills every bucket of the window, empty ones with zeros and nulls', () => {
    const [series] = sloSeriesOf([figures({ start: STARTS[1]!.getTime() })], STARTS);
    expect(series).toMatchObject({
      key: 'search@1.0.0',
      tool: 'search',
      version: '1.0.0',
      calls: 4,
    });
    expect(series?.buckets.map((bucket) => bucket.calls)).toEqual([0, 4, 0]);
    expect(series?.buckets[1]).toMatchObject({ succeeded: 3, failed: 1, p95_ms: 300 });
    expect(series?.buckets[0]).toEqual(sloBucketOf(STARTS[0]!, undefined));
    expect(series?.buckets[0]).toMatchObject({ p50_ms: null, approval_wait_p95_ms: null });
  });

  it('keys per-tool series by name, and orders the busiest first', () => {
    const series = sloSeriesOf(
      [
        figures({ tool: 'alpha', version: null, calls: 1, toolId: 'a' }),
        figures({ tool: 'beta', version: null, calls: 2, toolId: 'b' }),
        figures({
          tool: 'beta',
          version: null,
          calls: 5,
          toolId: 'b',
          start: STARTS[2]!.getTime(),
        }),
      ],
      STARTS,
    );
    expect(series.map((entry) => [entry.key, entry.calls])).toEqual([
      ['beta', 7],
      ['alpha', 1],
    ]);
  });

  it(`keeps at most ${MAX_SLO_SERIES} series`, () => {
    const many = Array.from({ length: MAX_SLO_SERIES + 5 }, (_, index) =>
      figures({ tool: `tool-${index}`, calls: index + 1, start: STARTS[0]!.getTime() + 0 * HOUR }),
    );
    const series = sloSeriesOf(many, STARTS);
    expect(series).toHaveLength(MAX_SLO_SERIES);
    expect(series[0]?.key).toBe(`tool-${MAX_SLO_SERIES + 4}@1.0.0`);
  });
});
