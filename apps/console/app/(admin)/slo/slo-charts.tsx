'use client';

import { useId, useState } from 'react';
import type { SloBucket, SloReport } from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { formatMs, formatPercent } from '../../lib/format';
import { StackedBarChart } from '../../components/charts/stacked-bar-chart';
import {
  TimeSeriesChart,
  type TargetLine,
  type TimeSeries,
} from '../../components/charts/time-series-chart';
import { Empty } from '../../components/states';

const SPLITS = ['overall', 'tool', 'version'] as const;
type Split = (typeof SPLITS)[number];
const SPLIT_LABEL: Record<Split, string> = {
  overall: 'All calls',
  tool: 'Per tool',
  version: 'Per version',
};

/** Where SLO lines sit; the API judges the same targets (apps/registry-api/src/metrics/slo.ts). */
function targetsOf(report: SloReport) {
  const target = (name: string, fallback: number) =>
    report.slos.find((slo) => slo.name === name)?.target ?? fallback;
  const success = target('success_rate', 0.995);
  const p95 = target('p95_latency_ms', 2000);
  const approvals = target('destructive_approval_rate', 1);
  return {
    success: { value: success, label: `SLO ${formatPercent(success, 1)}`, kind: 'min' },
    p95: { value: p95, label: `SLO p95 ≤ ${formatMs(p95)}`, kind: 'max' },
    approvals: {
      value: approvals,
      label: `SLO ${formatPercent(approvals, 0)} approved`,
      kind: 'min',
    },
  } satisfies Record<string, TargetLine>;
}

const successRate = (bucket: SloBucket) =>
  bucket.calls === 0 ? null : bucket.succeeded / bucket.calls;
const approvalRate = (bucket: SloBucket) =>
  bucket.destructive_runs === 0 ? null : bucket.destructive_approved / bucket.destructive_runs;

/** The series a split draws: the whole window, or one line per tool or tool version. */
function linesOf(report: SloReport, split: Split) {
  switch (split) {
    case 'overall':
      return [{ key: 'all', name: 'all calls', buckets: report.buckets }];
    case 'tool':
      return report.by_tool.map((series) => ({
        key: series.key,
        name: series.tool,
        buckets: series.buckets,
      }));
    case 'version':
      return report.by_version.map((series) => ({
        key: series.key,
        name: series.key,
        buckets: series.buckets,
      }));
  }
}

/** The lowest value a rate chart shows, so a dip below 99.5% is visible rather than flattened. */
function rateFloor(values: ReadonlyArray<number | null>, target: number): number {
  const lowest = Math.min(target, ...values.filter((value): value is number => value !== null));
  return Math.max(0, Math.floor((lowest - 0.005) * 20) / 20);
}

/** The SLO dashboard's charts: rates, latencies and approvals over the window, with SLO lines. */
export function SloCharts({ report }: { report: SloReport }) {
  const id = useId();
  const [split, setSplit] = useState<Split>('overall');
  if (report.buckets.every((bucket) => bucket.calls === 0 && bucket.destructive_runs === 0)) {
    return (
      <Empty title={`No calls in the last ${report.window}.`}>
        <p>Pick a longer window, or send calls through the gateway to see figures here.</p>
      </Empty>
    );
  }
  const targets = targetsOf(report);
  const lines = linesOf(report, split);
  const range = { from: Date.parse(report.from), to: Date.parse(report.to) };
  const series = (pick: (bucket: SloBucket) => number | null, suffix = ''): TimeSeries[] =>
    lines.map((line) => ({
      key: `${line.key}${suffix}`,
      name: `${line.name}${suffix ? ` ${suffix}` : ''}`,
      points: line.buckets.map((bucket) => ({ at: Date.parse(bucket.start), value: pick(bucket) })),
    }));
  const success = series(successRate);
  const successFloor = rateFloor(
    success.flatMap((line) => line.points.map((point) => point.value)),
    targets.success.value,
  );
  const empty = `No calls in the last ${report.window}.`;

  return (
    <section className="chart-section" aria-labelledby={`${id}-title`}>
      <header className="page-header">
        <h2 id={`${id}-title`}>Over the last {report.window}</h2>
        <div className="field">
          <label htmlFor={`${id}-split`}>Lines</label>
          <select
            id={`${id}-split`}
            value={split}
            onChange={(event) => setSplit(oneOf(SPLITS, event.target.value, split))}
          >
            {SPLITS.map((entry) => (
              <option key={entry} value={entry}>
                {SPLIT_LABEL[entry]}
              </option>
            ))}
          </select>
        </div>
      </header>
      <div className="grid-2">
        <TimeSeriesChart
          title="Success rate"
          unit="%"
          format={(value) => formatPercent(value, 1)}
          yDomain={[successFloor, 1]}
          targets={[targets.success]}
          range={range}
          series={success}
          emptyText={empty}
        />
        <TimeSeriesChart
          title="p95 latency"
          unit="latency"
          format={formatMs}
          targets={[targets.p95]}
          range={range}
          series={series((bucket) => bucket.p95_ms)}
          emptyText={empty}
        />
        <TimeSeriesChart
          title="p50 latency"
          unit="latency"
          format={formatMs}
          range={range}
          series={series((bucket) => bucket.p50_ms)}
          emptyText={empty}
        />
        <TimeSeriesChart
          title="Destructive calls approved"
          unit="%"
          format={(value) => formatPercent(value, 0)}
          yDomain={[0, 1]}
          targets={[targets.approvals]}
          range={range}
          series={series(approvalRate)}
          emptyText={`No destructive call ran in the last ${report.window}.`}
        />
        <TimeSeriesChart
          title="Approval wait"
          unit="wait"
          format={formatMs}
          range={range}
          series={
            split === 'overall'
              ? [
                  ...series((bucket) => bucket.approval_wait_p50_ms, 'p50'),
                  ...series((bucket) => bucket.approval_wait_p95_ms, 'p95'),
                ]
              : series((bucket) => bucket.approval_wait_p95_ms)
          }
          emptyText={`No approval was decided in the last ${report.window}.`}
        />
        <StackedBarChart
          title="Calls"
          unit="calls"
          series={[
            { key: 'succeeded', name: 'succeeded', color: '#1d7a46' },
            { key: 'failed', name: 'failed', color: '#b42318' },
          ]}
          buckets={report.buckets.map((bucket, index) => {
            const start = Date.parse(bucket.start);
            const next = report.buckets[index + 1];
            return {
              start,
              end: next ? Date.parse(next.start) : range.to,
              values: { succeeded: bucket.succeeded, failed: bucket.failed },
            };
          })}
          emptyText={empty}
        />
      </div>
    </section>
  );
}
