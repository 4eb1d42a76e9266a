import { Inject, Injectable } from '@nestjs/common';
import type {
  CompensateRunInput,
  CreatePlanInput,
  CreateRunInput,
  CreateRunTurnInput,
  ListRunsQuery,
  Run,
  RunDecision,
  RunPage,
  RunStatus,
  RunStep,
  RunSummary,
  RunTranscript,
  TranscriptQuery,
} from '@toolgate/contract';
import { FINAL_CALL_STATUSES } from '@toolgate/persistence';
import type { ToolCallIR } from '@toolgate/toolir';
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { CallsService, wireResultOf, type SubmitCallsResult } from '../calls/calls.service';
import { GatewayHost } from '../calls/gateway-host';
import { createdPositionOf, decodeCursor, pageOfRows } from '../common/pagination';
import { ToolException, type ProblemIssue } from '../problem/tool.exception';
import { findPlanProblems } from './plan-validation';
import { RunAdvancer, stepIdempotencyKey, type StepCalls } from './run-advancer';
import { callAttemptOf, compensationsByCall, isInEffect } from './run-compensation';
import { RunQueue } from './run-queue';
import { transcriptMessages, transcriptTurnsOf } from './run-transcript';
import { FINAL_RUN_STATUSES, PlanConflict, RunsRepository, type RunRow } from './runs.repository';

const RunCursorSchema = z.strictObject({ created_at: z.iso.datetime(), id: z.uuid() });

