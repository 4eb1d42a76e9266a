'use client';

import { routes, type Run } from '@toolgate/contract';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useSession, canAdminister } from '../../../components/session';
import { ErrorState, Loading } from '../../../components/states';
import { useApi } from '../../../components/use-api';
import { When } from '../../../components/when';
import { JsonView } from '../../../components/json-view';
import { canCancel, canCompensate, countOf, ENDED_RUN_STATUSES } from '../run-view';
import { CancelRun, CompensateRun, type RunChanged } from './run-actions';
import { RunCompensations, RunTimeline, StatusBadge } from './run-timeline';
import { RunTranscript } from './run-transcript';

export default function RunPage() {
  const { runId } = useParams<{ runId: string }>();
  const { user } = useSession();
  // A run that has not ended changes on its own: it is read again every few seconds until it has
  // (and again once an action sets it going).
  const [live, setLive] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const run = useApi(routes.getRun, { params: { runId } }, live ? { pollMs: 3000 } : {});
  const status = run.data?.status;
  useEffect(() => setLive(status === undefined || !ENDED_RUN_STATUSES.has(status)), [status]);

  if (run.error !== undefined && run.data === undefined)
    return <ErrorState error={run.error} onRetry={run.reload} />;
  if (run.data === undefined) return <Loading what="the run" />;
  return (
    <RunView
      run={run.data}
      mayAct={canAdminister(user.role)}
      notice={notice}
      onChanged={(said) => {
        setNotice(said);
        run.reload();
      }}
      live={live}
    />
  );
}

function RunView({
  run,
  mayAct,
  notice,
  onChanged,
  live,
}: {
  run: Run;
  mayAct: boolean;
  /** What the last action did. */
  notice: string | null;
  onChanged: RunChanged;
  live: boolean;
}) {
  const compensations = run.compensations;
  const irreversible = compensations.reduce(
    (sum, compensation) => sum + compensation.cannot_be_undone.length,
    0,
  );
  const failed =
    run.failed_step === null ? undefined : run.steps.find((step) => step.name === run.failed_step);
  const reason = run.reason ?? failed?.reason ?? null;
  return (
    <>
      <header className="page-header">
        <p className="breadcrumb">
          <Link href="/runs">Runs</Link> /
        </p>
        <h1>
          Run <code>{run.id.slice(0, 8)}</code>
        </h1>
        <p>
          <StatusBadge status={run.status} /> · {run.mode} mode · compensation {run.compensation}
          {run.conversation_id ? ` · conversation ${run.conversation_id}` : ''} · created{' '}
          <When at={run.created_at} /> · updated <When at={run.updated_at} />
          {live ? <span className="hint"> · refreshed every 3 seconds</span> : null}
        </p>
        {run.failed_step === null ? null : (
          <p className={run.status === 'failed' ? 'field-error' : 'warning'}>
            {run.status === 'awaiting_decision' ? 'Waiting for a decision on' : 'Stopped at'} step{' '}
            <strong>{run.failed_step}</strong>
            {reason ? (
              <>
                : <code>{reason.code}</code> {reason.message}
              </>
            ) : null}
          </p>
        )}
        {irreversible > 0 ? (
          <p className="warning cannot-be-undone">
            <strong>{countOf(irreversible, 'completed call')} cannot be undone</strong>: see
            Compensations.
          </p>
        ) : null}
        {run.status === 'awaiting_approval' ? (
          <p className="warning">
            A call waits for a person: decide it on the <Link href="/approvals">approvals</Link>{' '}
            page.
          </p>
        ) : null}
        {mayAct && (canCancel(run) || canCompensate(run)) ? (
          <div className="actions run-actions">
            {canCompensate(run) ? <CompensateRun run={run} onDone={onChanged} /> : null}
            {canCancel(run) ? <CancelRun run={run} onDone={onChanged} /> : null}
          </div>
        ) : null}
        {notice === null ? null : (
          <p className="success" role="status">
            {notice}
          </p>
        )}
        {!mayAct && (canCancel(run) || canCompensate(run)) ? (
          <p className="hint">Only admins can cancel, compensate or decide runs.</p>
        ) : null}
      </header>
      <div className="split wide-left">
        <section className="card" aria-labelledby="steps-heading">
          <h3 id="steps-heading">Steps</h3>
          <RunTimeline run={run} mayAct={mayAct} onChanged={onChanged} />
        </section>
        <div className="run-side">
          {compensations.length > 0 ? (
            <section className="card" aria-labelledby="compensations-heading">
              <h3 id="compensations-heading">Compensations</h3>
              <RunCompensations run={run} compensations={compensations} />
            </section>
          ) : null}
          {run.metadata === null ? null : (
            <section className="card" aria-labelledby="metadata-heading">
              <h3 id="metadata-heading">Metadata</h3>
              <JsonView value={run.metadata} label="Metadata" />
            </section>
          )}
          <RunTranscript runId={run.id} live={live} />
        </div>
      </div>
    </>
  );
}
