'use client';

import {
  routes,
  type Actors,
  type Call,
  type CallStatus,
  type CallTimelineEvent,
} from '@toolgate/contract';
import Link from 'next/link';
import { Fragment, useState } from 'react';
import { useParams } from 'next/navigation';
import { formatMs } from '../../../lib/format';
import { ActorName } from '../../../components/actor-name';
import { When } from '../../../components/when';
import { traceUrlOf } from '../../../lib/trace-url';
import { wirePreview } from '../../../lib/wire-preview';
import { ArgumentReplay } from '../../../components/argument-replay';
import { JsonView } from '../../../components/json-view';
import { ErrorState, Loading } from '../../../components/states';
import { useApi } from '../../../components/use-api';
import { CallCost } from './call-cost';

const TERMINAL = new Set<CallStatus>(['succeeded', 'failed', 'cancelled', 'outcome_unknown']);

/** An event's detail as short `key value` pairs; nested values stay JSON. */
// members naming who acted; shown by name (`key:<id>` on hover)
const ACTOR_MEMBERS = new Set(['actor', 'decided_by']);

function EventDetail({
  detail,
  actors,
}: {
  detail: CallTimelineEvent['detail'];
  actors: Actors | undefined;
}) {
  const entries = Object.entries<unknown>(detail).filter(
    ([, value]) => value !== null && value !== undefined,
  );
  if (entries.length === 0) return null;
  return (
    <dl className="pairs event-detail">
      {entries.map(([key, value]) => (
        <Fragment key={key}>
          <dt>{key.replaceAll('_', ' ')}</dt>
          <dd>
            {typeof value === 'string' && ACTOR_MEMBERS.has(key) ? (
              <ActorName actor={value} actors={actors} />
            ) : key.endsWith('_at') && typeof value === 'string' ? (
              <When at={value} />
            ) : typeof value === 'string' ? (
              value
            ) : (
              JSON.stringify(value)
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The raw request and result, in the provider's wire format when the call came in one. */
function RawCall({ call }: { call: Call }) {
  const wire = wirePreview(call);
  const [view, setView] = useState<'wire' | 'ir'>('wire');
  const shown = wire !== null && view === 'wire' ? 'wire' : 'ir';
  const request =
    shown === 'wire'
      ? wire?.request
      : { id: call.provider_call_id, name: call.tool.name, arguments: call.arguments };
  const result = shown === 'wire' ? wire?.result : call.result;
  return (
    <section className="card" aria-labelledby="raw-heading">
      <h3 id="raw-heading">
        Request {shown === 'wire' ? `(${call.provider} wire format)` : '(ToolIR)'}
      </h3>
      {wire !== null ? (
        <div role="tablist" aria-label="Format" className="tabs">
          <button
            type="button"
            role="tab"
            aria-selected={shown === 'wire'}
            className={shown === 'wire' ? 'active' : undefined}
            onClick={() => setView('wire')}
          >
            {call.provider}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={shown === 'ir'}
            className={shown === 'ir' ? 'active' : undefined}
            onClick={() => setView('ir')}
          >
            ToolIR
          </button>
        </div>
      ) : null}
      <JsonView value={request} label="Request" />
      <h3>Result</h3>
      {result === null || result === undefined ? (
        <p className="hint">No result yet.</p>
      ) : (
        <JsonView value={result} label="Result" />
      )}
    </section>
  );
}

export default function CallPage() {
  const { callId } = useParams<{ callId: string }>();
  const call = useApi(routes.getCall, { params: { callId } }, { pollMs: 2000 });
  const finished = call.data !== undefined && TERMINAL.has(call.data.status);
  const timeline = useApi(
    routes.getCallTimeline,
    { params: { callId } },
    finished ? {} : { pollMs: 2000 },
  );

  if (call.error !== undefined && call.data === undefined)
    return <ErrorState error={call.error} onRetry={call.reload} />;
  if (call.data === undefined) return <Loading what="the call" />;
  const current = call.data;
  const events = timeline.data?.events ?? [];
  const traceUrl = traceUrlOf(current.trace_id);

  return (
    <>
      <header className="page-header">
        <p className="breadcrumb">
          <Link href="/calls">Calls</Link> /
        </p>
        <h1>
          {current.tool.name} <span className="hint">v{current.tool.version}</span>
        </h1>
        <p>
          <span className={`badge status-${current.status}`}>
            {current.status.replaceAll('_', ' ')}
          </span>{' '}
          {current.cache_age_ms === null ? null : (
            <>
              <span
                className="badge answered-by-cache"
                title="Answered by the tool version's result cache, without executing the tool"
              >
                from cache · {formatMs(current.cache_age_ms)} old
              </span>{' '}
            </>
          )}
          {current.error_code ? <code>{current.error_code}</code> : null} · {current.attempts}{' '}
          attempt
          {current.attempts === 1 ? '' : 's'} · latency {formatMs(current.latency_ms)} · provider{' '}
          {current.provider}
          {current.conversation_id ? ` · conversation ${current.conversation_id}` : ''}
          {traceUrl === undefined ? null : (
            <>
              {' · '}
              <a href={traceUrl} target="_blank" rel="noreferrer">
                trace
              </a>
            </>
          )}
        </p>
        {current.status === 'awaiting_approval' ? (
          <p className="warning">
            Waiting for a person: decide it on the <Link href="/approvals">approvals</Link> page.
          </p>
        ) : null}
      </header>
      <div className="split">
        <section className="card" aria-labelledby="timeline-heading">
          <h3 id="timeline-heading">Timeline</h3>
          {timeline.data === undefined && timeline.error === undefined ? (
            <Loading what="the timeline" />
          ) : null}
          {timeline.data === undefined && timeline.error !== undefined ? (
            <ErrorState error={timeline.error} onRetry={timeline.reload} />
          ) : null}
          <ol className="timeline">
            {events.map((event, index) => (
              <li key={`${event.at}-${event.type}-${index}`} className={`event-${event.type}`}>
                <span className="timeline-type">{event.type.replaceAll('_', ' ')}</span>{' '}
                <When at={event.at} />
                <EventDetail detail={event.detail} actors={timeline.data?.actors} />
              </li>
            ))}
          </ol>
          {current.decision ? (
            <p className="hint">
              Policy: {current.decision.effect}
              {current.decision.rule ? ` by ${current.decision.rule}` : ''}
              {current.decision.policy_revision
                ? ` (revision ${current.decision.policy_revision})`
                : ''}
            </p>
          ) : null}
        </section>
        <RawCall call={current} />
      </div>
      <CallCost cost={current.cost} />
      {current.partial_states === null ? null : (
        <ArgumentReplay finalArguments={current.arguments} states={current.partial_states} />
      )}
    </>
  );
}
