'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { routes, type Actors, type Approval } from '@toolgate/contract';
import { formatTimeLeft } from '../../lib/format';
import { ActorName } from '../../components/actor-name';
import { When } from '../../components/when';
import { ApprovalDecision } from '../../components/forms/approval-decision';
import { SelfApprovalSettings } from '../../components/forms/self-approval-settings';
import { JsonView } from '../../components/json-view';
import { canAdminister, canDecide, useSession } from '../../components/session';
import { Empty, Loaded } from '../../components/states';
import { useApi } from '../../components/use-api';

function ApprovalCard({
  approval,
  now,
  allowed,
  actors,
  onDecided,
}: {
  approval: Approval;
  now: number;
  allowed: boolean;
  actors: Actors;
  onDecided: (approval: Approval) => void;
}) {
  const call = useApi(routes.getCall, { params: { callId: approval.call_id } });
  const expired =
    approval.status === 'expired' ||
    (approval.status === 'pending' && Date.parse(approval.expires_at) <= now);
  return (
    <article
      className={`card approval ${expired ? 'is-expired' : ''}`}
      aria-labelledby={`approval-${approval.id}`}
    >
      <header className="approval-header">
        <h3 id={`approval-${approval.id}`}>
          {call.data?.tool.name ?? 'Tool'} <span className="hint">v{approval.tool_version}</span>
        </h3>
        <span className={`badge ${expired ? 'status-expired' : 'status-awaiting_approval'}`}>
          {approval.status === 'pending'
            ? formatTimeLeft(approval.expires_at, now)
            : approval.status}
        </span>
      </header>
      <dl className="pairs">
        <dt>Requester</dt>
        <dd>
          <ActorName actor={approval.requested_by} actors={actors} />
        </dd>
        <dt>Conversation</dt>
        <dd>{call.data?.conversation_id ?? '—'}</dd>
        <dt>Why approval</dt>
        <dd>{approval.policy_reason ?? approval.reason}</dd>
        <dt>Requested</dt>
        <dd>
          <When at={approval.created_at} />
        </dd>
        <dt>Call</dt>
        <dd>
          <Link href={`/calls/${approval.call_id}`}>{approval.call_id}</Link>
        </dd>
      </dl>
      <h4>Arguments</h4>
      {call.data ? (
        <JsonView value={call.data.arguments} highlightDestructive label="Arguments" />
      ) : call.error !== undefined ? (
        <p className="field-error">Arguments unavailable.</p>
      ) : (
        <p className="hint">Loading arguments…</p>
      )}
      <ApprovalDecision
        approval={approval}
        allowed={allowed}
        now={now}
        callArguments={call.data?.arguments}
        actors={actors}
        onDecided={onDecided}
      />
    </article>
  );
}

export default function ApprovalsPage() {
  const { user } = useSession();
  const allowed = canDecide(user.role);
  // Polling: every few seconds is live enough for a person and works through any proxy.
  const pending = useApi(
    routes.listApprovals,
    { query: { status: 'pending', limit: 100 } },
    { pollMs: 3000 },
  );
  const recent = useApi(routes.listApprovals, { query: { limit: 30 } }, { pollMs: 10_000 });
  const teams = useApi(routes.listTeams, {});
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const [lastDecision, setLastDecision] = useState<Approval | null>(null);
  // The decided card leaves the queue at once; this line says what happened to it.
  const decided = (approval: Approval) => {
    setLastDecision(approval);
    pending.reload();
    recent.reload();
  };

  return (
    <>
      <header className="page-header">
        <h1>Approvals</h1>
        <p className="hint">Calls waiting for a person. The queue refreshes every 3 seconds.</p>
        {!allowed ? (
          <p className="warning">
            You are a viewer: you can watch the queue, but only approvers and admins decide.
          </p>
        ) : null}
        {lastDecision ? (
          <p className="success" role="status">
            Call {lastDecision.call_id.slice(0, 8)} {lastDecision.status} by{' '}
            <ActorName actor={lastDecision.decided_by} actors={recent.data?.actors} />.
          </p>
        ) : null}
      </header>
      <Loaded state={pending} what="the approval queue">
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="Nothing waits for approval.">
              <p>
                Destructive calls and calls a policy marks for approval appear here as they arrive.
              </p>
            </Empty>
          ) : (
            <div className="approval-list">
              {page.items.map((approval) => (
                <ApprovalCard
                  key={approval.id}
                  approval={approval}
                  now={now}
                  allowed={allowed}
                  actors={page.actors}
                  onDecided={decided}
                />
              ))}
            </div>
          )
        }
      </Loaded>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recently decided or expired</h2>
        <Loaded state={recent} what="recent approvals">
          {(page) => {
            const done = page.items.filter((approval) => approval.status !== 'pending');
            return done.length === 0 ? (
              <p className="hint">No decisions yet.</p>
            ) : (
              <table className="table">
                <caption className="sr-only">Recent approvals</caption>
                <thead>
                  <tr>
                    <th scope="col">Call</th>
                    <th scope="col">Status</th>
                    <th scope="col">By</th>
                    <th scope="col">Reason</th>
                    <th scope="col">When</th>
                  </tr>
                </thead>
                <tbody>
                  {done.map((approval) => (
                    <tr key={approval.id}>
                      <td>
                        <Link href={`/calls/${approval.call_id}`}>
                          {approval.call_id.slice(0, 8)}
                        </Link>
                      </td>
                      <td>
                        <span className={`badge status-${approval.status}`}>{approval.status}</span>
                      </td>
                      <td>
                        <ActorName actor={approval.decided_by} actors={page.actors} />
                      </td>
                      <td>{approval.decision_reason ?? '—'}</td>
                      <td>
                        <When at={approval.decided_at ?? approval.expires_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          }}
        </Loaded>
      </section>
      <Loaded state={teams} what="teams">
        {(page) => (
          <SelfApprovalSettings
            teams={page.items}
            disabled={!canAdminister(user.role)}
            onChanged={() => teams.reload()}
          />
        )}
      </Loaded>
    </>
  );
}
