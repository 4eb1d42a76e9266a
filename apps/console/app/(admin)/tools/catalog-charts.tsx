'use client';

import { routes, type CallsToolSeries } from '@toolgate/contract';
import { Sparkline } from '../../components/charts/sparkline';
import { useApi } from '../../components/use-api';

/**
 * Every tool's calls and failures over the last 24 h, by tool id, from one request for the whole
 * catalog (not one per row). Undefined until it arrives; a tool without calls has no entry.
 */
export function useToolActivity(): ReadonlyMap<string, CallsToolSeries> | undefined {
  const metrics = useApi(routes.getCallsMetrics, { query: { window: '24h' } }, { pollMs: 60_000 });
  if (metrics.data === undefined) return undefined;
  return new Map(metrics.data.tools.map((series) => [series.tool_id, series]));
}

/** A catalog cell: the tool's calls and errors per hour over the last 24 h. */
export function ToolActivity({
  toolId,
  name,
  activity,
}: {
  toolId: string;
  name: string;
  activity: ReadonlyMap<string, CallsToolSeries> | undefined;
}) {
  // The figures are an extra: while they load (or if they fail) the row still reads.
  if (activity === undefined) return <span className="hint">—</span>;
  const series = activity.get(toolId);
  if (series === undefined) return <span className="hint">no calls</span>;
  return (
    <span className="tool-activity">
      <Sparkline
        label={`${name}, last 24 h`}
        series={[
          { key: 'calls', name: 'calls', color: '#2f5bd3', values: series.calls_per_bucket },
          { key: 'errors', name: 'errors', color: '#b42318', values: series.failed_per_bucket },
        ]}
      />{' '}
      <span className="hint">
        {series.calls} · {series.failed} failed
      </span>
    </span>
  );
}
