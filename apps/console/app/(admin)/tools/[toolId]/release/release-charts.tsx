'use client';

import { useId, useState } from 'react';
import {
  routes,
  TimeWindowSchema,
  type ReleaseHealth,
  type ReleaseHistory,
  type ReleaseHistoryBucket,
  type ReleaseHistoryVersion,
  type TimeWindow,
} from '@toolgate/contract';
import { oneOf } from '../../../../lib/api';
import { formatMs, formatPercent } from '../../../../lib/format';
import {
  TimeSeriesChart,
  type TargetLine,
  type TimeSeries,
} from '../../../../components/charts/time-series-chart';
import { Loaded } from '../../../../components/states';
import { useApi } from '../../../../components/use-api';

const WINDOWS = TimeWindowSchema.options;
const STABLE_COLOR = '#2f5bd3';
const CANARY_COLOR = '#d9480f';

/**
 * Where the canary guard rolls back, measured from stable's figures over the guard's window (the
 * same rules as apps/registry-api/src/canary-guard/canary-guard.rules.ts); none without stable.
 */
export function guardLines(health: ReleaseHealth | undefined): {
  successRate?: TargetLine;
  p95?: TargetLine;
  validation?: TargetLine;
} {
  const stable = health?.stable;
  if (!health || !stable || health.canary_version === null) return {};
  const { thresholds } = health;
  const lines: ReturnType<typeof guardLines> = {};
  if (stable.success_rate !== null) {
    const value = Math.max(0, stable.success_rate - thresholds.max_success_rate_drop);
    lines.successRate = { value, label: `guard: below ${formatPercent(value, 1)}`, kind: 'min' };
  }
  if (stable.p95_latency_ms !== null) {
    const value = Math.max(
      stable.p95_latency_ms * thresholds.max_p95_ratio,
      stable.p95_latency_ms + thresholds.p95_floor_ms,
    );
    lines.p95 = { value, label: `guard: above ${formatMs(value)}`, kind: 'max' };
  }
  if (stable.validation_failure_rate !== null) {
    const value = Math.min(
      1,
      stable.validation_failure_rate + thresholds.max_validation_failure_increase,
    );
    lines.validation = { value, label: `guard: above ${formatPercent(value, 1)}`, kind: 'max' };
  }
  return lines;
}

function seriesOf(
  versions: readonly ReleaseHistoryVersion[],
  pick: (bucket: ReleaseHistoryBucket) => number | null,
): TimeSeries[] {
  return versions.map((entry) => ({
    key: entry.version,
    name: `${entry.role} ${entry.version}`,
    color: entry.role === 'stable' ? STABLE_COLOR : CANARY_COLOR,
    // The guard judges the canary against stable, never stable itself.
    judged: entry.role === 'canary',
    points: entry.buckets.map((bucket) => ({ at: Date.parse(bucket.start), value: pick(bucket) })),
  }));
}

function HistoryCharts({
  history,
  health,
}: {
  history: ReleaseHistory;
  health: ReleaseHealth | undefined;
}) {
  const range = { from: Date.parse(history.from), to: Date.parse(history.to) };
  const shown = history.versions.filter((entry) => entry.role !== 'other');
  const lines = guardLines(health);
  const empty = `No calls in the last ${history.window}.`;
  const canary = shown.find((entry) => entry.role === 'canary');
  const targets = (line: TargetLine | undefined) => (line === undefined ? [] : [line]);

  return (
    <div className="grid-2">
      <TimeSeriesChart
        title="Success rate"
        unit="%"
        format={(value) => formatPercent(value, 1)}
        yDomain={[0, 1]}
        range={range}
        emptyText={empty}
        targets={targets(lines.successRate)}
        series={seriesOf(shown, (bucket) => bucket.success_rate)}
      />
      <TimeSeriesChart
        title="p95 latency"
        unit="latency"
        format={formatMs}
        range={range}
        emptyText={empty}
        targets={targets(lines.p95)}
        series={seriesOf(shown, (bucket) => bucket.p95_latency_ms)}
      />
      <TimeSeriesChart
        title="Validation failures"
        unit="%"
        format={(value) => formatPercent(value, 1)}
        range={range}
        emptyText={empty}
        targets={targets(lines.validation)}
        series={seriesOf(shown, (bucket) => bucket.validation_failure_rate)}
      />
      <TimeSeriesChart
        title="Share served to the canary"
        unit="%"
        format={(value) => formatPercent(value, 0)}
        yDomain={[0, 1]}
        range={range}
        emptyText={canary === undefined ? 'No canary is running.' : empty}
        targets={
          canary === undefined
            ? []
            : [
                {
                  value: history.canary_percent / 100,
                  label: `asked ${history.canary_percent}%`,
                  kind: 'max',
                },
              ]
        }
        series={
          canary === undefined
            ? []
            : [
                {
                  key: 'share',
                  name: `canary ${canary.version}`,
                  color: CANARY_COLOR,
                  // The asked share is a reference, not a limit: a bucket above it is no breach.
                  judged: false,
                  points: canary.buckets.map((bucket) => ({
                    at: Date.parse(bucket.start),
                    value: bucket.share,
                  })),
                },
              ]
        }
      />
    </div>
  );
}

/** Canary against stable over time, with the guard's thresholds and the canary's real share. */
export function ReleaseCharts({
  toolId,
  health,
}: {
  toolId: string;
  health: ReleaseHealth | undefined;
}) {
  const id = useId();
  const [window, setWindow] = useState<TimeWindow>('24h');
  const history = useApi(
    routes.getReleaseHistory,
    { params: { toolId }, query: { window } },
    { pollMs: 30_000 },
  );
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <header className="page-header">
        <h3 id={`${id}-title`}>Canary against stable over time</h3>
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
      <p className="hint">
        Dashed lines are where the canary guard rolls the canary back, measured from stable over the
        guard&apos;s window; marked points crossed them.
      </p>
      <Loaded state={history} what="the release history">
        {(data) => <HistoryCharts history={data} health={health} />}
      </Loaded>
    </section>
  );
}
