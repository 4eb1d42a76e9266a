/** What the Runs pages read off a run: which actions it takes and what compensating would undo. */
import type { IrreversibleCall, Run, RunStatus, RunStep, RunStepCall } from '@toolgate/contract';

/** A run in one of these has ended (a failed run can still be retried, re-planned or compensated). */
export const ENDED_RUN_STATUSES: ReadonlySet<RunStatus> = new Set([
  'succeeded',
  'failed',
  'cancelled',
]);

/** Runs that wait for someone to decide: a step failed, or its outcome is unknown. */
const STOPPED_RUN_STATUSES: ReadonlySet<RunStatus> = new Set(['failed', 'awaiting_decision']);

export function canCancel(run: Pick<Run, 'status'>): boolean {
  return !ENDED_RUN_STATUSES.has(run.status);
}

/**
 * Whether compensating can do anything now: the run stopped (or runs ReAct turns, which the gateway
 * compensates between turns), and some completed call of it is not undone yet. Whether that call is
 * a write only the tools' declarations tell, so a run of reads still offers it (the forecast says so).
 */
export function canCompensate(run: Run): boolean {
  const open =
    STOPPED_RUN_STATUSES.has(run.status) || (run.mode === 'react' && run.status === 'running');
  return open && callsToUndo(run, null, 'run').length > 0;
}

/** Whether `step` takes a retry, skip or fail decision now. */
export function takesDecision(run: Pick<Run, 'status'>, step: RunStep): boolean {
  return (
    STOPPED_RUN_STATUSES.has(run.status) &&
    (step.status === 'failed' || step.status === 'outcome_unknown')
  );
}

/** The steps in the order they were checkpointed into the run. */
export function stepsInOrder(run: Run): RunStep[] {
  return [...run.steps].sort((left, right) => left.position - right.position);
}

/** The calls of the run that have not ended, the ones a cancel cancels. */
export function openCalls(run: Run): RunStepCall[] {
  const ended = new Set(['succeeded', 'failed', 'cancelled', 'outcome_unknown']);
  return run.steps.flatMap((step) => step.calls.filter((call) => !ended.has(call.status)));
}

/** The error code of a call's failed result, if it has one. */
export function errorCodeOf(call: RunStepCall): string | null {
  return call.result !== null && !call.result.ok ? (call.result.error?.code ?? null) : null;
}

/** How long a step ran, from its start to its checkpoint; null until both are known. */
export function stepDurationMs(step: Pick<RunStep, 'started_at' | 'finished_at'>): number | null {
  if (step.started_at === null || step.finished_at === null) return null;
  return Date.parse(step.finished_at) - Date.parse(step.started_at);
}

/** A completed call a compensation could undo, with the step that made it. */
export interface CompletedCall {
  step: RunStep;
  call: RunStepCall;
}

// A compensation step in one of these has undone its call, or still may.
const UNDOING_STEP_STATUSES = new Set<RunStep['status']>([
  'pending',
  'running',
  'succeeded',
  'outcome_unknown',
]);

/**
 * The completed calls that compensating `stepName` (scope `step`) or the whole run (scope `run`)
 * would undo: succeeded calls of plan steps and turns that no compensation step has undone (or is
 * undoing), latest step first. The gateway orders them by when each call finished, which only the
 * call records carry (the compensation preview reads them); reads among them change nothing, which
 * only the tools' declarations tell.
 */
export function callsToUndo(
  run: Run,
  stepName: string | null,
  scope: 'step' | 'run',
): CompletedCall[] {
  const undone = new Set(
    run.steps
      .filter((step) => step.kind === 'compensation' && UNDOING_STEP_STATUSES.has(step.status))
      .flatMap((step) => (step.compensates ? [step.compensates.call_id] : [])),
  );
  const steps = run.steps.filter(
    (step) => step.kind !== 'compensation' && (scope === 'run' || step.name === stepName),
  );
  const completed = steps.flatMap((step) =>
    step.calls
      .filter((call) => call.status === 'succeeded' && !undone.has(call.id))
      .map((call) => ({ step, call })),
  );
  // Latest first: by the step's checkpoint, then by the call's place in its step.
  const finished = (entry: CompletedCall) =>
    Date.parse(entry.step.finished_at ?? entry.step.started_at ?? run.updated_at);
  return completed.sort(
    (left, right) =>
      finished(right) - finished(left) ||
      right.step.position - left.step.position ||
      right.call.index - left.call.index,
  );
}

/** What compensations made of the run's calls: the step that undoes each, or why none can. */
export interface CallFates {
  undoneBy: ReadonlyMap<string, RunStep>;
  cannotBeUndone: ReadonlyMap<string, IrreversibleCall>;
}

export function callFatesOf(run: Run): CallFates {
  const undoneBy = new Map<string, RunStep>();
  for (const step of run.steps) if (step.compensates) undoneBy.set(step.compensates.call_id, step);
  const cannotBeUndone = new Map<string, IrreversibleCall>();
  for (const compensation of run.compensations)
    for (const call of compensation.cannot_be_undone) cannotBeUndone.set(call.call_id, call);
  return { undoneBy, cannotBeUndone };
}

/** `1 call` / `3 calls`. */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
