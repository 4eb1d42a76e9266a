'use client';

import { isRecord } from '@toolgate/toolir';
import { Suspense, useId, useState, type FormEvent } from 'react';
import { routes } from '@toolgate/contract';
import { nonEmpty } from '../../lib/api';
import { ActorName } from '../../components/actor-name';
import { JsonView } from '../../components/json-view';
import { Empty, Loaded, Loading } from '../../components/states';
import { useUrlFilters } from '../../components/use-url-filters';
import { When } from '../../components/when';
import { useApi } from '../../components/use-api';
import { CursorPager, useCursorPages } from '../../components/cursor-pager';
import { ChainStatus } from './chain-status';

const FILTERS = ['actor', 'entity_type', 'action', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const EMPTY: Filters = { actor: '', entity_type: '', action: '', from: '', to: '' };

/** `2026-12-07 14:00` (ISO order, the reader's time zone) to an instant; blank or unreadable: none. */
function toIso(local: string): string | undefined {
  if (local.trim() === '') return undefined;
  const date = new Date(local.trim().replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Before/after side by side when the event carries both; the whole payload otherwise. */
function Change({ data }: { data: unknown }) {
  if (isRecord(data) && ('before' in data || 'after' in data)) {
    const before = isRecord(data['before']) ? data['before'] : {};
    const after = isRecord(data['after']) ? data['after'] : {};
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return (
      <table className="table compact diff">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const left = JSON.stringify(before[key]);
            const right = JSON.stringify(after[key]);
            return (
              <tr key={key} className={left === right ? undefined : 'changed'}>
                <th scope="row">{key}</th>
                <td>
                  <code>{left ?? '—'}</code>
                </td>
                <td>
                  <code>{right ?? '—'}</code>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    );
  }
  return <JsonView value={data} />;
}

export default function AuditPage() {
  return (
    <Suspense fallback={<Loading what="the audit trail" />}>
      <AuditTrail />
    </Suspense>
  );
}

function AuditTrail() {
  const id = useId();
  const [filters, setFilters] = useUrlFilters(FILTERS);
  const [draft, setDraft] = useState<Filters>(filters);
  const { cursor, cursors, setCursors } = useCursorPages();
  const events = useApi(routes.listAuditEvents, {
    query: {
      actor: nonEmpty(filters.actor),
      entity_type: nonEmpty(filters.entity_type),
      action: nonEmpty(filters.action),
      from: toIso(filters.from),
      to: toIso(filters.to),
      cursor,
      limit: 25,
    },
  });
  // Continues from the checkpoint the last verification left: only new events are walked.
  const [verifyAll, setVerifyAll] = useState(false);
  const verify = useApi(routes.verifyAuditChain, { query: verifyAll ? { full: 'true' } : {} });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setCursors([]);
    setFilters(draft);
  };
  const field = (name: keyof Filters, label: string, placeholder?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        type="text"
        placeholder={placeholder}
        value={draft[name]}
        onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      />
    </div>
  );

  return (
    <>
      <header className="page-header">
        <h1>Audit trail</h1>
        <p className="hint">
          Every change to tools, releases, policies and approvals, hash-chained so tampering shows.
        </p>
        <Loaded state={verify} what="chain verification">
          {(result) => (
            <ChainStatus
              result={result}
              verifyingAll={verifyAll && verify.loading}
              onVerifyAll={() => (verifyAll ? verify.reload() : setVerifyAll(true))}
            />
          )}
        </Loaded>
      </header>
      <form className="filters" role="search" aria-label="Filter audit events" onSubmit={apply}>
        {field('actor', 'Actor')}
        {field('entity_type', 'Entity type')}
        {field('action', 'Action')}
        {field('from', 'From', 'YYYY-MM-DD HH:MM')}
        {field('to', 'To', 'YYYY-MM-DD HH:MM')}
        <div className="actions">
          <button type="submit" className="primary">
            Apply
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
              setCursors([]);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <Loaded state={events} what="audit events">
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No audit events match.">
              <p>
                Clear the filters; events appear as tools, releases, policies and approvals change.
              </p>
            </Empty>
          ) : (
            <>
              <ol className="audit-list">
                {page.items.map((event) => (
                  <li key={event.id} className="card">
                    <details>
                      <summary>
                        <span className="hint">#{event.seq}</span> <strong>{event.action}</strong>{' '}
                        on {event.entity_type} <code>{event.entity_id.slice(0, 12)}</code> by{' '}
                        <ActorName actor={event.actor} actors={page.actors} />{' '}
                        <span className="hint">
                          <When at={event.occurred_at} />
                        </span>
                      </summary>
                      <Change data={event.data} />
                      <p className="hint mono">
                        hash {event.hash.slice(0, 16)}… prev {event.prev_hash.slice(0, 16)}…
                      </p>
                    </details>
                  </li>
                ))}
              </ol>
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
