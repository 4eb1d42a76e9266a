import type { CostAmounts, CostSeries } from '@toolgate/contract';
import type { CostFigures } from './metrics.repository';

/** Most series a report carries: the groups that spent most. */
export const MAX_COST_SERIES = 50;

function zero(): CostAmounts {
  return { tool_usd: 0, tokens_usd: 0, total_usd: 0, calls: 0, cached_calls: 0 };
}

function add(amounts: CostAmounts, figures: CostFigures): void {
  amounts.tool_usd += figures.toolUsd;
  amounts.tokens_usd += figures.tokensUsd;
  amounts.total_usd += figures.toolUsd + figures.tokensUsd;
  amounts.calls += figures.calls;
  amounts.cached_calls += figures.cachedCalls;
}

/**
 * The report's series from per-group, per-bucket figures: every bucket of the window in each
 * series (zeros where a group spent nothing), groups by total spend (then calls, then key), at
 * most MAX_COST_SERIES; the totals count every group.
 */
export function costSeriesOf(
  figures: readonly CostFigures[],
  starts: readonly Date[],
): { totals: CostAmounts; series: CostSeries[] } {
  const totals = zero();
  const groups = new Map<
    string,
    { label: string; totals: CostAmounts; byStart: Map<number, CostAmounts> }
  >();
  for (const row of figures) {
    add(totals, row);
    let group = groups.get(row.key);
    if (group === undefined) {
      group = { label: row.label, totals: zero(), byStart: new Map() };
      groups.set(row.key, group);
    }
    add(group.totals, row);
    const bucket = group.byStart.get(row.start) ?? zero();
    add(bucket, row);
    group.byStart.set(row.start, bucket);
  }
  const series = [...groups.entries()]
    .sort(
      ([keyA, a], [keyB, b]) =>
        b.totals.total_usd - a.totals.total_usd ||
        b.totals.calls - a.totals.calls ||
        keyA.localeCompare(keyB),
    )
    .slice(0, MAX_COST_SERIES)
    .map(([key, group]) => ({
      key,
      label: group.label,
      totals: group.totals,
      points: starts.map((start) => ({
        start: start.toISOString(),
        ...(group.byStart.get(start.getTime()) ?? zero()),
      })),
    }));
  return { totals, series };
}
