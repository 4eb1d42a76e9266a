import type { SloBucket, SloSeries } from '@toolgate/contract';
import type { BucketFigures } from './metrics.repository';

/** Per-series charts stay readable with this many lines; the busiest series are kept. */
export const MAX_SLO_SERIES = 20;

/** One chart bucket from its figures, or an empty bucket (zeros, nulls) when there were none. */
export function sloBucketOf(start: Date, figures: BucketFigures | undefined): SloBucket {
  return {
    start: start.toISOString(),
    calls: figures?.calls ?? 0,
    succeeded: figures?.succeeded ?? 0,
    failed: figures === undefined ? 0 : figures.calls - figures.succeeded,
    cached: figures?.cached ?? 0,
    p50_ms: figures?.p50Ms ?? null,
    p95_ms: figures?.p95Ms ?? null,
    destructive_runs: figures?.destructiveRuns ?? 0,
    destructive_approved: figures?.destructiveApproved ?? 0,
    approval_wait_p50_ms: figures?.approvalWaitP50Ms ?? null,
    approval_wait_p95_ms: figures?.approvalWaitP95Ms ?? null,
  };
}

/**
 * Groups per-tool or per-version bucket figures into series with every bucket of the window
 * present, busiest first (then by key), at most `MAX_SLO_SERIES`.
 */
export function sloSeriesOf(
  figures: readonly BucketFigures[],
  starts: readonly Date[],
): SloSeries[] {
  const groups = new Map<string, { head: BucketFigures; byStart: Map<number, BucketFigures> }>();
  for (const row of figures) {
    if (row.toolId === null || row.tool === null) continue;
    const key = row.version === null ? row.tool : `${row.tool}@${row.version}`;
    const group = groups.get(key) ?? { head: row, byStart: new Map<number, BucketFigures>() };
    group.byStart.set(row.start, row);
    groups.set(key, group);
  }
  const series = [...groups.entries()].map(([key, { head, byStart }]): SloSeries => {
    const buckets = starts.map((start) => sloBucketOf(start, byStart.get(start.getTime())));
    return {
      key,
      tool: head.tool ?? key,
      tool_id: head.toolId ?? '',
      version: head.version,
      calls: buckets.reduce((sum, bucket) => sum + bucket.calls, 0),
      buckets,
    };
  });
  return series
    .sort((left, right) => right.calls - left.calls || left.key.localeCompare(right.key))
    .slice(0, MAX_SLO_SERIES);
}
