import {
  CALL_STATUSES,
  type CallStatus,
  type CallsBucket,
  type CallsToolSeries,
} from '@toolgate/contract';
import type { CallBucketFigures, ToolBucketCounts } from './metrics.repository';
import { ratio } from './slo';

/** The catalog asks for every tool at once; more than this many in one window are left out. */
export const MAX_CALLS_TOOL_SERIES = 500;

// Cancelled calls were stopped on purpose; they are neither a success nor an error.
const FINISHED: readonly CallStatus[] = ['succeeded', 'failed', 'outcome_unknown'];

/** One chart bucket of the calls report, every status present. */
export function callsBucketOf(start: Date, figures: CallBucketFigures | undefined): CallsBucket {
  const byStatus = Object.fromEntries(
    CALL_STATUSES.map((status) => [status, figures?.byStatus[status] ?? 0]),
  ) as Record<CallStatus, number>;
  const calls = CALL_STATUSES.reduce((sum, status) => sum + byStatus[status], 0);
  const finished = FINISHED.reduce((sum, status) => sum + byStatus[status], 0);
  return {
    start: start.toISOString(),
    calls,
    by_status: byStatus,
    error_rate: ratio(byStatus.failed, finished),
    p50_ms: figures?.p50Ms ?? null,
    p95_ms: figures?.p95Ms ?? null,
  };
}

/** Per-tool counts aligned with the window's buckets, by tool name (then id). */
export function callsToolSeriesOf(
  counts: readonly ToolBucketCounts[],
  starts: readonly Date[],
): CallsToolSeries[] {
  const index = new Map(starts.map((start, position) => [start.getTime(), position]));
  const tools = new Map<string, CallsToolSeries>();
  for (const row of counts) {
    const position = index.get(row.start);
    if (position === undefined) continue;
    const series = tools.get(row.toolId) ?? {
      tool: row.tool,
      tool_id: row.toolId,
      calls: 0,
      failed: 0,
      calls_per_bucket: starts.map(() => 0),
      failed_per_bucket: starts.map(() => 0),
    };
    series.calls += row.calls;
    series.failed += row.failed;
    series.calls_per_bucket[position] = row.calls;
    series.failed_per_bucket[position] = row.failed;
    tools.set(row.toolId, series);
  }
  return [...tools.values()]
    .sort(
      (left, right) =>
        left.tool.localeCompare(right.tool) || left.tool_id.localeCompare(right.tool_id),
    )
    .slice(0, MAX_CALLS_TOOL_SERIES);
}
