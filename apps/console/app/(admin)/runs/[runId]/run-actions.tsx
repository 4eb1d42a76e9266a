'use client';

import { routes, type Run, type RunStep } from '@toolgate/contract';
import { useId, useState, type ReactNode } from 'react';
import { ApiError, apiRequest, describeError } from '../../../lib/api';
import { ConfirmButton } from '../../../components/confirm-button';
import { callsToUndo, countOf, openCalls, type CompletedCall } from '../run-view';
import { useCompensationPreview, type CompensationPreview } from './use-compensation-preview';

/** An action's failure as the API explained it: the problem's title, then its detail. */
export function ActionProblem({ error }: { error: unknown }) {
  if (error instanceof ApiError) {
    const detail = [error.problem.detail, ...error.problem.errors.map((issue) => issue.message)]
      .filter((part) => part !== '')
      .join(' — ');
    return (
      <p className="field-error" role="alert">
        <strong>{error.problem.title}</strong>
        {detail === '' ? null : <> {detail}</>}
      </p>
    );
  }
  return (
    <p className="field-error" role="alert">
      {describeError(error)}
    </p>
  );
}

/** What the page does once an action went through: say what happened, and read the run again. */
export type RunChanged = (notice: string) => void;

/**
 * One run action at a time: busy while it runs, its problem after. What it did is said by the
 * page, since the action's own buttons go once the run moved on.
 */
