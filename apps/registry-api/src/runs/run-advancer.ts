import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RunReason, RunStatus } from '@toolgate/contract';
import { FINAL_CALL_STATUSES, type CallRow, type RunStepCallRow } from '@toolgate/persistence';
import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import type { Principal } from '../auth/principal';
import { CallsService, wireResultOf } from '../calls/calls.service';
import { GatewayHost } from '../calls/gateway-host';
import { ToolException } from '../problem/tool.exception';
import { callAttemptOf, planCompensation, uncompensatedCalls } from './run-compensation';
import {
  FINAL_RUN_STATUSES,
  PlanConflict,
  RunsRepository,
  type RunRow,
  type RunStepRow,
} from './runs.repository';
import { resolveStepReferences, type ReferencedCall } from './step-references';

// How long one job keeps advancing a run before it hands on to a later job (so one long run does
// not hold a queue slot), and how often a run waiting for a person looks again: a decision
// advances the run at once (RunQueue.advanceRunsOfCalls), so this look is only a safety net for a
// run that waits for hours.
const PASS_BUDGET_MS = 10_000;
const CALL_WAIT_MS = 1_000;
const APPROVAL_POLL_MS = 15_000;

/** What one advance came to: the run needs nothing more now, or should be looked at again. */
export type AdvanceOutcome = { kind: 'done' } | { kind: 'later'; delayMs: number };

/** What one look at a run came to: nothing to wait for, or calls (none: a person) to wait on. */
type PassOutcome = { kind: 'done' } | { kind: 'waiting'; waitingOn: string[] };

/** A step's calls of its current attempt, in their order. */
export interface StepCalls {
  step: RunStepRow;
  calls: CallRow[];
}

/** The idempotency key a step attempt's calls are recorded under: a crash replays it, a retry does not. */
export function stepIdempotencyKey(
  run: Pick<RunRow, 'id'>,
  step: Pick<RunStepRow, 'name' | 'attempt'>,
): string {
  return `run:${run.id}:${step.name}:${step.attempt}`;
}

/** The principal a run's calls are made for: its owner, as the request that created it. */
export function principalOfRun(run: RunRow): Principal {
  return {
    actor: run.actor,
    teamId: run.teamId,
    keyId: run.keyId,
    scopes: new Set(['calls:execute']),
  };
}

/**
 * Groups a run's call records by step, keeping each call's standing attempt: the step's current
 * one, or an earlier one for a call a retry kept (see `RunStepRow.callAttempts`).
 */
export function callsOfSteps(
  run: Pick<RunRow, 'id'>,
  steps: readonly RunStepRow[],
  rows: readonly RunStepCallRow[],
): StepCalls[] {
  return steps.map((step) => {
    const calls = rows
      .filter((entry) => {
        if (entry.runStepId !== step.id) return false;
        const attempt = callAttemptOf(step, entry.index);
        const key = stepIdempotencyKey(run, { name: step.name, attempt });
        return entry.row.idempotencyKey.startsWith(`${key}:`);
      })
      .sort((left, right) => left.index - right.index)
      .map((entry) => entry.row);
    return { step, calls };
  });
}

/** The version of each resource the run's calls last reported, by resource key. */
export function lastSeenVersions(rows: readonly RunStepCallRow[]): Map<string, string> {
  const reported = rows
    .map((entry) => entry.row)
    .filter((row) => row.status === 'succeeded' && row.resource !== null)
    .sort((left, right) => (left.finishedAt?.getTime() ?? 0) - (right.finishedAt?.getTime() ?? 0));
  const seen = new Map<string, string>();
  for (const row of reported) {
    if (row.resource !== null) seen.set(row.resource.key, row.resource.version);
  }
  return seen;
}

function isFinalCall(row: CallRow): boolean {
  return FINAL_CALL_STATUSES.includes(row.status);
}

/** How a step whose calls all ended went: the first call that did not succeed names the reason. */
function stepOutcomeOf(calls: readonly CallRow[]): {
  status: 'succeeded' | 'failed' | 'outcome_unknown';
  reason: RunReason | null;
} {
  const unknown = calls.find((row) => row.status === 'outcome_unknown');
  const failed = unknown ?? calls.find((row) => row.status !== 'succeeded');
  if (failed === undefined) return { status: 'succeeded', reason: null };
  const error = wireResultOf(failed).error;
  return {
    status: unknown === undefined ? 'failed' : 'outcome_unknown',
    reason: {
      code: error?.code ?? failed.errorCode ?? failed.status,
      message: `${failed.toolName} (call ${failed.providerCallId}) ${failed.status}: ${error?.message ?? failed.status}`,
      retryable: error?.retryable ?? false,
    },
  };
}

