'use client';

import { useId, useState } from 'react';
import { routes, TimeWindowSchema, type SloName, type TimeWindow } from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { formatMs, formatPercent } from '../../lib/format';
import { Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';
import { SloCharts } from './slo-charts';

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
            <SloCharts report={data} />
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
                      <th scope="col">From cache</th>
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
                        <td title="Answered by the result cache without executing; not in the calls, the rate or the latencies">
                          {tool.cached}
                        </td>
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
