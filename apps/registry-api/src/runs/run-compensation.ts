import type { IrreversibleCall } from '@toolgate/contract';
import type { CallRow } from '@toolgate/persistence';
import { compensationFor, type ToolIR } from '@toolgate/toolir';
import { wireResultOf } from '../calls/calls.service';
import type { NewCompensationStep, RunStepRow, StoredCompensation } from './runs.repository';

/** A step's calls of its current view, each with the attempt its record belongs to. */
export interface StepCallsView {
  step: RunStepRow;
  calls: CallRow[];
}

/** What a compensation asks for: whose writes, and who asked. */
export interface CompensationRequest {
  /** The step whose completed writes are undone (with scope `run`: every step's). */
  target: RunStepRow;
  scope: 'step' | 'run';
  requestedBy: string;
  now: Date;
}

/** The attempt a step's call at `index` was recorded under (see `RunStepRow.callAttempts`). */
export function callAttemptOf(step: Pick<RunStepRow, 'attempt' | 'callAttempts'>, index: number) {
  return step.callAttempts[index] ?? step.attempt;
}

/** The compensation steps that undo (or undid) each call, by the call's id; cancelled ones do not count. */
export function compensationsByCall(steps: readonly StepCallsView[]): Map<string, RunStepRow> {
  const byCall = new Map<string, RunStepRow>();
  for (const { step } of steps) {
    if (step.compensates !== null && step.status !== 'cancelled') {
      byCall.set(step.compensates.call_id, step);
    }
  }
  return byCall;
}

/** Whether a call's effect stands: it succeeded and no compensation undid it. */
export function isInEffect(row: CallRow, compensations: ReadonlyMap<string, RunStepRow>): boolean {
  return row.status === 'succeeded' && compensations.get(row.id)?.status !== 'succeeded';
}

/** The completed calls in the request's scope that no compensation covers yet. */
export function uncompensatedCalls(
  steps: readonly StepCallsView[],
  request: Pick<CompensationRequest, 'target' | 'scope'>,
): Array<{ step: RunStepRow; row: CallRow; index: number }> {
  const compensations = compensationsByCall(steps);
  return steps
    .filter(({ step }) =>
      request.scope === 'step'
        ? step.id === request.target.id
        : step.compensates === null && step.position <= request.target.position,
    )
    .flatMap(({ step, calls }) =>
      calls
        .map((row, index) => ({ step, row, index }))
        .filter(({ row }) => row.status === 'succeeded' && !compensations.has(row.id)),
    );
}

/**
 * Plans a compensation: the completed calls in scope that are not compensated yet, latest first,
 * each undone by its tool's declared compensation as one step, chained so they run one at a time.
 * Readonly calls changed nothing and are left out; writes without a usable declaration are reported
 * as ones that cannot be undone. `toolOf` gives each call's recorded tool version.
 */
export function planCompensation(
  steps: readonly StepCallsView[],
  request: CompensationRequest,
  toolOf: (row: CallRow) => ToolIR | undefined,
): { steps: NewCompensationStep[]; report: StoredCompensation } {
  const done = uncompensatedCalls(steps, request);
  // Latest first: the reverse of the order the writes took effect.
  done.sort(
    (left, right) =>
      (right.row.finishedAt?.getTime() ?? 0) - (left.row.finishedAt?.getTime() ?? 0) ||
      right.step.position - left.step.position ||
      right.index - left.index,
  );
  const planned: NewCompensationStep[] = [];
  const cannotBeUndone: IrreversibleCall[] = [];
  for (const { step, row, index } of done) {
    const compensated = {
      step: step.name,
      call_id: row.id,
      tool: row.toolName,
      version: row.toolVersion,
    };
    const tool = toolOf(row);
    if (tool === undefined) {
      cannotBeUndone.push({ ...compensated, reason: `${row.toolName}@${row.toolVersion} is gone` });
      continue;
    }
    const plan = compensationFor(tool, {
      arguments: row.arguments,
      result: wireResultOf(row).data,
    });
    if (plan.kind === 'nothing_to_undo') continue;
    if (plan.kind === 'cannot_be_undone') {
      cannotBeUndone.push({ ...compensated, reason: plan.reason });
      continue;
    }
    const previous = planned.at(-1);
    planned.push({
      name: `undo:${step.name}.${index}:${callAttemptOf(step, index)}`,
      call: {
        tool: plan.tool,
        ...(plan.version === undefined ? {} : { version: plan.version }),
        arguments: plan.arguments,
      },
      compensates: compensated,
      dependsOn: previous === undefined ? [] : [previous.name],
    });
  }
  return {
    steps: planned,
    report: {
      requested_by: request.requestedBy,
      requested_at: request.now.toISOString(),
      failed_step: request.target.name,
      failed_attempt: request.target.attempt,
      scope: request.scope,
      steps: planned.map((step) => step.name),
      cannot_be_undone: cannotBeUndone,
    },
  };
}