/**
 * Moves runs on from their checkpoints: settles running steps from their calls' records, starts
 * the plan steps whose dependencies succeeded (their `$ref`s resolved from those results), and sets
 * the run's status. Every write is conditional on the state it read, so it may run again at any
 * point (after a crash, or in two processes at once) without running a completed step again; the
 * calls themselves go through the one call path, keyed so a replay records nothing new.
 */
@Injectable()
export class RunAdvancer {
  private readonly logger = new Logger('Runs');
  // Passes of one run in this process take turns; other processes are fenced by the conditional writes.
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(RunsRepository) private readonly runs: RunsRepository,
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
  ) {}

  /** Advances a run as far as it goes within one job's budget. */
  async advance(runId: string): Promise<AdvanceOutcome> {
    const started = Date.now();
    for (;;) {
      const pass = await this.pass(runId);
      if (pass.kind === 'done') return pass;
      if (pass.waitingOn.length === 0 || Date.now() - started > PASS_BUDGET_MS) {
        return { kind: 'later', delayMs: pass.waitingOn.length === 0 ? APPROVAL_POLL_MS : 0 };
      }
      await this.calls.waitForCalls(pass.waitingOn, CALL_WAIT_MS);
    }
  }

  /** One look at the run; serialized per run in this process. */
  pass(runId: string): Promise<PassOutcome> {
    const previous = this.inFlight.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.passNow(runId));
    this.inFlight.set(runId, next);
    void next
      .finally(() => {
        if (this.inFlight.get(runId) === next) this.inFlight.delete(runId);
      })
      .catch(() => undefined);
    return next;
  }

  /** The steps of a run with the calls of their current attempts. */
  async stepsWithCalls(run: RunRow): Promise<StepCalls[]> {
    return (await this.viewOf(run)).steps;
  }

  /** The resource versions the run's calls last reported, for the expected versions of its writes. */
  async lastSeenVersions(run: RunRow): Promise<Map<string, string>> {
    return (await this.viewOf(run)).seen;
  }

  /**
   * Adds a compensation of the target step's completed writes (with scope `run`, of every step's),
   * latest first, and reports the writes that cannot be undone. Returns false when the run moved
   * meanwhile (another process compensated, or the run is in none of `from`).
   */
  async compensate(
    run: RunRow,
    request: { target: string; scope: 'step' | 'run'; requestedBy: string },
    from: readonly RunStatus[],
  ): Promise<{ added: boolean; steps: number }> {
    const steps = await this.stepsWithCalls(run);
    const target = steps.find((entry) => entry.step.name === request.target)?.step;
    if (target === undefined)
      throw new ToolException('not_found', `Run ${run.id} has no step "${request.target}".`);
    const scoped = {
      target,
      scope: request.scope,
      requestedBy: request.requestedBy,
      now: new Date(),
    };
    // Only the calls the compensation may undo need their tool versions read.
    const tools = new Map<string, ToolIR>();
    for (const { row } of uncompensatedCalls(steps, scoped)) {
      const record = await this.gateway.calls.getCall(row.id);
      if (record !== undefined) tools.set(row.id, record.tool);
    }
    const planned = planCompensation(steps, scoped, (row) => tools.get(row.id));
    const added = await this.runs.addCompensation(run.id, { ...planned, from });
    if (added) {
      this.logger.log(
        `run ${run.id}: compensating ${planned.steps.length} call(s) of ${target.name}; ${planned.report.cannot_be_undone.length} cannot be undone`,
      );
    }
    return { added, steps: planned.steps.length };
  }

  private async viewOf(run: RunRow): Promise<{ steps: StepCalls[]; seen: Map<string, string> }> {
    const steps = await this.runs.steps(run.id);
    await this.gateway.settled();
    const rows = await this.gateway.calls.findByRunSteps(steps.map((step) => step.id));
    return { steps: callsOfSteps(run, steps, rows), seen: lastSeenVersions(rows) };
  }

  private async passNow(runId: string): Promise<PassOutcome> {
    const run = await this.runs.find(runId, null);
    if (run === undefined || run.status === 'cancelled') return { kind: 'done' };
    const steps = await this.stepsWithCalls(run);
    const waitingOn: string[] = [];
    let awaitingApproval = false;
    for (const entry of steps) {
      if (entry.step.status !== 'running') continue;
      const settled = await this.settleStep(run, entry, steps);
      if (settled !== undefined) {
        entry.step = { ...entry.step, ...settled };
        continue;
      }
      for (const row of entry.calls) {
        if (row.status === 'awaiting_approval') awaitingApproval = true;
        else if (!isFinalCall(row)) waitingOn.push(row.id);
      }
    }
    const waiting = (): PassOutcome =>
      waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
    if (FINAL_RUN_STATUSES.includes(run.status) || run.status === 'awaiting_decision') {
      // Nothing new starts; steps still running are checkpointed as they end.
      return waiting();
    }
    if (run.status === 'compensating') {
      const compensating = await this.continueCompensation(run, steps, waitingOn);
      if (compensating !== undefined) return compensating;
      // Every compensation ended: the run stands as the step that failed left it (below).
    }
    const stopped = steps.find((entry) => entry.step.status === 'outcome_unknown');
    const failed = steps.find((entry) => entry.step.status === 'failed');
    if (stopped !== undefined) {
      await this.runs.setStatus(run.id, {
        status: 'awaiting_decision',
        failedStep: stopped.step.name,
        reason: stopped.step.reason,
      });
      return waiting();
    }
    if (failed !== undefined && (await this.compensateAutomatically(run, steps, failed.step))) {
      // Compensating now: the next look starts the chain (it asks for nothing again).
      return this.passNow(run.id);
    }
    if (run.mode === 'plan' && failed !== undefined) {
      await this.runs.setStatus(run.id, {
        status: 'failed',
        failedStep: failed.step.name,
        reason: failed.step.reason,
      });
      return waiting();
    }
    if (run.mode === 'plan') {
      const started = await this.startReadySteps(run, steps);
      waitingOn.push(...started);
      // A step can fail as it starts (a reference that resolves to nothing).
      const refused = steps.find((entry) => entry.step.status === 'failed');
      if (refused !== undefined) {
        await this.runs.setStatus(run.id, {
          status: 'failed',
          failedStep: refused.step.name,
          reason: refused.step.reason,
        });
        return waiting();
      }
    }
    const running = steps.some((entry) => entry.step.status === 'running') || waitingOn.length > 0;
    const ended = steps.every((entry) =>
      ['succeeded', 'skipped', 'cancelled'].includes(entry.step.status),
    );
    if (run.mode === 'plan' && !running && ended && steps.length > 0) {
      await this.runs.setStatus(run.id, { status: 'succeeded', failedStep: null, reason: null });
      return { kind: 'done' };
    }
    const status = awaitingApproval ? 'awaiting_approval' : 'running';
    if (status !== run.status) await this.runs.setStatus(run.id, { status });
    return running ? { kind: 'waiting', waitingOn } : { kind: 'done' };
  }

  /**
   * Runs a compensation's chain on: starts its next step, and stops the run when a compensating
   * call failed (a decision retries or skips it). Undefined once every compensation step ended.
   */
  private async continueCompensation(
    run: RunRow,
    steps: StepCalls[],
    waitingOn: string[],
  ): Promise<PassOutcome | undefined> {
    const chain = steps.filter((entry) => entry.step.compensates !== null);
    const broken = chain.find((entry) => ['failed', 'outcome_unknown'].includes(entry.step.status));
    if (broken !== undefined) {
      await this.runs.setStatus(
        run.id,
        {
          status: broken.step.status === 'failed' ? 'failed' : 'awaiting_decision',
          failedStep: broken.step.name,
          reason: broken.step.reason,
        },
        ['compensating'],
      );
      return waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
    }
    if (!chain.some((entry) => ['pending', 'running'].includes(entry.step.status)))
      return undefined;
    waitingOn.push(
      ...(await this.startReadySteps(run, steps, (entry) => entry.step.compensates !== null)),
    );
    // Waiting with nothing to wait on polls: a compensating call may wait for a person.
    return { kind: 'waiting', waitingOn };
  }

  /**
   * Under the `automatic` policy, a failed step's completed writes are compensated once per attempt
   * of the step, when no other step still runs. Returns whether the run is now compensating.
   */
  private async compensateAutomatically(
    run: RunRow,
    steps: readonly StepCalls[],
    failed: RunStepRow,
  ): Promise<boolean> {
    if (run.compensation !== 'automatic' || failed.compensates !== null) return false;
    if (steps.some((entry) => entry.step.status === 'running')) return false;
    const asked = run.compensations.some(
      (entry) => entry.failed_step === failed.name && entry.failed_attempt === failed.attempt,
    );
    if (asked) return false;
    try {
      const { added, steps: count } = await this.compensate(
        run,
        { target: failed.name, scope: 'step', requestedBy: 'automatic' },
        ['running', 'awaiting_approval'],
      );
      return added && count > 0;
    } catch (error) {
      if (error instanceof PlanConflict) return false;
      throw error;
    }
  }

  /**
   * Checkpoints a running step whose calls all ended; a plan step whose calls were never recorded
   * (the process stopped between taking the step and recording them) records them now, under the
   * same keys. Returns the step's new state, or undefined while it runs.
   */
  private async settleStep(
    run: RunRow,
    entry: StepCalls,
    steps: readonly StepCalls[],
  ): Promise<Pick<RunStepRow, 'status' | 'reason'> | undefined> {
    const { step, calls } = entry;
    const planned = step.plannedCalls?.length ?? 0;
    if (step.plannedCalls !== null && calls.length < planned) {
      return this.recordStepCalls(run, step, steps);
    }
    if (calls.length === 0 || !calls.every(isFinalCall)) return undefined;
    const outcome = stepOutcomeOf(calls);
    await this.runs.finishStep(step, outcome);
    return outcome;
  }

  /**
   * Starts each pending step (of those `which` picks) whose dependencies all succeeded (or were
   * skipped); returns the calls it started.
   */
  private async startReadySteps(
    run: RunRow,
    steps: StepCalls[],
    which: (entry: StepCalls) => boolean = () => true,
  ): Promise<string[]> {
    const byName = new Map(steps.map((entry) => [entry.step.name, entry]));
    const ready = steps.filter(
      (entry) =>
        which(entry) &&
        entry.step.status === 'pending' &&
        entry.step.dependsOn.every((name) =>
          ['succeeded', 'skipped'].includes(byName.get(name)?.step.status ?? ''),
        ),
    );
    const started = await Promise.all(
      ready.map(async (entry) => {
        if (!(await this.runs.startStep(entry.step))) return [];
        entry.step = { ...entry.step, status: 'running' };
        const outcome = await this.recordStepCalls(run, entry.step, steps);
        if (outcome !== undefined) {
          entry.step = { ...entry.step, ...outcome };
          return [];
        }
        const recorded = await this.stepsWithCalls(run);
        return (
          recorded.find((other) => other.step.id === entry.step.id)?.calls.map((row) => row.id) ??
          []
        );
      }),
    );
    return started.flat();
  }

  /**
   * Records (and dispatches) a plan step's calls of its current attempt with their references
   * resolved, each write carrying the version of its resource the run last saw; a reference that
   * resolves to nothing, or a call the gateway refuses, fails the step with the reason.
   */
  private async recordStepCalls(
    run: RunRow,
    step: RunStepRow,
    steps: readonly StepCalls[],
  ): Promise<Pick<RunStepRow, 'status' | 'reason'> | undefined> {
    const byName = new Map(steps.map((entry) => [entry.step.name, entry]));
    const lookup = (name: string, index: number): ReferencedCall | undefined => {
      const source = byName.get(name);
      const row = source?.step.status === 'succeeded' ? source.calls[index] : undefined;
      if (row === undefined) return undefined;
      const result: ToolResultIR = wireResultOf(row);
      return { arguments: row.arguments, ok: result.ok, result: result.data, error: result.error };
    };
    const calls: ToolCallIR[] = [];
    const indexes: number[] = [];
    for (const [index, planned] of (step.plannedCalls ?? []).entries()) {
      // A call a retry kept stands as recorded under its earlier attempt.
      if (callAttemptOf(step, index) !== step.attempt) continue;
      // A compensating call's arguments were copied from a finished call: values, never references.
      const resolved =
        step.compensates === null
          ? resolveStepReferences(planned.arguments, lookup)
          : { ok: true as const, arguments: planned.arguments };
      if (!resolved.ok) return this.failStep(step, resolved.reason);
      indexes.push(index);
      calls.push({
        id: `${step.name}.${index}`,
        name: planned.tool,
        arguments: resolved.arguments,
        ...(planned.version === undefined ? {} : { tool_version: planned.version }),
      });
    }
    try {
      await this.calls.submitIR(principalOfRun(run), {
        calls,
        conversationId: run.conversationId ?? undefined,
        waitMs: 0,
        idempotencyKey: stepIdempotencyKey(run, step),
        runStepId: step.id,
        runStepIndexes: indexes,
        expectedVersions: () => this.lastSeenVersions(run),
      });
    } catch (error) {
      if (!(error instanceof ToolException)) throw error;
      const refusal = error as ToolException;
      // The catalog changed since the plan was checked (a tool removed, a version past its sunset).
      return this.failStep(step, {
        code: refusal.code,
        message: refusal.message,
        retryable: false,
      });
    }
    return undefined;
  }

  private async failStep(
    step: RunStepRow,
    reason: RunReason,
  ): Promise<Pick<RunStepRow, 'status' | 'reason'>> {
    this.logger.log(`run step ${step.name} failed: ${reason.message}`);
    await this.runs.finishStep(step, { status: 'failed', reason });
    return { status: 'failed', reason };
  }
}
