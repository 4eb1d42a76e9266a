'use client';

import { useId, useState } from 'react';
import {
  CostGroupBySchema,
  routes,
  TimeWindowSchema,
  type CostGroupBy,
  type TimeWindow,
} from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { Empty, Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';
import { CostCharts, CostTotals } from './cost-charts';

const WINDOWS = TimeWindowSchema.options;
const GROUPS = CostGroupBySchema.options;
const GROUP_LABEL: Record<CostGroupBy, string> = {
  team: 'Team',
  key: 'API key',
  tool: 'Tool',
  version: 'Tool version',
};

export default function CostPage() {
  const id = useId();
  const [window, setWindow] = useState<TimeWindow>('24h');
  const [groupBy, setGroupBy] = useState<CostGroupBy>('tool');
  const report = useApi(
    routes.getCostReport,
    { query: { group_by: groupBy, window } },
    { pollMs: 60_000 },
  );

  return (
    <>
      <header className="page-header">
        <h1>Cost</h1>
        <p className="hint">
          What the tools and the model turns behind their calls cost; group by tool version to
          compare a canary with the stable version.
        </p>
        <div className="filters">
          <div className="field">
            <label htmlFor={`${id}-group`}>Group by</label>
            <select
              id={`${id}-group`}
              value={groupBy}
              onChange={(event) => setGroupBy(oneOf(GROUPS, event.target.value, groupBy))}
            >
              {GROUPS.map((entry) => (
                <option key={entry} value={entry}>
                  {GROUP_LABEL[entry]}
                </option>
              ))}
            </select>
          </div>
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
      <Loaded state={report} what="the cost report">
        {(data) => (
          <>
            <CostTotals report={data} />
            {data.series.length === 0 ? (
              <Empty title={`No spend in the last ${data.window}.`}>
                <p>Calls appear here once tools with a cost or model turns with token usage run.</p>
              </Empty>
            ) : (
              <CostCharts report={data} />
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
