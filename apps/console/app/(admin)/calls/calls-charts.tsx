'use client';

import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { z } from 'zod';
import {
  CallStatusSchema,
  routes,
  TimeWindowSchema,
  type CallStatus,
  type CallsMetrics,
  type TimeWindow,
} from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { formatMs, formatPercent, formatTime } from '../../lib/format';
import { StackedBarChart, type BarSeries } from '../../components/charts/stacked-bar-chart';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';
import { Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';

/** The calls of one chart bucket: `?from=&to=` (ISO instants, `to` exclusive) and `?status=`. */
export interface CallsBucketFilter {
  from: string;
  to: string;
  status?: CallStatus | undefined;
}

const BucketFilterSchema = z.object({
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  status: CallStatusSchema.optional().catch(undefined),
});

/** The bucket filter in a query string, or null when it has none (or a malformed one). */
export function bucketFilterOf(search: string): CallsBucketFilter | null {
  const params = new URLSearchParams(search);
  const parsed = BucketFilterSchema.safeParse({
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    status: params.get('status') ?? undefined,
  });
  return parsed.success ? parsed.data : null;
}

/** The query string with the bucket filter written (or removed), other parameters kept. */
export function searchWithBucketFilter(search: string, filter: CallsBucketFilter | null): string {
  const params = new URLSearchParams(search);
  for (const name of ['from', 'to', 'status']) params.delete(name);
  if (filter !== null) {
    params.set('from', filter.from);
    params.set('to', filter.to);
    if (filter.status !== undefined) params.set('status', filter.status);
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/**
 * The chart-picked time range and status, kept in the URL so a filtered view can be shared and
 * survives a reload. Read after mount (the page renders on the server without the URL) and on
 * back / forward; `onChange` hears every change, so the page's status filter follows it.
 */
export function useCallsBucketFilter(onChange: (filter: CallsBucketFilter | null) => void) {
  const [filter, setFilter] = useState<CallsBucketFilter | null>(null);
  const listener = useRef(onChange);
  listener.current = onChange;
  const apply = useCallback((next: CallsBucketFilter | null) => {
    setFilter(next);
    listener.current(next);
  }, []);
  useEffect(() => {
    // On mount only a filter the URL carries counts: no filter leaves the page's own state be.
    const opened = bucketFilterOf(window.location.search);
    if (opened !== null) apply(opened);
    const read = () => apply(bucketFilterOf(window.location.search));
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, [apply]);
  const write = useCallback(
    (next: CallsBucketFilter | null) => {
      apply(next);
      const search = searchWithBucketFilter(window.location.search, next);
      // Next's router follows the native history API, so useSearchParams sees this too.
      window.history.pushState(null, '', `${window.location.pathname}${search}`);
    },
    [apply],
  );
  return { filter, select: write, clear: useCallback(() => write(null), [write]) };
}

const WINDOWS = TimeWindowSchema.options;

/** The statuses drawn as bar segments, finished ones first; colours follow the status badges. */
const STATUS_SERIES: readonly BarSeries[] = [
  { key: 'succeeded', name: 'succeeded', color: '#1d7a46' },
  { key: 'failed', name: 'failed', color: '#b42318' },
  { key: 'outcome_unknown', name: 'outcome unknown', color: '#8a5a00' },
  { key: 'cancelled', name: 'cancelled', color: '#5b6675' },
  { key: 'awaiting_approval', name: 'awaiting approval', color: '#9c36b5' },
  { key: 'running', name: 'running', color: '#2f5bd3' },
  { key: 'queued', name: 'queued', color: '#0b7285' },
];

function barBucketsOf(metrics: CallsMetrics) {
  return metrics.buckets.map((bucket) => {
    const start = Date.parse(bucket.start);
    return { start, end: start + metrics.bucket_ms, values: bucket.by_status };
  });
}

/**
 * Volume by status, error rate and latency over a window, above the calls table; a click on a bar
 * segment narrows the table to that bucket's time range and status.
 */
export function CallsCharts({
  tool,
  filter,
  onSelect,
  onClear,
}: {
  tool: string | undefined;
  filter: CallsBucketFilter | null;
  onSelect: (filter: CallsBucketFilter) => void;
  onClear: () => void;
}) {
  const id = useId();
  const [window, setWindow] = useState<TimeWindow>('24h');
  const metrics = useApi(routes.getCallsMetrics, { query: { window, tool } }, { pollMs: 30_000 });

  return (
    <section className="chart-section" aria-labelledby={`${id}-title`}>
      <header className="page-header">
        <h2 id={`${id}-title`}>Calls over time</h2>
        <div className="field">
          <label htmlFor={`${id}-window`}>Chart window</label>
          <select
            id={`${id}-window`}
            value={window}
            onChange={(event) => setWindow(oneOf(WINDOWS, event.target.value, window))}
          >
            {WINDOWS.map((entry) => (
              <option key={entry}>{entry}</option>
            ))}
          </select>
        </div>
      </header>
      {filter === null ? (
        <p className="hint">Click a bar to list that bucket&apos;s calls of that status.</p>
      ) : (
        <p className="hint" role="status">
          Showing {filter.status === undefined ? '' : `${filter.status.replaceAll('_', ' ')} `}
          calls received from {formatTime(filter.from)} to {formatTime(filter.to)}.{' '}
          <button type="button" className="link-button" onClick={onClear}>
            Clear the chart's filter
          </button>
        </p>
      )}
      <Loaded state={metrics} what="call figures">
        {(data) => {
          const range = { from: Date.parse(data.from), to: Date.parse(data.to) };
          const empty = `No calls in the last ${data.window}.`;
          const at = (start: string) => Date.parse(start);
          return (
            <div className="grid-2">
              <StackedBarChart
                title="Calls by status"
                unit="calls"
                series={STATUS_SERIES}
                buckets={barBucketsOf(data)}
                emptyText={empty}
                onSelect={({ bucket, series }) =>
                  onSelect({
                    from: new Date(bucket.start).toISOString(),
                    to: new Date(bucket.end).toISOString(),
                    status: CallStatusSchema.safeParse(series.key).data,
                  })
                }
              />
              <TimeSeriesChart
                title="Error rate"
                unit="%"
                format={(value) => formatPercent(value, 1)}
                yDomain={[0, 1]}
                range={range}
                emptyText={empty}
                series={[
                  {
                    key: 'error_rate',
                    name: 'failed / finished',
                    color: '#b42318',
                    points: data.buckets.map((bucket) => ({
                      at: at(bucket.start),
                      value: bucket.error_rate,
                    })),
                  },
                ]}
              />
              <TimeSeriesChart
                title="Latency"
                unit="latency"
                format={formatMs}
                range={range}
                emptyText={empty}
                series={[
                  {
                    key: 'p50',
                    name: 'p50',
                    points: data.buckets.map((bucket) => ({
                      at: at(bucket.start),
                      value: bucket.p50_ms,
                    })),
                  },
                  {
                    key: 'p95',
                    name: 'p95',
                    points: data.buckets.map((bucket) => ({
                      at: at(bucket.start),
                      value: bucket.p95_ms,
                    })),
                  },
                ]}
              />
            </div>
          );
        }}
      </Loaded>
    </section>
  );
}
