import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RunReason } from '@toolgate/contract';
import { FINAL_CALL_STATUSES, type CallRow, type RunStepCallRow } from '@toolgate/persistence';
import type { ToolCallIR, ToolResultIR } from '@toolgate/toolir';
import type { Principal } from '../auth/principal';
import { CallsService, wireResultOf } from '../calls/calls.service';
import { GatewayHost } from '../calls/gateway-host';
import { ToolException } from '../problem/tool.exception';
import {
  FINAL_RUN_STATUSES,
  RunsRepository,
  type RunRow,
  type RunStepRow,
} from './runs.repository';
import { resolveStepReferences, type ReferencedCall } from './step-references';

// How long one job keeps advancing a run before it hands on to a later job (so one long run does
// not hold a queue slot), and how often a run waiting for a person looks again.
const PASS_BUDGET_MS = 10_000;
const CALL_WAIT_MS = 1_000;
const APPROVAL_POLL_MS = 2_000;

/** What one advance came to: the run needs nothing more now, or should be looked at again. */
export type AdvanceOutcome = { kind: 'done' } | { kind: 'later'; delayMs: number };

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

/** Groups a run's call records by step, keeping only each step's current attempt. */
export function callsOfSteps(
  run: Pick<RunRow, 'id'>,
  steps: readonly RunStepRow[],
  rows: readonly RunStepCallRow[],
): StepCalls[] {
  return steps.map((step) => {
    const prefix = `${stepIdempotencyKey(run, step)}:`;
    const calls = rows
      .filter((entry) => entry.runStepId === step.id && entry.row.idempotencyKey.startsWith(prefix))
      .sort((left, right) => left.index - right.index)
      .map((entry) => entry.row);
    return { step, calls };
  });
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
  pass(runId: string): Promise<{ kind: 'done' } | { kind: 'waiting'; waitingOn: string[] }> {
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
    const steps = await this.runs.steps(run.id);
    await this.gateway.settled();
    const rows = await this.gateway.calls.findByRunSteps(steps.map((step) => step.id));
    return callsOfSteps(run, steps, rows);
  }

  private async passNow(
    runId: string,
  ): Promise<{ kind: 'done' } | { kind: 'waiting'; waitingOn: string[] }> {
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
    const stopped = steps.find((entry) => entry.step.status === 'outcome_unknown');
    const failed = steps.find((entry) => entry.step.status === 'failed');
    if (FINAL_RUN_STATUSES.includes(run.status) || run.status === 'awaiting_decision') {
      // Nothing new starts; steps still running are checkpointed as they end.
      return waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
    }
    if (stopped !== undefined) {
      await this.runs.setStatus(run.id, {
        status: 'awaiting_decision',
        failedStep: stopped.step.name,
        reason: stopped.step.reason,
      });
      return waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
    }
    if (run.mode === 'plan' && failed !== undefined) {
      await this.runs.setStatus(run.id, {
        status: 'failed',
        failedStep: failed.step.name,
        reason: failed.step.reason,
      });
      return waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
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
        return waitingOn.length > 0 ? { kind: 'waiting', waitingOn } : { kind: 'done' };
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

  /** Starts each pending step whose dependencies all succeeded (or were skipped); returns the calls it started. */
  private async startReadySteps(run: RunRow, steps: StepCalls[]): Promise<string[]> {
    const byName = new Map(steps.map((entry) => [entry.step.name, entry]));
    const ready = steps.filter(
      (entry) =>
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
   * Records (and dispatches) a plan step's calls with its references resolved; a reference that
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
    for (const [index, planned] of (step.plannedCalls ?? []).entries()) {
      const resolved = resolveStepReferences(planned.arguments, lookup);
      if (!resolved.ok) return this.failStep(step, resolved.reason);
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
