import { randomUUID } from 'node:crypto';
import { ROOT_CONTEXT, context as otelContext, propagation, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import {
  defaultTracer,
  executeCall,
  plainToolResult,
  silentLogger,
  startStepSpan,
  TOOLGATE_ATTRIBUTES,
} from '@toolgate/engine';
import type { EngineLogger, EngineToolResult, ExecutionResult } from '@toolgate/engine';
import type {
  CallOutcome,
  CallRecord,
  CallRepository,
  CallRun,
  CallState,
  ExecuteToolCallJob,
  ReceivedJob,
} from '@toolgate/persistence';
import {
  DeferJobError,
  FINAL_CALL_STATES,
  PermanentJobError,
  STARTABLE_CALL_STATES,
} from '@toolgate/persistence';
import type { ClientRelayHub } from '../client-relay/client-relay-hub';
import type { CallFinishedMessage } from '../events/call-events';
import {
  budgetRefusal,
  callCostUsd,
  withBudgetNote,
  type BudgetAdmission,
  type BudgetBreach,
  type CallBudgets,
} from '../spend/call-budgets';
import type { CallCancellation } from './call-cancellation';
import { callTraceAttributes } from './call-trace-attributes';
import type { CreateEngineContext } from './engine-context';

/** The error a call gets when its worker died mid-call and the tool is not safe to run again. */
export const OUTCOME_UNKNOWN_MESSAGE =
  'the worker executing this call stopped mid-call; it may or may not have taken effect — check before retrying';

/** Why a job ended without executing its call. */
export type SkipReason =
  /** No call record with this id. */
  | 'not_found'
  /** The call already finished (a duplicate delivery). */
  | 'already_finished'
  /** The call is in a state the worker does not start from (e.g. awaiting approval). */
  | 'not_startable'
  /** Another run claimed the call between our read and our compare-and-set, or took it over from us. */
  | 'claimed_elsewhere';

/** What a job of `JobName.ExecuteToolCall` came to; every expected outcome is a value, never a thrown error. */
export type ExecuteToolCallResult =
  | { status: 'executed'; call_state: CallOutcome['status']; recovered: boolean; attempts: number }
  | { status: 'outcome_unknown' }
  | { status: 'skipped'; reason: SkipReason; state?: CallState };

/** What the runner needs: the call records, the engine's context per call, and who it is. */
export interface CallRunnerDeps {
  calls: CallRepository;
  createContext: CreateEngineContext;
  /** This process (a worker, or an API replica), as recorded on the calls it runs. */
  workerId: string;
  /** Where cancel messages find the calls this process runs. */
  cancellation?: CallCancellation;
  /** The way to the MCP clients that made calls, for what their upstream servers ask of them. */
  clientRelays?: ClientRelayHub;
  /** Told once a final outcome is stored, with that outcome (waiters and streams need no re-read). */
  finished?: (message: CallFinishedMessage) => void;
  /** Budgets of teams and keys: calls over a hard one are refused, spend is counted after each call. */
  budgets?: CallBudgets;
  logger?: EngineLogger;
  now?: () => number;
}

// A job whose dependencies are not final comes back after this long, doubling up to the cap.
const DEPENDENCY_POLL_MS = 25;
const DEPENDENCY_POLL_CAP_MS = 2_000;

/** What the calls a job runs after came to. */
type DependencyState =
  | { kind: 'ready' }
  | { kind: 'waiting' }
  | { kind: 'failed'; blocker: { id: string; name: string; state: CallState | 'missing' } };

/**
 * The one call runner: runs a recorded tool call through the engine, at most once per pickup,
 * wherever it is hosted (a worker behind BullMQ, the API behind the in-process queue or inline).
 * A fresh call is claimed (`queued` -> `running`) in the statement that reads it; a call found
 * `running` was left by a process that died mid-call, and is re-run only when its tool is
 * idempotent — otherwise it ends as `outcome_unknown`. Only transient infrastructure failures
 * (the repository unreachable) throw.
 */
export class CallRunner {
  private readonly calls: CallRepository;
  private readonly createContext: CreateEngineContext;
  private readonly workerId: string;
  private readonly cancellation: CallCancellation | undefined;
  private readonly clientRelays: ClientRelayHub | undefined;
  private readonly finished: ((message: CallFinishedMessage) => void) | undefined;
  private readonly budgets: CallBudgets | undefined;
  private readonly logger: EngineLogger;
  private readonly now: () => number;

  constructor(deps: CallRunnerDeps) {
    this.calls = deps.calls;
    this.createContext = deps.createContext;
    this.workerId = deps.workerId;
    this.cancellation = deps.cancellation;
    this.clientRelays = deps.clientRelays;
    this.finished = deps.finished;
    this.budgets = deps.budgets;
    this.logger = deps.logger ?? silentLogger;
    this.now = deps.now ?? Date.now;
  }

  /** A new pickup of a call by this process. */
  newRun(attempt: number): CallRun {
    return { worker_id: this.workerId, attempt, run_id: randomUUID(), started_at: this.now() };
  }

  /** Handles one job; the returned value is stored as the job's result. */
  async process(job: ReceivedJob): Promise<ExecuteToolCallResult> {
    const data = job.data;
    // One queue carries one job name; a job of another (a run's) was enqueued on the wrong queue.
    if (!('call_id' in data)) throw new PermanentJobError(`job ${job.id} is not a tool call`);
    const callId = data.call_id;
    const after = data.after ?? [];
    let dependencies: DependencyState = { kind: 'ready' };
    if (after.length > 0) {
      dependencies = await this.dependencies(after);
      if (dependencies.kind === 'waiting') {
        throw new DeferJobError(
          Math.min(DEPENDENCY_POLL_CAP_MS, DEPENDENCY_POLL_MS * 2 ** Math.max(0, job.attempt - 1)),
        );
      }
    }
    const run = this.newRun(job.attempt);
    const claim = await this.calls.claim(callId, run);
    if (claim.claimed) {
      if (dependencies.kind === 'failed') {
        return this.failDependency({ record: claim.record, run, blocker: dependencies.blocker });
      }
      return this.execute({ record: claim.record, run, job: data, recovered: false });
    }
    const record = claim.record;
    if (record === undefined) {
      this.logger.warn({ call_id: callId, job_id: job.id }, 'no such call; job skipped');
      return { status: 'skipped', reason: 'not_found' };
    }
    if (FINAL_CALL_STATES.includes(record.state)) {
      return { status: 'skipped', reason: 'already_finished', state: record.state };
    }
    if (STARTABLE_CALL_STATES.includes(record.state)) return this.claimedElsewhere(callId);
    // A job started before (a stalled job handed on) finds the call its dead run left `running`;
    // on its first start, another job is running the call right now.
    if (record.state === 'running') {
      return job.attempt > 1
        ? this.recover({ record, run, job: data })
        : this.claimedElsewhere(callId);
    }
    return { status: 'skipped', reason: 'not_startable', state: record.state };
  }

  /**
   * Runs a call this process recorded already claimed (the inline path): the same engine run,
   * outcome and events as a queued call, without the queue.
   */
  runClaimed(input: {
    record: CallRecord;
    run: CallRun;
    cache?: ExecuteToolCallJob['cache'];
  }): Promise<ExecuteToolCallResult> {
    const { record, run, cache } = input;
    return this.execute({
      record,
      run,
      job: { call_id: record.call.id, ...(cache === undefined ? {} : { cache }) },
      recovered: false,
    });
  }

  /** Whether the calls this one runs after are final, and whether each succeeded. */
  private async dependencies(ids: readonly string[]): Promise<DependencyState> {
    for (const id of ids) {
      const dependency = await this.calls.getCall(id);
      if (dependency === undefined) {
        return { kind: 'failed', blocker: { id, name: id, state: 'missing' } };
      }
      if (!FINAL_CALL_STATES.includes(dependency.state)) return { kind: 'waiting' };
      if (dependency.state !== 'succeeded') {
        return {
          kind: 'failed',
          blocker: { id, name: dependency.call.name, state: dependency.state },
        };
      }
    }
    return { kind: 'ready' };
  }

  /** A dependent of a call that did not succeed is not run: it gets `dependency_failed`, as in a batch. */
  private async failDependency(input: {
    record: CallRecord;
    run: CallRun;
    blocker: { id: string; name: string; state: CallState | 'missing' };
  }): Promise<ExecuteToolCallResult> {
    const { record, run, blocker } = input;
    const result: EngineToolResult = {
      call_id: record.call.id,
      name: record.call.name,
      ok: false,
      error: {
        code: 'dependency_failed',
        message: `Not run: it depends on call ${blocker.id} (${blocker.name}), which ${blocker.state === 'missing' ? 'was not found' : `ended ${blocker.state}`}.`,
        retryable: false,
        details: { depends_on: blocker.id },
      },
    };
    const outcome: CallOutcome = {
      status: 'failed',
      result,
      attempts: 0,
      latency_ms: 0,
      answered_by: undefined,
      finished_at: this.now(),
    };
    const recorded = await this.calls.recordOutcome(record.call.id, { runId: run.run_id, outcome });
    if (!recorded) return this.claimedElsewhere(record.call.id);
    this.announce(record, outcome);
    return { status: 'executed', call_state: 'failed', recovered: false, attempts: 0 };
  }

  /** A call found `running` whose job came back: its worker stopped mid-call (killed, or lost its lock). */
  private async recover(input: {
    record: CallRecord;
    run: CallRun;
    job: ExecuteToolCallJob;
  }): Promise<ExecuteToolCallResult> {
    const { record, run } = input;
    const callId = record.call.id;
    const previous = record.run;
    if (!(await this.calls.takeOver(callId, { previousRunId: previous?.run_id ?? '', run }))) {
      return this.claimedElsewhere(callId);
    }
    const bindings = {
      call_id: callId,
      tool: record.tool.name,
      previous_worker_id: previous?.worker_id,
      idempotent: record.tool.behavior.idempotent,
    };
    if (record.tool.behavior.idempotent) {
      // Running an idempotent tool twice has the effect of running it once.
      this.logger.warn(
        bindings,
        'call was left mid-run by another worker; running it again (idempotent tool)',
      );
      return this.execute({ ...input, recovered: true });
    }
    // A non-idempotent tool may already have charged the card: never re-run it blindly.
    this.logger.warn(
      bindings,
      'call was left mid-run by another worker; not re-running a non-idempotent tool',
    );
    const result: EngineToolResult = {
      call_id: callId,
      name: record.call.name,
      ok: false,
      error: { code: 'outcome_unknown', message: OUTCOME_UNKNOWN_MESSAGE, retryable: false },
    };
    const finishedAt = this.now();
    const outcome: CallOutcome = {
      status: 'outcome_unknown',
      result,
      attempts: 0,
      latency_ms: previous === undefined ? 0 : Math.max(0, finishedAt - previous.started_at),
      answered_by: undefined,
      finished_at: finishedAt,
    };
    const recorded = await this.calls.recordOutcome(callId, { runId: run.run_id, outcome });
    if (!recorded) return this.claimedElsewhere(callId);
    this.announce(record, outcome);
    return { status: 'outcome_unknown' };
  }

  private async execute(input: {
    record: CallRecord;
    run: CallRun;
    job: ExecuteToolCallJob;
    recovered: boolean;
  }): Promise<ExecuteToolCallResult> {
    const { record, run } = input;
    const callId = record.call.id;
    const admission = await this.admitBudget(record);
    if (admission?.kind === 'refused') return this.refuseOverBudget(input, admission.breach);
    const cancellation = this.cancellation?.open(callId);
    const clientRelay = this.clientRelays?.relayFor(record.client_relay);
    const context = this.createContext({
      tool: record.tool,
      caller: record.caller,
      ...(record.actor === undefined ? {} : { actor: record.actor }),
      ...(cancellation === undefined ? {} : { signal: cancellation.signal }),
      ...(clientRelay === undefined ? {} : { clientRelay }),
      traceAttributes: callTraceAttributes(record),
      ...(input.job.cache === 'refresh' ? { cacheMode: 'refresh' as const } : {}),
      ...(record.expected_version === undefined
        ? {}
        : { expectedVersion: record.expected_version }),
    });
    const parent = this.jobTraceContext(input.job);
    const enqueuedAt = input.job.enqueued_at;
    if (enqueuedAt !== undefined) {
      // The wait is over by now: the span is written with the enqueue and pickup times.
      const parentSpan = trace.getSpan(parent);
      startStepSpan({
        tracer: context.tracer ?? defaultTracer(),
        step: 'queue_wait',
        startTime: enqueuedAt,
        ...(parentSpan === undefined ? {} : { parent: parentSpan }),
        attributes: {
          [TOOLGATE_ATTRIBUTES.queueWaitMs]: Math.max(0, run.started_at - enqueuedAt),
        },
      }).end(run.started_at);
    }
    // executeCall never throws: a failing tool or port comes back as a result.
    let execution: ExecutionResult;
    try {
      execution = await otelContext.with(parent, () => executeCall(record.call, context));
    } finally {
      cancellation?.close();
    }
    const outcome: CallOutcome = {
      status: execution.status,
      result: execution.result,
      attempts: execution.execution.attempts,
      latency_ms: execution.execution.latency_ms,
      answered_by: execution.execution.answered_by,
      ...(execution.execution.cache_age_ms === undefined
        ? {}
        : { cache_age_ms: execution.execution.cache_age_ms }),
      finished_at: this.now(),
      ...(execution.execution.tool_cost === undefined
        ? {}
        : { tool_cost: execution.execution.tool_cost }),
      ...(execution.execution.decision === undefined
        ? {}
        : { decision: execution.execution.decision }),
      ...(execution.execution.resource === undefined
        ? {}
        : { resource: execution.execution.resource }),
    };
    // Counted before the outcome is stored, so a spent soft budget is noted in the stored result.
    const breach = (await this.recordSpend(record, outcome)) ?? admission?.breach;
    if (breach !== undefined) outcome.result = withBudgetNote(outcome.result, breach);
    const recorded = await this.calls.recordOutcome(callId, { runId: run.run_id, outcome });
    if (!recorded) {
      // Another run took the call over while this one was executing (this worker lost its lock):
      // that run's outcome stands.
      this.logger.warn(
        { call_id: callId, tool: record.tool.name },
        'call was taken over by another run; outcome dropped',
      );
      return { status: 'skipped', reason: 'claimed_elsewhere' };
    }
    this.announce(record, outcome);
    this.logger.info(
      {
        call_id: callId,
        tool: record.tool.name,
        status: execution.status,
        attempts: outcome.attempts,
        latency_ms: outcome.latency_ms,
        error_code: execution.result.error?.code,
        recovered: input.recovered,
      },
      'call finished',
    );
    return {
      status: 'executed',
      call_state: execution.status,
      recovered: input.recovered,
      attempts: outcome.attempts,
    };
  }

  /** Whether the call's team and key may spend more; budgets that cannot be read let the call run. */
  private async admitBudget(record: CallRecord): Promise<BudgetAdmission | undefined> {
    if (this.budgets === undefined) return undefined;
    try {
      return await this.budgets.admit(record.caller);
    } catch (error) {
      this.logger.warn(
        { call_id: record.call.id, err: String(error) },
        'budgets could not be read; the call runs unchecked',
      );
      return undefined;
    }
  }

  /** Counts the call's cost against its team's and key's budgets; the worst breach after it, if any. */
  private async recordSpend(
    record: CallRecord,
    outcome: CallOutcome,
  ): Promise<BudgetBreach | undefined> {
    if (this.budgets === undefined) return undefined;
    try {
      return await this.budgets.recordSpend({
        caller: record.caller,
        amountUsd: callCostUsd({ record, outcome }),
      });
    } catch (error) {
      this.logger.warn(
        { call_id: record.call.id, err: String(error) },
        "the call's spend could not be counted",
      );
      return undefined;
    }
  }

  /** A call over a hard budget is not run: it fails with `budget_exceeded`, as a rate limit refuses. */
  private async refuseOverBudget(
    input: { record: CallRecord; run: CallRun },
    breach: BudgetBreach,
  ): Promise<ExecuteToolCallResult> {
    const { record, run } = input;
    const outcome: CallOutcome = {
      status: 'failed',
      result: budgetRefusal({ call_id: record.call.id, name: record.call.name }, breach),
      attempts: 0,
      latency_ms: 0,
      answered_by: undefined,
      finished_at: this.now(),
    };
    const recorded = await this.calls.recordOutcome(record.call.id, {
      runId: run.run_id,
      outcome,
    });
    if (!recorded) return this.claimedElsewhere(record.call.id);
    this.announce(record, outcome);
    this.logger.info(
      {
        call_id: record.call.id,
        tool: record.tool.name,
        scope: breach.scope,
        period: breach.period,
      },
      'call refused: budget spent',
    );
    return { status: 'executed', call_state: 'failed', recovered: false, attempts: 0 };
  }

  /**
   * The trace of the request that enqueued the call, when it passed one on; the active context
   * otherwise (an inline call runs inside its request's span).
   */
  private jobTraceContext(job: ExecuteToolCallJob): Context {
    if (job.traceparent === undefined) return otelContext.active();
    const carrier: Record<string, string> = { traceparent: job.traceparent };
    if (job.tracestate !== undefined) carrier['tracestate'] = job.tracestate;
    return propagation.extract(ROOT_CONTEXT, carrier);
  }

  /** A final outcome was stored: tell waiters and streams, with the result addressed to the model's id. */
  private announce(record: CallRecord, outcome: CallOutcome): void {
    // A call waiting for approval is not finished; the engine already sent `awaiting_approval`.
    if (this.finished === undefined || outcome.status === 'awaiting_approval') return;
    this.finished({
      type: 'finished',
      call_id: record.call.id,
      tool: record.call.name,
      at: outcome.finished_at,
      ok: outcome.status === 'succeeded',
      status: outcome.status,
      ...(outcome.result.error === undefined ? {} : { error_code: outcome.result.error.code }),
      latency_ms: outcome.latency_ms,
      result: {
        ...plainToolResult(outcome.result),
        call_id: record.provider_call_id ?? record.call.id,
        name: record.call.name,
      },
    });
  }

  private claimedElsewhere(callId: string): ExecuteToolCallResult {
    this.logger.warn({ call_id: callId }, 'call claimed by another run; job skipped');
    return { status: 'skipped', reason: 'claimed_elsewhere' };
  }
}
