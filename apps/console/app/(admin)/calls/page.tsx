'use client';

import Link from 'next/link';
import { Suspense, useId } from 'react';
import { CALL_STATUSES, routes, type CallStatus } from '@toolgate/contract';
import { nonEmpty, oneOf } from '../../lib/api';
import { formatMs } from '../../lib/format';
import { Empty, Loaded, Loading } from '../../components/states';
import { useApi } from '../../components/use-api';
import { useUrlFilters } from '../../components/use-url-filters';
import { When } from '../../components/when';
import { CursorPager, useCursorPages } from '../../components/cursor-pager';
import { CallsCharts, useCallsBucketFilter } from './calls-charts';

const RANGES: Record<string, number | null> = {
  'Last hour': 3600e3,
  'Last 24 hours': 86400e3,
  'Last 7 days': 7 * 86400e3,
  'Any time': null,
};

export default function CallsPage() {
  return (
    <Suspense fallback={<Loading what="calls" />}>
      <Calls />
    </Suspense>
  );
}

// `status` and `tool` as the API names them, so a shared link reads like the query it runs
const FILTERS = ['status', 'tool', 'range'] as const;

function Calls() {
  const id = useId();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const status: CallStatus | '' = oneOf(CALL_STATUSES, filters.status, '');
  const tool = filters.tool;
  const range = filters.range in RANGES ? filters.range : 'Any time';
  const setStatus = (value: CallStatus | '') => setFilters({ status: value });
  const setTool = (value: string) => setFilters({ tool: value });
  const setRange = (value: string) => setFilters({ range: value === 'Any time' ? '' : value });
  const { cursor, cursors, setCursors } = useCursorPages();
  const bucket = useCallsBucketFilter((picked) => {
    setStatus(picked?.status ?? '');
    setCursors([]);
  });
  const calls = useApi(
    routes.listCalls,
    {
      query: {
        status: status === '' ? undefined : status,
        tool: nonEmpty(tool.trim()),
        from: bucket.filter?.from,
        to: bucket.filter?.to,
        cursor,
        limit: 50,
      },
    },
    { pollMs: 5000 },
  );
  const since = RANGES[range] ?? null;
  const reset = () => setCursors([]);

  return (
    <>
      <header className="page-header">
        <h1>Calls</h1>
        <p className="hint">
          Every tool call through the gateway, newest first; refreshed every 5 seconds.
        </p>
      </header>
      <form
        className="filters"
        role="search"
        aria-label="Filter calls"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(event) => {
              setStatus(oneOf(CALL_STATUSES, event.target.value, ''));
              reset();
            }}
          >
            <option value="">Any</option>
            {CALL_STATUSES.map((entry) => (
              <option key={entry} value={entry}>
                {entry.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-tool`}>Tool</label>
          <input
            id={`${id}-tool`}
            value={tool}
            onChange={(event) => {
              setTool(event.target.value);
              reset();
            }}
            placeholder="tool name"
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-range`}>Time</label>
          <select
            id={`${id}-range`}
            value={range}
            onChange={(event) => setRange(event.target.value)}
          >
            {Object.keys(RANGES).map((entry) => (
              <option key={entry}>{entry}</option>
            ))}
          </select>
        </div>
      </form>
      <CallsCharts
        tool={nonEmpty(tool.trim())}
        filter={bucket.filter}
        onSelect={bucket.select}
        onClear={bucket.clear}
      />
      <Loaded state={calls} what="calls">
        {(page) => {
          const now = Date.now();
          const items =
            since === null
              ? page.items
              : page.items.filter((call) => now - Date.parse(call.created_at) <= since);
          return items.length === 0 ? (
            <Empty title="No calls match.">
              <p>
                Widen the time range or clear the filters; calls appear once an app posts to
                /v1/calls.
              </p>
            </Empty>
          ) : (
            <>
              <table className="table">
                <caption className="sr-only">Calls</caption>
                <thead>
                  <tr>
                    <th scope="col">Call</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Status</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Latency</th>
                    <th scope="col">Received</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((call) => (
                    <tr key={call.id}>
                      <td>
                        <Link href={`/calls/${call.id}`}>{call.id.slice(0, 8)}</Link>
                      </td>
                      <td>
                        {call.tool.name} <span className="hint">{call.tool.version}</span>
                      </td>
                      <td>
                        <span className={`badge status-${call.status}`}>
                          {call.status.replaceAll('_', ' ')}
                        </span>
                        {call.error_code ? <span className="hint"> {call.error_code}</span> : null}
                      </td>
                      <td>{call.provider}</td>
                      <td>{formatMs(call.latency_ms)}</td>
                      <td>
                        <When at={call.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <CursorPager
                cursors={cursors}
                setCursors={setCursors}
                nextCursor={page.next_cursor}
              />
            </>
          );
        }}
      </Loaded>
    </>
  );
}
