'use client';

import Link from 'next/link';
import { Suspense, useId } from 'react';
import { routes, RUN_STATUSES, type RunStatus } from '@toolgate/contract';
import { oneOf } from '../../lib/api';
import { Empty, Loaded, Loading } from '../../components/states';
import { useApi } from '../../components/use-api';
import { useUrlFilters } from '../../components/use-url-filters';
import { When } from '../../components/when';
import { CursorPager, useCursorPages } from '../../components/cursor-pager';

export default function RunsPage() {
  return (
    <Suspense fallback={<Loading what="runs" />}>
      <Runs />
    </Suspense>
  );
}

// `status` as the API names it, so a shared link reads like the query it runs
const FILTERS = ['status'] as const;

function Runs() {
  const id = useId();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const status: RunStatus | '' = oneOf(RUN_STATUSES, filters.status, '');
  const { cursor, cursors, setCursors } = useCursorPages();
  const runs = useApi(
    routes.listRuns,
    { query: { status: status === '' ? undefined : status, cursor, limit: 50 } },
    { pollMs: 5000 },
  );

  return (
    <>
      <header className="page-header">
        <h1>Runs</h1>
        <p className="hint">
          Durable runs of many calls (a plan&apos;s steps or a model&apos;s turns), newest first;
          refreshed every 5 seconds.
        </p>
      </header>
      <form
        className="filters"
        role="search"
        aria-label="Filter runs"
        onSubmit={(event) => event.preventDefault()}
      >
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(event) => {
              setFilters({ status: oneOf(RUN_STATUSES, event.target.value, '') });
              setCursors([]);
            }}
          >
            <option value="">Any</option>
            {RUN_STATUSES.map((entry) => (
              <option key={entry} value={entry}>
                {entry.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Loaded state={runs} what="runs">
        {(page) =>
          page.items.length === 0 ? (
            status === '' && cursors.length === 0 ? (
              <Empty title="No runs yet.">
                <p>
                  An app starts one with <code>POST /v1/runs</code> (
                  <code>{'{"mode": "plan"}'}</code> or <code>{'{"mode": "react"}'}</code>) using a
                  team&apos;s API key, then posts its plan to{' '}
                  <code>/v1/runs/&#123;runId&#125;/plan</code> or each model turn to{' '}
                  <code>/v1/runs/&#123;runId&#125;/turns</code>. Each step is checkpointed, so a run
                  goes on after a restart.
                </p>
              </Empty>
            ) : (
              <Empty title="No runs match.">
                <p>Choose another status, or Any.</p>
              </Empty>
            )
          ) : (
            <>
              <table className="table">
                <caption className="sr-only">Runs</caption>
                <thead>
                  <tr>
                    <th scope="col">Run</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Status</th>
                    <th scope="col">Failed step</th>
                    <th scope="col">Conversation</th>
                    <th scope="col">Created</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((run) => (
                    <tr key={run.id}>
                      <td>
                        <Link href={`/runs/${run.id}`}>{run.id.slice(0, 8)}</Link>
                      </td>
                      <td>{run.mode}</td>
                      <td>
                        <span className={`badge status-${run.status}`}>
                          {run.status.replaceAll('_', ' ')}
                        </span>
                      </td>
                      <td>
                        {run.failed_step === null ? (
                          <span className="hint">—</span>
                        ) : (
                          <>
                            {run.failed_step}
                            {run.reason ? <span className="hint"> {run.reason.code}</span> : null}
                          </>
                        )}
                      </td>
                      <td>{run.conversation_id ?? <span className="hint">—</span>}</td>
                      <td>
                        <When at={run.created_at} />
                      </td>
                      <td>
                        <When at={run.updated_at} />
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
          )
        }
      </Loaded>
    </>
  );
}
