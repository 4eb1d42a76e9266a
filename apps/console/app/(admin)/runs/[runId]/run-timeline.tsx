'use client';

import type { Run, RunCompensation, RunStep } from '@toolgate/contract';
import Link from 'next/link';
import { ActorName } from '../../../components/actor-name';
import { When } from '../../../components/when';
import { formatMs } from '../../../lib/format';
import {
  callFatesOf,
  errorCodeOf,
  stepDurationMs,
  stepsInOrder,
  takesDecision,
  type CallFates,
} from '../run-view';
import { StepDecision, type RunChanged } from './run-actions';

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status.replaceAll('_', ' ')}</span>;
}

/** When a step started and when it was checkpointed, and how long it took. */
function Checkpoints({ step, runStart }: { step: RunStep; runStart: string }) {
  if (step.started_at === null) return <p className="hint">Not started.</p>;
  const duration = stepDurationMs(step);
  const afterRun = Date.parse(step.started_at) - Date.parse(runStart);
  return (
    <dl className="pairs step-checkpoints">
      <dt>started</dt>
      <dd>
        <When at={step.started_at} />{' '}
        <span className="hint">({formatMs(afterRun)} after the run began)</span>
      </dd>
      <dt>checkpointed</dt>
      <dd>
        {step.finished_at === null ? (
          <span className="hint">not yet</span>
        ) : (
          <>
            <When at={step.finished_at} /> <span className="hint">(took {formatMs(duration)})</span>
          </>
        )}
      </dd>
    </dl>
  );
}

function StepItem({
  run,
  step,
  fates,
  mayAct,
  onChanged,
}: {
  run: Run;
  step: RunStep;
  fates: CallFates;
  mayAct: boolean;
  onChanged: RunChanged;
}) {
  const undoes = step.compensates;
  return (
    <li
      className={`run-step step-${step.status} step-kind-${step.kind}`}
      aria-label={`Step ${step.name}`}
    >
      <p className="run-step-head">
        <strong className="run-step-name">{step.name}</strong>{' '}
        <span className={`badge kind-${step.kind}`}>{step.kind}</span>{' '}
        <StatusBadge status={step.status} />{' '}
        <span className="hint">
          attempt {step.attempt}
          {step.depends_on.length > 0 ? ` · after ${step.depends_on.join(', ')}` : ''}
        </span>
      </p>
      {undoes ? (
        <p className="compensates">
          Undoes call <Link href={`/calls/${undoes.call_id}`}>{undoes.call_id.slice(0, 8)}</Link> (
          {undoes.tool}@{undoes.version}) of step {undoes.step}
        </p>
      ) : null}
      {step.reason ? (
        <p className={step.status === 'failed' ? 'field-error' : 'warning'}>
          <code>{step.reason.code}</code> {step.reason.message}
          {step.reason.retryable ? ' (retrying may succeed)' : ''}
        </p>
      ) : null}
      <Checkpoints step={step} runStart={run.created_at} />
      {step.calls.length === 0 ? null : (
        <ul className="step-calls" aria-label={`Calls of ${step.name}`}>
          {step.calls.map((call) => {
            // a cancelled or waiting call says so in its badge; a failed one says why
            const code = call.status === 'failed' ? errorCodeOf(call) : null;
            const undoneBy = fates.undoneBy.get(call.id);
            const irreversible = fates.cannotBeUndone.get(call.id);
            return (
              <li key={call.id}>
                <Link href={`/calls/${call.id}`}>
                  {call.tool}@{call.version}
                </Link>{' '}
                <StatusBadge status={call.status} />
                {code === null ? null : (
                  <>
                    {' '}
                    <code>{code}</code>
                  </>
                )}
                {undoneBy === undefined ? null : (
                  <span className="hint">
                    {' '}
                    · undone by {undoneBy.name} ({undoneBy.status.replaceAll('_', ' ')})
                  </span>
                )}
                {irreversible === undefined ? null : (
                  <span className="field-error"> · cannot be undone: {irreversible.reason}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {mayAct && takesDecision(run, step) ? (
        <StepDecision run={run} step={step} onDone={onChanged} />
      ) : null}
    </li>
  );
}

/** The run's steps as a vertical timeline, in the order they were checkpointed. */
export function RunTimeline({
  run,
  mayAct,
  onChanged,
}: {
  run: Run;
  mayAct: boolean;
  onChanged: RunChanged;
}) {
  const steps = stepsInOrder(run);
  const fates = callFatesOf(run);
  if (steps.length === 0)
    return (
      <p className="hint">
        No steps yet:{' '}
        {run.mode === 'plan' ? 'the app has not posted its plan' : 'no turn was posted'}.
      </p>
    );
  return (
    <ol className="timeline run-timeline">
      {steps.map((step) => (
        <StepItem
          key={step.name}
          run={run}
          step={step}
          fates={fates}
          mayAct={mayAct}
          onChanged={onChanged}
        />
      ))}
    </ol>
  );
}

function CompensationItem({ run, compensation }: { run: Run; compensation: RunCompensation }) {
  const steps = new Map(run.steps.map((step) => [step.name, step]));
  return (
    <li className="run-compensation">
      <p>
        {compensation.requested_by === 'automatic' ? (
          <strong>Automatic</strong>
        ) : (
          <>
            Asked by <ActorName actor={compensation.requested_by} actors={undefined} />
          </>
        )}{' '}
        <When at={compensation.requested_at} /> · scope {compensation.scope}
        {compensation.failed_step ? ` · after step ${compensation.failed_step} failed` : ''}
      </p>
      {compensation.cannot_be_undone.length > 0 ? (
        <div className="warning cannot-be-undone" role="note">
          <p>
            <strong>
              {compensation.cannot_be_undone.length === 1
                ? '1 call cannot be undone'
                : `${compensation.cannot_be_undone.length} calls cannot be undone`}
            </strong>
          </p>
          <ul>
            {compensation.cannot_be_undone.map((call) => (
              <li key={call.call_id}>
                <Link href={`/calls/${call.call_id}`}>
                  {call.tool}@{call.version}
                </Link>{' '}
                of step {call.step}: {call.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {compensation.steps.length === 0 ? (
        <p className="hint">It added no compensation step.</p>
      ) : (
        <>
          <p className="hint">Compensation steps, in the order they run:</p>
          <ol className="plain-list">
            {compensation.steps.map((name) => {
              const step = steps.get(name);
              return (
                <li key={name}>
                  {name} {step ? <StatusBadge status={step.status} /> : null}
                  {step?.compensates ? (
                    <span className="hint">
                      {' '}
                      undoes {step.compensates.tool}@{step.compensates.version} of step{' '}
                      {step.compensates.step}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </li>
  );
}

/** Every compensation asked of the run, oldest first, what it undoes and what it cannot. */
export function RunCompensations({
  run,
  compensations,
}: {
  run: Run;
  compensations: readonly RunCompensation[];
}) {
  return (
    <ol className="run-compensations">
      {compensations.map((compensation) => (
        <CompensationItem
          key={`${compensation.requested_at}-${compensation.steps.join(',')}`}
          run={run}
          compensation={compensation}
        />
      ))}
    </ol>
  );
}
