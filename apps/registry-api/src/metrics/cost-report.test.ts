import { describe, expect, it } from 'vitest';
import { costSeriesOf, MAX_COST_SERIES } from './cost-report';

const HOUR = 3_600_000;
const starts = [0, 1, 2].map((hour) => new Date(hour * HOUR));

function figures(key: string, hour: number, toolUsd: number, tokensUsd = 0) {
  return {
    key,
    label: `${key}-name`,
    start: hour * HOUR,
    toolUsd,
    tokensUsd,
    calls: 1,
    cachedCalls: 0,
  };
}

describe('costSeriesOf', () => {
  it('fills every bucket, orders groups by spend, and totals every group', () => {
    const { totals, series } = costSeriesOf(
      [figures('cheap', 0, 0.1), figures('dear', 2, 1, 0.5), figures('dear', 0, 1)],
      starts,
    );
    expect(series.map((entry) => entry.key)).toEqual(['dear', 'cheap']);
    expect(series[0]?.label).toBe('dear-name');
    expect(series[0]?.points.map((point) => point.total_usd)).toEqual([1, 0, 1.5]);
    expect(series[1]?.points.map((point) => point.calls)).toEqual([1, 0, 0]);
    expect(totals).toEqual({
      tool_usd: 2.1,
      tokens_usd: 0.5,
      total_usd: 2.6,
      calls: 3,
      cached_calls: 0,
    });
  });

  it(`keeps the ${MAX_COST_SERIES} groups that spent most, but totals them all`, () => {
    const many = Array.from({ length: MAX_COST_SERIES + 5 }, (_, index) =>
      figures(`g${index}`, 1, index),
    );
    const { totals, series } = costSeriesOf(many, starts);
    expect(series).toHaveLength(MAX_COST_SERIES);
    expect(series.at(-1)?.key).toBe('g5');
    expect(totals.calls).toBe(MAX_COST_SERIES + 5);
  });
});
