'use client';

import { useId, useState } from 'react';
import { routes, TimeWindowSchema, type SloName, type TimeWindow } from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { formatMs, formatPercent } from '../../lib/format';
import { LineChart } from '../../components/line-chart';
import { Empty, Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';

const WINDOWS = TimeWindowSchema.options;
const SLO_LABEL: Record<SloName, string> = {
  success_rate: 'Success rate',
  p95_latency_ms: 'p95 latency',
  destructive_approval_rate: 'Destructive calls approved',
};

function formatSlo(name: SloName, value: number | null): string {
  if (value === null) return '—';
  return name === 'p95_latency_ms' ? formatMs(value) : formatPercent(value, 2);
}

function bucketLabel(iso: string, window: TimeWindow): string {
  const date = new Date(iso);
  if (window === '1h')
    return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return window === '24h'
    ? date.toLocaleString('en-GB', {
        day: '2-digit',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      })
    : date.toLocaleDateString('en-GB');
}

export default function SloPage() {
  const id = useId();
  const [window, setWindow] = useState<TimeWindow>('24h');
  const report = useApi(routes.getSloReport, { query: { window } }, { pollMs: 30_000 });

  return (
    <>
      <header className="page-header">
        <h1>SLO dashboard</h1>
        <div className="filters">
          <div className="field">
            <label htmlFor={`${id}-window`}>Window</label>
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
        </div>
      </header>
      <Loaded state={report} what="SLO figures">
        {(data) => (
          <>
            <section className="slo-cards" aria-label="Service level objectives">
              {data.slos.map((slo) => (
                <div
                  key={slo.name}
                  className={`stat-card slo-${slo.met === null ? 'nodata' : slo.met ? 'met' : 'breached'}`}
                >
                  <h3>{SLO_LABEL[slo.name]}</h3>
                  <p className="big">{formatSlo(slo.name, slo.actual)}</p>
                  <p>
                    target {slo.name === 'p95_latency_ms' ? '≤' : '≥'}{' '}
                    {formatSlo(slo.name, slo.target)} ·{' '}
                    <strong>
                      {slo.met === null ? 'no data in this window' : slo.met ? 'met' : 'breached'}
                    </strong>
                  </p>
                </div>
              ))}
            </section>
            {data.buckets.length === 0 || data.buckets.every((bucket) => bucket.calls === 0) ? (
              <Empty title={`No calls in the last ${window}.`}>
                <p>Pick a longer window, or send calls through the gateway to see figures here.</p>
              </Empty>
            ) : (
              <div className="grid-2">
                <LineChart
                  title="Success rate"
                  labels={data.buckets.map((bucket) => bucketLabel(bucket.start, window))}
                  series={[
                    {
                      name: 'success rate',
                      className: 'series-a',
                      values: data.buckets.map((bucket) =>
                        bucket.calls === 0 ? null : bucket.succeeded / bucket.calls,
                      ),
                    },
                  ]}
                  format={(value) => formatPercent(value, 0)}
                  max={1}
                />
                <LineChart
                  title="Latency"
                  labels={data.buckets.map((bucket) => bucketLabel(bucket.start, window))}
                  series={[
                    {
                      name: 'p50',
                      className: 'series-a',
                      values: data.buckets.map((bucket) => bucket.p50_ms),
                    },
                    {
                      name: 'p95',
                      className: 'series-b',
                      values: data.buckets.map((bucket) => bucket.p95_ms),
                    },
                  ]}
                  format={formatMs}
                />
                <LineChart
                  title="Calls"
                  labels={data.buckets.map((bucket) => bucketLabel(bucket.start, window))}
                  series={[
                    {
                      name: 'succeeded',
                      className: 'series-a',
                      values: data.buckets.map((bucket) => bucket.succeeded),
                    },
                    {
                      name: 'failed',
                      className: 'series-b',
                      values: data.buckets.map((bucket) => bucket.failed),
                    },
                  ]}
                  format={(value) => (Number.isInteger(value) ? String(value) : value.toFixed(1))}
                />
              </div>
            )}
            <section className="card" aria-labelledby="per-tool">
              <h3 id="per-tool">Per tool</h3>
              {data.tools.length === 0 ? (
                <p className="hint">No tool was called in this window.</p>
              ) : (
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Tool</th>
                      <th scope="col">Calls</th>
                      <th scope="col">Success</th>
                      <th scope="col">p50</th>
                      <th scope="col">p95</th>
                      <th scope="col">Approvals (destructive)</th>
                      <th scope="col">Error codes</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.tools.map((tool) => (
                      <tr key={tool.tool}>
                        <td>{tool.tool}</td>
                        <td>{tool.calls}</td>
                        <td>
                          <meter
                            min={0}
                            max={1}
                            low={0.99}
                            high={0.995}
                            optimum={1}
                            value={tool.success_rate ?? 0}
                            aria-label={`${tool.tool} success rate`}
                          />{' '}
                          {formatPercent(tool.success_rate, 2)}
                        </td>
                        <td>{formatMs(tool.p50_ms)}</td>
                        <td>{formatMs(tool.p95_ms)}</td>
                        <td>
                          {tool.destructive
                            ? `${tool.approvals.approved}/${tool.approvals.required} approved, ${tool.approvals.denied} denied, ${tool.approvals.expired} expired`
                            : 'not destructive'}
                        </td>
                        <td>
                          {Object.entries(tool.error_codes).length === 0
                            ? '—'
                            : Object.entries(tool.error_codes).map(([code, count]) => (
                                <span key={code} className="badge status-failed">
                                  {code} × {count}
                                </span>
                              ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}