function summaryOf(run: RunRow): RunSummary {
  return {
    id: run.id,
    team_id: run.teamId,
    mode: run.mode,
    status: run.status,
    conversation_id: run.conversationId,
    metadata: run.metadata,
    failed_step: run.failedStep,
    reason: run.reason,
    compensation: run.compensation,
    compensations: run.compensations.map(({ failed_attempt: _attempt, ...entry }) => entry),
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}

function stepOf({ step, calls }: StepCalls): RunStep {
  return {
    name: step.name,
    position: step.position,
    kind: step.compensates !== null ? 'compensation' : step.provider === null ? 'plan' : 'turn',
    compensates: step.compensates,
    status: step.status,
    attempt: step.attempt,
    depends_on: step.dependsOn,
    reason: step.reason,
    calls: calls.map((row, index) => ({
      id: row.id,
      index,
      provider_call_id: row.providerCallId,
      tool: row.toolName,
      version: row.toolVersion,
      status: row.status,
      arguments: row.arguments,
      result: FINAL_CALL_STATUSES.includes(row.status) ? wireResultOf(row) : null,
    })),
    started_at: step.startedAt?.toISOString() ?? null,
    finished_at: step.finishedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class RunsService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(RunsRepository) private readonly runs: RunsRepository,
    @Inject(RunAdvancer) private readonly advancer: RunAdvancer,
    @Inject(RunQueue) private readonly queue: RunQueue,
    @Inject(CallsService) private readonly calls: CallsService,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
  ) {}

  async create(principal: Principal, input: CreateRunInput): Promise<Run> {
    const run = await this.runs.create({
      teamId: requireTeam(principal),
      keyId: principal.keyId,
      actor: principal.actor,
      conversationId: input.conversation_id ?? null,
      mode: input.mode,
      metadata: input.metadata ?? null,
      compensation: input.compensation,
    });
    return { ...summaryOf(run), steps: [] };
  }

  async get(principal: Principal, id: string): Promise<Run> {
    return this.stateOf(await this.require(principal, id));
  }

  async list(principal: Principal, query: ListRunsQuery): Promise<RunPage> {
    const cursor =
      query.cursor === undefined ? undefined : decodeCursor(query.cursor, RunCursorSchema);
    if (cursor === null) {
      throw new ToolException('invalid_request', 'The cursor is not valid.', {
        issues: [{ path: '/query/cursor', message: 'must be a cursor returned by this API' }],
      });
    }
    const rows = await this.runs.list({
      teamId: principal.teamId,
      status: query.status,
      before:
        cursor === undefined
          ? undefined
          : { createdAt: new Date(cursor.created_at), id: cursor.id },
      limit: query.limit + 1,
    });
    const page = pageOfRows(rows, query.limit, createdPositionOf);
    return { items: page.rows.map(summaryOf), next_cursor: page.nextCursor };
  }

  /** Cancels the run and every call of it that has not ended (a running one is aborted). */
  async cancel(principal: Principal, id: string): Promise<Run> {
    const run = await this.require(principal, id);
    if (!(await this.runs.cancel(run.id))) {
      throw new ToolException('conflict', `Run ${id} has already ended (${run.status}).`);
    }
    const steps = await this.advancer.stepsWithCalls(run);
    const open = steps.flatMap((entry) =>
      entry.calls.filter((row) => !FINAL_CALL_STATUSES.includes(row.status)),
    );
    for (const row of open) {
      const cancelled = await this.gateway.calls.cancel(row.id, {
        call_id: row.id,
        name: row.toolName,
        ok: false,
        error: { code: 'cancelled', message: 'The run was cancelled.', retryable: false },
      });
      if (cancelled !== undefined) this.gateway.cancelled({ id: row.id, tool: row.toolName });
    }
    return this.get(principal, id);
  }

  /** Ends a ReAct run at the model's final answer; it takes no more turns. */
  async complete(principal: Principal, id: string): Promise<Run> {
    const run = await this.require(principal, id);
    if (run.mode !== 'react') {
      throw new ToolException('conflict', `Run ${id} runs a plan, which ends when its steps do.`);
    }
    const steps = await this.runs.steps(run.id);
    if (steps.some((step) => step.status === 'running' || step.status === 'pending')) {
      throw new ToolException(
        'conflict',
        `A step of run ${id} has not ended; complete the run once its calls have.`,
      );
    }
    const done = await this.runs.setStatus(
      run.id,
      { status: 'succeeded', failedStep: null, reason: null },
      ['running'],
    );
    if (!done) {
      throw new ToolException(
        'conflict',
        `Run ${id} is ${run.status}; only a running ReAct run completes.`,
      );
    }
    return this.get(principal, id);
  }

  /**
   * One ReAct turn: parsed and executed exactly as POST /v1/calls does, its calls recorded as the
   * run's next step; the step is checkpointed once they end (here when they end within the wait).
   */
  async turn(
    principal: Principal,
    id: string,
    input: {
      body: CreateRunTurnInput;
      idempotencyKey: string | undefined;
      subject: string | undefined;
    },
  ): Promise<SubmitCallsResult> {
    const run = await this.require(principal, id);
    if (run.mode !== 'react') {
      throw new ToolException('conflict', `Run ${id} runs a plan; post its plan instead of turns.`);
    }
    if (FINAL_RUN_STATUSES.includes(run.status)) {
      throw new ToolException('conflict', `Run ${id} has ended (${run.status}).`);
    }
    if (run.status === 'compensating') {
      throw new ToolException(
        'conflict',
        `Run ${id} is undoing completed calls; post the next turn once it is running again.`,
      );
    }
    const parsed = await this.calls.parseProviderPayload(principal, input.body);
    const steps = await this.runs.steps(run.id);
    // A repeated Idempotency-Key names the same turn, so it answers with the same step and calls.
    const name =
      input.idempotencyKey === undefined
        ? `turn-${steps.length + 1}`
        : `turn:${input.idempotencyKey}`;
    const { step, created } = await this.runs.turnStep(run.id, { name, provider: parsed.provider });
    let outcome: SubmitCallsResult;
    try {
      outcome = await this.calls.submit(principal, {
        provider: parsed.provider,
        calls: parsed.calls,
        conversationId: run.conversationId ?? undefined,
        waitMs: input.body.wait_ms,
        idempotencyKey: stepIdempotencyKey(run, step),
        synthesizedIds: parsed.synthesizedIds,
        partialStates: input.body.partial_states,
        versions: { subject: input.subject, snapshot: input.body.snapshot, pins: input.body.pins },
        runStepId: step.id,
        expectedVersions: () => this.advancer.lastSeenVersions(run),
      });
    } catch (error) {
      // A refused turn leaves no step behind, as a refused POST /v1/calls leaves no call.
      if (created) await this.runs.discardStep(step.id);
      throw error;
    }
    if (outcome.status === 200) await this.advancer.pass(run.id);
    else this.queue.advanceSoon(run.id);
    return outcome;
  }

  /** The run's tool history in a provider's message format. */
  async transcript(
    principal: Principal,
    id: string,
    query: TranscriptQuery,
  ): Promise<RunTranscript> {
    const run = await this.require(principal, id);
    const steps = await this.advancer.stepsWithCalls(run);
    return {
      format: query.format,
      messages: transcriptMessages(transcriptTurnsOf(steps), query.format),
    };
  }

  /**
   * Checks a plan (steps, dependencies, references, tools) and writes it; completed steps of the
   * run are kept and not run again. Nothing is written when anything is wrong.
   */
  async plan(principal: Principal, id: string, input: CreatePlanInput): Promise<Run> {
    const run = await this.require(principal, id);
    if (run.mode !== 'plan') {
      throw new ToolException('conflict', `Run ${id} takes ReAct turns, not a plan.`);
    }
    if (run.status === 'succeeded' || run.status === 'cancelled') {
      throw new ToolException('conflict', `Run ${id} has ended (${run.status}).`);
    }
    const existing = await this.advancer.stepsWithCalls(run);
    const completed = existing
      .filter((entry) => entry.step.status === 'succeeded')
      .map((entry) => ({ name: entry.step.name, calls: entry.calls.length }));
    const issues = findPlanProblems(input.steps, completed);
    const done = new Set(completed.map((step) => step.name));
    issues.push(...(await this.toolProblems(principal, input, done)));
    if (issues.length > 0) {
      throw new ToolException('invalid_plan', 'The plan cannot run as posted.', { issues });
    }
    try {
      if (!(await this.runs.replacePlan(run.id, input.steps))) {
        throw new ToolException('conflict', `Run ${id} cannot take a plan now (${run.status}).`);
      }
    } catch (error) {
      if (!(error instanceof PlanConflict)) throw error;
      throw new ToolException(
        'conflict',
        `A step of run ${id} is still running; re-plan once it ends.`,
      );
    }
    await this.queue.enqueue(run.id);
    return this.get(principal, id);
  }

  /** Retries, skips or fails a step that stopped the run (outcome unknown, or failed). */
  async decide(principal: Principal, id: string, decision: RunDecision): Promise<Run> {
    const run = await this.require(principal, id);
    if (FINAL_RUN_STATUSES.includes(run.status) && run.status !== 'failed') {
      throw new ToolException('conflict', `Run ${id} has ended (${run.status}).`);
    }
    if (run.status === 'compensating') {
      throw new ToolException(
        'conflict',
        `Run ${id} is undoing completed calls; decide once the compensation ended.`,
      );
    }
    const steps = await this.advancer.stepsWithCalls(run);
    const entry = steps.find((candidate) => candidate.step.name === decision.step);
    if (entry === undefined) {
      throw new ToolException('not_found', `Run ${id} has no step "${decision.step}".`);
    }
    const { step } = entry;
    // A skipped or failed step keeps why it stopped; the decision is said in the message.
    const decided = await this.runs.decide(step, {
      action: decision.action,
      reason: {
        code: step.reason?.code ?? 'cancelled',
        message: `${decision.action} decided by ${principal.actor}${step.reason === null ? '' : `: ${step.reason.message}`}`,
        retryable: false,
      },
      callAttempts: decision.action === 'retry' ? retriedCallAttempts(entry, steps) : [],
    });
    if (!decided) {
      throw new ToolException(
        'conflict',
        `Step "${decision.step}" is ${step.status}; only a step whose outcome is unknown or that failed takes a decision.`,
      );
    }
    if (decision.action === 'fail') {
      await this.runs.setStatus(run.id, {
        status: 'failed',
        failedStep: step.name,
        reason: step.reason,
      });
    } else {
      await this.runs.setStatus(run.id, { status: 'running', failedStep: null, reason: null }, [
        'awaiting_decision',
        'failed',
        'running',
      ]);
      await this.queue.enqueue(run.id);
    }
    return this.get(principal, id);
  }

  /**
   * Undoes the completed writes of a failed step (or of the whole run), latest first, each by its
   * tool's declared compensation run as a normal call; writes without one are reported.
   */
  async compensate(principal: Principal, id: string, input: CompensateRunInput): Promise<Run> {
    const run = await this.require(principal, id);
    if (!COMPENSABLE_RUN_STATUSES.includes(run.status)) {
      throw new ToolException(
        'conflict',
        `Run ${id} is ${run.status}; compensate a run that failed, waits for a decision or runs ReAct turns.`,
      );
    }
    const target = input.step ?? run.failedStep ?? (await this.lastTurn(run));
    if (target === undefined) {
      throw new ToolException('conflict', `Run ${id} has no failed step to compensate; name one.`);
    }
    let outcome: { added: boolean; steps: number };
    try {
      outcome = await this.advancer.compensate(
        run,
        { target, scope: input.scope, requestedBy: principal.actor },
        COMPENSABLE_RUN_STATUSES,
      );
    } catch (error) {
      if (!(error instanceof PlanConflict)) throw error;
      throw new ToolException(
        'conflict',
        `A step of run ${id} is still running; compensate once it ends.`,
      );
    }
    if (!outcome.added) {
      throw new ToolException(
        'conflict',
        `Run ${id} changed meanwhile, or its calls are being compensated already.`,
      );
    }
    if (outcome.steps > 0) await this.queue.enqueue(run.id);
    return this.get(principal, id);
  }

  private async lastTurn(run: RunRow): Promise<string | undefined> {
    if (run.mode !== 'react') return undefined;
    const steps = await this.runs.steps(run.id);
    return steps.filter((step) => step.compensates === null).at(-1)?.name;
  }

  private async stateOf(run: RunRow): Promise<Run> {
    const steps = await this.advancer.stepsWithCalls(run);
    return { ...summaryOf(run), steps: steps.map(stepOf) };
  }

  private async require(principal: Principal, id: string): Promise<RunRow> {
    const run = await this.runs.find(id, principal.teamId);
    if (run === undefined) throw new ToolException('not_found', `Run ${id} was not found.`);
    return run;
  }

  /** Tools the team cannot call, addressed into the plan; kept steps are not checked again. */
  private async toolProblems(
    principal: Principal,
    input: CreatePlanInput,
    done: ReadonlySet<string>,
  ): Promise<ProblemIssue[]> {
    const places: string[] = [];
    const calls: ToolCallIR[] = [];
    input.steps.forEach((step, stepIndex) => {
      if (done.has(step.name)) return;
      step.calls.forEach((call, callIndex) => {
        places.push(`/body/steps/${stepIndex}/calls/${callIndex}/tool`);
        calls.push({
          id: `${stepIndex}.${callIndex}`,
          name: call.tool,
          arguments: {},
          ...(call.version === undefined ? {} : { tool_version: call.version }),
        });
      });
    });
    if (calls.length === 0) return [];
    try {
      await this.calls.assertCallable(principal, calls);
      return [];
    } catch (error) {
      if (!(error instanceof ToolException) || error.code === 'version_sunset') throw error;
      return error.issues.map((issue) => {
        const index = /^\/calls\/(\d+)\//.exec(issue.path)?.[1];
        return { path: places[Number(index)] ?? '/body/steps', message: issue.message };
      });
    }
  }
}

/** Statuses a compensation may start from: a run stopped by a step, or a ReAct run between turns. */
const COMPENSABLE_RUN_STATUSES: readonly RunStatus[] = ['failed', 'awaiting_decision', 'running'];

/**
 * Per planned call of a step to retry, the attempt whose record stands: a call whose effect is in
 * place (succeeded, not compensated) keeps its record; the others run under the next attempt.
 */
function retriedCallAttempts(entry: StepCalls, steps: readonly StepCalls[]): number[] {
  const { step, calls } = entry;
  if (step.plannedCalls === null) return [];
  const compensations = compensationsByCall(steps);
  const next = step.attempt + 1;
  const attempts = step.plannedCalls.map((_, index) => {
    const row = calls[index];
    return row !== undefined && isInEffect(row, compensations) ? callAttemptOf(step, index) : next;
  });
  return attempts.every((attempt) => attempt === next) ? [] : attempts;
}

function requireTeam(principal: Principal): string {
  if (principal.teamId === null) {
    throw new ToolException(
      'invalid_request',
      'Runs are made with a team key; the installation admin key belongs to no team.',
    );
  }
  return principal.teamId;
}