function useRunAction(onDone: RunChanged) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const act = (send: () => Promise<Run>, said: (run: Run) => string) => {
    setBusy(true);
    setError(undefined);
    send().then(
      (run) => {
        setBusy(false);
        onDone(said(run));
      },
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  const outcome: ReactNode = error === undefined ? null : <ActionProblem error={error} />;
  return { busy, act, outcome };
}

export function CancelRun({ run, onDone }: { run: Run; onDone: RunChanged }) {
  const { busy, act, outcome } = useRunAction(onDone);
  const open = openCalls(run).length;
  return (
    <div className="run-action">
      <ConfirmButton
        label="Cancel run"
        disabled={busy}
        question={`This cancels the run: ${
          open === 0
            ? 'no call is running now'
            : `its ${countOf(open, 'unfinished call')} ${open === 1 ? 'is' : 'are'} cancelled`
        } and no further step starts. Completed calls are not undone.`}
        onConfirm={() =>
          act(
            () => apiRequest(routes.cancelRun, { params: { runId: run.id } }),
            () => 'The run was cancelled.',
          )
        }
      />
      {outcome}
    </div>
  );
}

// The call's short id tells apart the calls of one tool in one step, as the timeline shows them.
function callLabel({ step, call }: CompletedCall): string {
  return `${call.tool}@${call.version} (step ${step.name}, call ${call.id.slice(0, 8)})`;
}

/** What a compensation will do, said before it does. */
function CompensationForecast({
  calls,
  preview,
}: {
  calls: CompletedCall[];
  preview: CompensationPreview | null;
}) {
  if (calls.length === 0)
    return (
      <p>
        No completed call is left to undo here: the API will answer that there is nothing to undo.
      </p>
    );
  if (preview === null || preview.state === 'loading')
    return (
      <p role="status">Reading how the {countOf(calls.length, 'completed call')} can be undone…</p>
    );
  if (preview.state === 'failed')
    return (
      <p>
        This undoes the completed writes among {countOf(calls.length, 'call')}, latest first; writes
        without a declared compensation are reported, not undone. (Which calls are writes could not
        be read: {describeError(preview.error)})
      </p>
    );
  const undone = preview.undos.filter((undo) => undo.plan.kind === 'compensate');
  const stuck = preview.undos.filter((undo) => undo.plan.kind === 'cannot_be_undone');
  const reads = preview.undos.length - undone.length - stuck.length;
  return (
    <>
      <p>
        <strong>
          This runs {countOf(undone.length, 'compensating call')}
          {undone.length > 1 ? ', latest first' : ''}; {countOf(stuck.length, 'call')} cannot be
          undone.
        </strong>
        {reads > 0
          ? ` ${countOf(reads, 'read')} changed nothing and ${reads === 1 ? 'is' : 'are'} left as ${reads === 1 ? 'it is' : 'they are'}.`
          : ''}
      </p>
      {undone.length > 0 ? (
        <ol className="plain-list">
          {undone.map((undo) =>
            undo.plan.kind === 'compensate' ? (
              <li key={undo.call.id}>
                {undo.plan.tool} undoes {callLabel(undo)}
              </li>
            ) : null,
          )}
        </ol>
      ) : null}
      {stuck.length > 0 ? (
        <ul className="warning cannot-be-undone">
          {stuck.map((undo) =>
            undo.plan.kind === 'cannot_be_undone' ? (
              <li key={undo.call.id}>
                Cannot be undone: {callLabel(undo)} — {undo.plan.reason}
              </li>
            ) : null,
          )}
        </ul>
      ) : null}
    </>
  );
}

/** Compensate a failed or stopped run: the failed step's completed writes, or the whole run's. */
export function CompensateRun({ run, onDone }: { run: Run; onDone: RunChanged }) {
  const id = useId();
  const { busy, act, outcome } = useRunAction(onDone);
  const [asking, setAsking] = useState(false);
  const [scope, setScope] = useState<'step' | 'run'>(run.failed_step === null ? 'run' : 'step');
  const calls = asking ? callsToUndo(run, run.failed_step, scope) : null;
  const preview = useCompensationPreview(calls);

  return (
    <div className="run-action">
      {asking ? (
        <div className="confirm-block" role="group" aria-label="Confirm: compensate">
          <fieldset className="scope-choice">
            <legend>Undo the completed writes of</legend>
            <label>
              <input
                type="radio"
                name={`${id}-scope`}
                value="step"
                checked={scope === 'step'}
                disabled={run.failed_step === null}
                onChange={() => setScope('step')}
              />{' '}
              {run.failed_step === null ? 'the failed step (none)' : `step ${run.failed_step}`}
            </label>
            <label>
              <input
                type="radio"
                name={`${id}-scope`}
                value="run"
                checked={scope === 'run'}
                onChange={() => setScope('run')}
              />{' '}
              the whole run (every step)
            </label>
          </fieldset>
          <CompensationForecast calls={calls ?? []} preview={preview} />
          <div className="actions">
            <button
              type="button"
              className="danger"
              autoFocus
              disabled={busy}
              onClick={() => {
                setAsking(false);
                act(
                  () =>
                    apiRequest(routes.compensateRun, {
                      params: { runId: run.id },
                      body: {
                        scope,
                        ...(run.failed_step === null ? {} : { step: run.failed_step }),
                      },
                    }),
                  (after) => {
                    const added = after.compensations.at(-1);
                    if (added === undefined) return 'Compensation asked.';
                    return `Compensation asked: ${countOf(added.steps.length, 'compensation step')} added${
                      added.cannot_be_undone.length > 0
                        ? `; ${countOf(added.cannot_be_undone.length, 'call')} cannot be undone`
                        : ''
                    }.`;
                  },
                );
              }}
            >
              Yes, compensate
            </button>
            <button type="button" onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="danger" disabled={busy} onClick={() => setAsking(true)}>
          Compensate…
        </button>
      )}
      {outcome}
    </div>
  );
}

const DECISIONS = ['retry', 'skip', 'fail'] as const;
type Decision = (typeof DECISIONS)[number];

function decisionQuestion(decision: Decision, run: Run, step: RunStep): string {
  const dependents = run.steps
    .filter((entry) => entry.depends_on.includes(step.name))
    .map((entry) => entry.name);
  switch (decision) {
    case 'retry':
      return `This runs step ${step.name} again (attempt ${step.attempt + 1}): its calls whose effect is not in place run again under new idempotency keys; a call that succeeded and stands is kept, not repeated.`;
    case 'skip':
      return `This marks step ${step.name} skipped; ${
        dependents.length === 0
          ? 'no step depends on it'
          : `${dependents.join(', ')} go${dependents.length === 1 ? 'es' : ''} on without it`
      }. Its completed calls are not undone.`;
    case 'fail':
      return `This ends the run as failed at step ${step.name}. Its completed calls are not undone (compensate for that).`;
  }
}

/** Retry, skip or fail a step that failed or whose outcome is unknown. */
export function StepDecision({
  run,
  step,
  onDone,
}: {
  run: Run;
  step: RunStep;
  onDone: RunChanged;
}) {
  const { busy, act, outcome } = useRunAction(onDone);
  return (
    <div className="run-action" role="group" aria-label={`Decide step ${step.name}`}>
      <div className="actions">
        {DECISIONS.map((decision) => (
          <ConfirmButton
            key={decision}
            label={`${decision[0]!.toUpperCase()}${decision.slice(1)} ${step.name}`}
            tone={decision === 'retry' ? 'primary' : 'danger'}
            disabled={busy}
            question={decisionQuestion(decision, run, step)}
            onConfirm={() =>
              act(
                () =>
                  apiRequest(routes.decideRun, {
                    params: { runId: run.id },
                    body: { step: step.name, action: decision },
                  }),
                (after) =>
                  `Decided: ${decision} ${step.name}; the run is ${after.status.replaceAll('_', ' ')}.`,
              )
            }
          />
        ))}
      </div>
      {outcome}
    </div>
  );
}
