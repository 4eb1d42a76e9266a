'use client';

import type { CostAmounts, CostReport } from '@toolgate/contract';
import { formatUsd } from '../../lib/format';
import { StackedBarChart } from '../../components/charts/stacked-bar-chart';
import { TimeSeriesChart } from '../../components/charts/time-series-chart';

/** Spend per call, the figure that shows a canary costing more than the stable version. */
export function costPerCall(amounts: CostAmounts): number | null {
  return amounts.calls === 0 ? null : amounts.total_usd / amounts.calls;
}

const GROUP_NOUN: Record<CostReport['group_by'], string> = {
  team: 'Team',
  key: 'API key',
  tool: 'Tool',
  version: 'Version',
};

/** Totals of the window: spend, its tool and token parts, and the calls behind it. */
export function CostTotals({ report }: { report: CostReport }) {
  const { totals } = report;
  return (
    <section className="slo-cards" aria-label="Totals">
      <div className="stat-card">
        <h3>Spend</h3>
        <p className="big">{formatUsd(totals.total_usd)}</p>
        <p>over the last {report.window}</p>
      </div>
      <div className="stat-card">
        <h3>Tool cost</h3>
        <p className="big">{formatUsd(totals.tool_usd)}</p>
        <p>what the tools themselves cost</p>
      </div>
      <div className="stat-card">
        <h3>Token cost</h3>
        <p className="big">{formatUsd(totals.tokens_usd)}</p>
        <p>the calls&apos; share of their model turns</p>
      </div>
      <div className="stat-card">
        <h3>Calls</h3>
        <p className="big">{totals.calls}</p>
        <p>
          {totals.cached_calls} from the result cache · {formatUsd(costPerCall(totals))} per call
        </p>
      </div>
    </section>
  );
}

/** Spend over time per group, tool vs token cost per bucket, and each group's totals. */
export function CostCharts({ report }: { report: CostReport }) {
  const range = { from: Date.parse(report.from), to: Date.parse(report.to) };
  const empty = `No spend in the last ${report.window}.`;
  const starts = report.series[0]?.points.map((point) => Date.parse(point.start)) ?? [];
  const sum = (index: number, pick: (amounts: CostAmounts) => number) =>
    report.series.reduce((total, series) => {
      const point = series.points[index];
      return total + (point === undefined ? 0 : pick(point));
    }, 0);
  const noun = GROUP_NOUN[report.group_by];

  return (
    <>
      <div className="grid-2">
        <TimeSeriesChart
          title={`Spend per ${noun.toLowerCase()}`}
          unit="USD"
          format={formatUsd}
          range={range}
          emptyText={empty}
          series={report.series.map((series) => ({
            key: series.key,
            name: series.label,
            points: series.points.map((point) => ({
              at: Date.parse(point.start),
              value: point.total_usd,
            })),
          }))}
        />
        <StackedBarChart
          title="Tool vs token cost"
          unit="USD"
          format={formatUsd}
          emptyText={empty}
          series={[
            { key: 'tool_usd', name: 'tool cost', color: '#0b7285' },
            { key: 'tokens_usd', name: 'token cost', color: '#9c36b5' },
          ]}
          buckets={starts.map((start, index) => ({
            start,
            end: start + report.bucket_ms,
            values: {
              tool_usd: sum(index, (amounts) => amounts.tool_usd),
              tokens_usd: sum(index, (amounts) => amounts.tokens_usd),
            },
          }))}
        />
      </div>
      <section className="card" aria-label={`Spend per ${noun.toLowerCase()}`}>
        <div className="chart-table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{noun}</th>
                <th scope="col">Calls</th>
                <th scope="col">Tool cost</th>
                <th scope="col">Token cost</th>
                <th scope="col">Total</th>
                <th scope="col">Per call</th>
              </tr>
            </thead>
            <tbody>
              {report.series.map((series) => (
                <tr key={series.key}>
                  <td title={series.key}>{series.label}</td>
                  <td>
                    {series.totals.calls}
                    {series.totals.cached_calls > 0 ? (
                      <span className="hint"> ({series.totals.cached_calls} cached)</span>
                    ) : null}
                  </td>
                  <td>{formatUsd(series.totals.tool_usd)}</td>
                  <td>{formatUsd(series.totals.tokens_usd)}</td>
                  <td>{formatUsd(series.totals.total_usd)}</td>
                  <td>{formatUsd(costPerCall(series.totals))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
