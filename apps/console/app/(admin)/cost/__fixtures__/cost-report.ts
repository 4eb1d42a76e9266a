import type { CostAmounts, CostGroupBy, CostReport, CostSeries } from '@toolgate/contract';

const HOUR = 3_600_000;
export const COST_FROM = Date.UTC(2026, 11, 6, 0, 0, 0);

function amounts(toolUsd: number, tokensUsd: number, calls: number): CostAmounts {
  return {
    tool_usd: toolUsd,
    tokens_usd: tokensUsd,
    total_usd: toolUsd + tokensUsd,
    calls,
    cached_calls: 0,
  };
}

function withCached(base: CostAmounts, cachedCalls: number): CostAmounts {
  return { ...base, cached_calls: cachedCalls };
}

function sum(left: CostAmounts, right: CostAmounts): CostAmounts {
  return withCached(
    amounts(
      left.tool_usd + right.tool_usd,
      left.tokens_usd + right.tokens_usd,
      left.calls + right.calls,
    ),
    left.cached_calls + right.cached_calls,
  );
}

/** A series over three hourly buckets, its totals summed from the points. */
function series(key: string, label: string, points: readonly CostAmounts[]): CostSeries {
  const total = points.reduce(sum, amounts(0, 0, 0));
  return {
    key,
    label,
    totals: total,
    points: points.map((point, index) => ({
      ...point,
      start: new Date(COST_FROM + index * HOUR).toISOString(),
    })),
  };
}

function report(groupBy: CostGroupBy, all: CostSeries[]): CostReport {
  const totals = all.map((entry) => entry.totals).reduce(sum, amounts(0, 0, 0));
  return {
    group_by: groupBy,
    window: '24h',
    from: new Date(COST_FROM).toISOString(),
    to: new Date(COST_FROM + 3 * HOUR).toISOString(),
    bucket_ms: HOUR,
    currency: 'USD',
    totals,
    series: all,
  };
}

/** search's stable 1.0.0 costs $0.01 a call; its 10% canary 1.1.0 costs twice as much. */
export const COST_BY_VERSION = report('version', [
  series('search@1.0.0', 'search@1.0.0', [
    withCached(amounts(0.6, 0.3, 90), 10),
    amounts(0.6, 0.3, 90),
    amounts(0.6, 0.3, 90),
  ]),
  series('search@1.1.0', 'search@1.1.0', [
    amounts(0.12, 0.08, 10),
    amounts(0.12, 0.08, 10),
    amounts(0.12, 0.08, 10),
  ]),
]);

export const COST_BY_TOOL = report('tool', [
  series('search', 'search', [
    withCached(amounts(0.72, 0.38, 100), 10),
    amounts(0.72, 0.38, 100),
    amounts(0.72, 0.38, 100),
  ]),
]);

export const COST_NONE = report('tool', []);
