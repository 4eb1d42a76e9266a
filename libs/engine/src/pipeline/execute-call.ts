import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ContentBlock, ToolCallIR, ToolIR } from '@toolgate/toolir';
import { hashArguments } from '../approval/hash-arguments';
import { approvalReasonOfBehavior, type ApprovalReason } from '../approval/approval-gate';
import { resultCacheKey, type ResultCache } from '../cache/result-cache';
import { ClassificationTable } from '../classification/classification-table';
import type { ErrorLayer } from '../classification/classification-table';
import { DEFAULT_CLASSIFICATION_ROWS } from '../classification/default-classification-rows';
import type { FailureSignal } from '../classification/failure-signal';
import type { ExecutorOutcome } from '../executors/executor';
import { failureFromError } from '../executors/executor';
import { readExecutorConfig } from '@toolgate/contract';
import type { ExecutorConfig } from '@toolgate/contract';
import type { PolicyDecision, PolicyInput } from '../policy/policy-engine';
import { DEFAULT_RETRY_OPTIONS, retryDelay } from '../retry/backoff';
import type { RetryOptions } from '../retry/backoff';
import { noopEventSink } from '../telemetry/events';
import type { EventSink, ExecutionEvent } from '../telemetry/events';
import { silentLogger } from '../telemetry/logger';
import type { EngineLogger } from '../telemetry/logger';
import {
  defaultTracer,
  GEN_AI_ATTRIBUTES,
  genAiToolType,
  inStepSpan,
  markSpanError,
  runInSpan,
  startStepSpan,
  startToolSpan,
  TOOLGATE_ATTRIBUTES,
} from '../telemetry/tracing';
import {
  argumentsAttribute,
  DEFAULT_TRACE_CONTENT_MAX_BYTES,
  definitionAttribute,
  DefinitionsWritten,
  resultAttribute,
  tracesContent,
} from '../telemetry/trace-content';
import { truncatePayload } from '../truncate/truncate-result';
import {
  expectedWriteOf,
  reportedVersionOf,
  withConflictDetails,
  type ResourceVersion,
} from '../concurrency/expected-write';
import type { Clock, Random, ScheduleTimeout, Sleep } from './clock';
import { realScheduleTimeout, realSleep, systemClock } from './clock';
import type { ExecutionContext } from './execution-context';
import type { EngineError, ExecutionMetadata, ExecutionResult, ToolCost } from './execution-result';
import { validateCallArguments } from './validate-call-arguments';
import type { CallArgumentsValidation } from './validate-call-arguments';

/** Byte budget of a result's data unless the context sets one. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024;

const ANONYMOUS_CALLER = { key_id: 'anonymous', team: 'anonymous', scopes: [] };

let defaultTable: ClassificationTable | undefined;

// One per process: a trace carries each tool version's definition once, whichever call writes it.
const definitionsWritten = new DefinitionsWritten();

interface Runtime {
  context: ExecutionContext;
  tracer: Tracer;
  clock: Clock;
  sleep: Sleep;
  scheduleTimeout: ScheduleTimeout;
  random: Random;
  logger: EngineLogger;
  events: EventSink;
  classification: ClassificationTable;
  retry: RetryOptions;
}

interface CallState {
  runtime: Runtime;
  call: ToolCallIR;
  span: Span;
  attempts: number;
  decision?: PolicyDecision;
  approval?: ExecutionMetadata['approval'];
  /** When the approval was requested and decided, for the approval span's wait. */
  approvalTiming?: { requested_at?: number; decided_at?: number };
  fallbacks: { tool: string; outcome: string }[];
  cache?: ExecutionMetadata['cache'];
  /** Set when this call's content goes on its span: the call's tool and the attribute cap. */
  content?: { tool: ToolIR; maxBytes: number };
}

type ToolRun =
  | {
      kind: 'success';
      tool: ToolIR;
      data?: unknown;
      content?: ContentBlock[];
      resource?: ResourceVersion;
      cost_usd?: number;
      /** Set when the result cache answered: the stored result's age. */
      cache_age_ms?: number;
    }
  | { kind: 'failure'; tool: ToolIR | undefined; error: EngineError; layer: ErrorLayer }
  | { kind: 'awaiting_approval'; tool: ToolIR; error: EngineError };

function runtimeOf(context: ExecutionContext): Runtime {
  defaultTable ??= new ClassificationTable(DEFAULT_CLASSIFICATION_ROWS);
  return {
    context,
    tracer: context.tracer ?? defaultTracer(),
    clock: context.clock ?? systemClock,
    sleep: context.sleep ?? realSleep,
    scheduleTimeout: context.scheduleTimeout ?? realScheduleTimeout,
    random: context.random ?? Math.random,
    logger: context.logger ?? silentLogger,
    events: context.events ?? noopEventSink,
    classification: context.classification ?? defaultTable,
    retry: { ...DEFAULT_RETRY_OPTIONS, ...context.retry },
  };
}

// Distributes Omit over the event union so each variant keeps its own fields.
type EventInput = ExecutionEvent extends infer TEvent
  ? TEvent extends ExecutionEvent
    ? Omit<TEvent, 'call_id' | 'at'>
    : never
  : never;

function emit(state: CallState, event: EventInput): void {
  try {
    state.runtime.events.emit({ ...event, call_id: state.call.id, at: state.runtime.clock.now() });
  } catch (error) {
    // A broken sink must not break the call it reports on.
    state.runtime.logger.warn({ call_id: state.call.id, err: String(error) }, 'event sink failed');
  }
}

// The upstream's words let the model act on a failure (a bad id, a closed account) the generic text hides.
function withUpstreamMessage(generic: string, upstream: string | undefined): string {
  return upstream === undefined || upstream === ''
    ? generic
    : `${generic} The upstream said: ${upstream}`;
}

function classify(
  state: CallState,
  tool: ToolIR | undefined,
  signal: FailureSignal,
): Extract<ToolRun, { kind: 'failure' }> {
  const classification = state.runtime.classification.classify(signal);
  // The raw failure goes to the logs (executors already redacted secrets); the model may get a generic text.
  state.runtime.logger.warn(
    {
      call_id: state.call.id,
      tool: tool?.name ?? state.call.name,
      code: classification.code,
      failure: signal.message,
      row: classification.row,
    },
    'tool call step failed',
  );
  const message = classification.user_visible
    ? signal.message
    : withUpstreamMessage(
        classification.user_message ?? 'The tool failed.',
        signal.upstream_message,
      );
  const error: EngineError = {
    code: classification.code,
    message,
    retryable: classification.retryable,
    ...(classification.user_message === undefined
      ? {}
      : { user_message: classification.user_message }),
    ...(classification.user_visible && signal.details !== undefined
      ? { details: signal.details }
      : {}),
  };
  return { kind: 'failure', tool, error, layer: classification.layer };
}

function approvalReasonOf(tool: ToolIR, decision: PolicyDecision): ApprovalReason | undefined {
  const byBehavior = approvalReasonOfBehavior(tool.behavior);
  if (byBehavior !== undefined) return byBehavior;
  if (decision.effect === 'require_approval') return 'policy';
  return undefined;
}

function policyInputOf(state: CallState, tool: ToolIR, args: Record<string, unknown>): PolicyInput {
  return {
    principal: state.runtime.context.caller ?? ANONYMOUS_CALLER,
    tool: {
      name: tool.name,
      version: tool.version,
      tags: tool.tags ?? [],
      behavior: tool.behavior,
    },
    arguments: args,
  };
}

interface AttemptInput {
  tool: ToolIR;
  args: Record<string, unknown>;
  /** Request headers for this call, e.g. the `If-Match` of an expected resource version. */
  headers: Record<string, string>;
  config: ExecutorConfig;
  attempt: number;
  /** The span the attempt belongs to: the call's, or the fallback's that runs it. */
  parent: Span;
  /** The error code of the attempt this one retries. */
  retryReason?: string;
}

async function runAttempt(state: CallState, input: AttemptInput): Promise<ExecutorOutcome> {
  const { runtime, call } = state;
  const { tool, attempt } = input;
  const span = startToolSpan({
    tracer: runtime.tracer,
    toolName: tool.name,
    parent: input.parent,
    attributes: {
      [GEN_AI_ATTRIBUTES.toolCallId]: call.id,
      [GEN_AI_ATTRIBUTES.toolType]: genAiToolType(input.config.kind),
      [TOOLGATE_ATTRIBUTES.toolId]: tool.id,
      [TOOLGATE_ATTRIBUTES.toolVersion]: tool.version,
      [TOOLGATE_ATTRIBUTES.attempt]: attempt,
      ...(input.retryReason === undefined
        ? {}
        : { [TOOLGATE_ATTRIBUTES.retryReason]: input.retryReason }),
    },
  });
  emit(state, { type: 'started', tool: tool.name, attempt });
  const controller = new AbortController();
  const parentSignal = runtime.context.signal;
  let timedOut = false;
  let interrupt: ((outcome: ExecutorOutcome) => void) | undefined;
  const interrupted = new Promise<ExecutorOutcome>((resolve) => {
    interrupt = resolve;
  });
  const onParentAbort = (): void => {
    controller.abort(parentSignal?.reason);
    interrupt?.({ ok: false, failure: { aborted: true, message: 'the call was cancelled' } });
  };
  const cancelTimer = runtime.scheduleTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${tool.constraints.timeout_ms} ms`));
    interrupt?.({
      ok: false,
      failure: {
        timeout: true,
        message: `the tool did not answer within ${tool.constraints.timeout_ms} ms`,
      },
    });
  }, tool.constraints.timeout_ms);
  if (parentSignal?.aborted) onParentAbort();
  parentSignal?.addEventListener('abort', onParentAbort, { once: true });
  let outcome: ExecutorOutcome;
  try {
    // Active for the executor only, so its upstream request carries this attempt's span.
    const execution = runInSpan(span, () =>
      runtime.context.executors.execute({
        tool,
        call,
        arguments: input.args,
        config: input.config,
        ...(Object.keys(input.headers).length === 0 ? {} : { headers: input.headers }),
        signal: controller.signal,
        now: () => runtime.clock.now(),
        logger: runtime.logger,
        reportProgress: (update) => emit(state, { type: 'progress', tool: tool.name, ...update }),
        ...(runtime.context.secrets === undefined ? {} : { secrets: runtime.context.secrets }),
        ...(runtime.context.clientRelay === undefined
          ? {}
          : { clientRelay: runtime.context.clientRelay }),
      }),
    ).catch((error: unknown): ExecutorOutcome => ({
      ok: false,
      failure: failureFromError(error, controller.signal),
    }));
    // The race returns at the deadline even when an executor ignores its signal.
    outcome = await Promise.race([execution, interrupted]);
  } finally {
    cancelTimer();
    parentSignal?.removeEventListener('abort', onParentAbort);
  }
  if (timedOut) {
    outcome = {
      ok: false,
      failure: {
        timeout: true,
        message: `the tool did not answer within ${tool.constraints.timeout_ms} ms`,
      },
    };
  }
  if (outcome.ok) {
    span.setStatus({ code: SpanStatusCode.OK });
  } else {
    const classification = runtime.classification.classify(outcome.failure);
    markSpanError(span, {
      code: classification.code,
      message: classification.user_visible ? outcome.failure.message : classification.code,
      layer: classification.layer,
    });
  }
  span.end();
  return outcome;
}

async function acquireRateLimit(
  state: CallState,
  tool: ToolIR,
  args: Record<string, unknown>,
): Promise<FailureSignal | undefined> {
  const { runtime } = state;
  const limiter = runtime.context.rateLimiter;
  const limit = tool.constraints.rate_limit;
  if (limiter === undefined || limit === undefined) return undefined;
  // A rough token estimate (4 bytes per token) of the arguments: enough to keep a tokens-per-minute budget honest.
  const tokens = Math.ceil(Buffer.byteLength(JSON.stringify(args)) / 4);
  const request = { key: `tool:${tool.id}`, limit, tokens };
  let decision = await limiter.acquire(request);
  const maxWait = runtime.context.maxRateLimitWaitMs ?? 0;
  if (!decision.allowed && decision.retry_after_ms <= maxWait) {
    try {
      await runtime.sleep(decision.retry_after_ms, runtime.context.signal);
    } catch {
      return { aborted: true, message: 'the call was cancelled' };
    }
    decision = await limiter.acquire(request);
  }
  if (decision.allowed) return undefined;
  return {
    code: 'rate_limited',
    message: `${tool.name} is limited to ${limit.rpm} calls per minute; try again in ${Math.ceil(decision.retry_after_ms / 1000)} s`,
    retry_after_ms: decision.retry_after_ms,
    details: { retry_after_ms: decision.retry_after_ms },
  };
}

async function checkApproval(
  state: CallState,
  input: {
    tool: ToolIR;
    args: Record<string, unknown>;
    reason: ApprovalReason;
    decision: PolicyDecision;
  },
): Promise<ToolRun | undefined> {
  const { runtime, call } = state;
  const { tool, args, reason, decision } = input;
  const gate = runtime.context.approvals;
  if (gate === undefined) {
    return classify(state, tool, {
      code: 'approval_denied',
      message: `${tool.name} needs a person's approval, and no approval gate is configured`,
    });
  }
  const check = await gate.check({
    call_id: call.id,
    tool_name: tool.name,
    binding: { tool_id: tool.id, tool_version: tool.version, arguments_hash: hashArguments(args) },
    reason,
    ...(reason === 'policy' && decision.reason !== undefined
      ? { policy_reason: decision.reason }
      : {}),
    arguments: args,
  });
  state.approval = { approval_id: check.approval_id, status: check.status, reason };
  state.approvalTiming = {
    ...(check.requested_at === undefined ? {} : { requested_at: check.requested_at }),
    ...(check.decided_at === undefined ? {} : { decided_at: check.decided_at }),
  };
  switch (check.status) {
    case 'approved':
      return undefined;
    case 'pending':
      emit(state, {
        type: 'awaiting_approval',
        tool: tool.name,
        approval_id: check.approval_id,
        reason,
        ...(reason === 'policy' ? { decision } : {}),
      });
      return {
        kind: 'awaiting_approval',
        tool,
        error: {
          code: 'approval_required',
          message: `${tool.name} waits for a person's approval (${reason}); it has not run.`,
          retryable: true,
          user_message: 'This action needs approval before it runs.',
          details: { approval_id: check.approval_id },
        },
      };
    case 'denied':
      return classify(state, tool, {
        code: 'approval_denied',
        message: `A person denied this call${check.note === undefined ? '' : `: ${check.note}`}`,
      });
    case 'expired':
      return classify(state, tool, {
        code: 'approval_expired',
        message: 'The approval request expired before anyone approved it.',
      });
  }
}

/** How many failing paths a `toolgate.validate` span lists. */
const TRACED_VALIDATION_PATHS = 5;

function validationAttributes(validation: CallArgumentsValidation): Attributes {
  if (validation.ok) return { [TOOLGATE_ATTRIBUTES.validationOutcome]: 'ok' };
  if (validation.kind === 'invalid_schema')
    return { [TOOLGATE_ATTRIBUTES.validationOutcome]: 'invalid_schema' };
  return {
    [TOOLGATE_ATTRIBUTES.validationOutcome]: 'invalid',
    [TOOLGATE_ATTRIBUTES.validationErrorCount]: validation.errors.length,
    [TOOLGATE_ATTRIBUTES.validationPaths]: validation.errors
      .slice(0, TRACED_VALIDATION_PATHS)
      .map((error) => error.path),
  };
}

function policyAttributes(decision: PolicyDecision): Attributes {
  return {
    [TOOLGATE_ATTRIBUTES.policyEffect]: decision.effect,
    [TOOLGATE_ATTRIBUTES.policyRevision]: decision.policy_revision,
    ...(decision.matched_rule === undefined
      ? {}
      : { [TOOLGATE_ATTRIBUTES.policyRule]: decision.matched_rule }),
  };
}

function approvalAttributes(state: CallState): Attributes {
  const approval = state.approval;
  if (approval === undefined) return {};
  const check = state.approvalTiming;
  const waitedUntil = check?.decided_at ?? state.runtime.clock.now();
  return {
    [TOOLGATE_ATTRIBUTES.approvalId]: approval.approval_id,
    [TOOLGATE_ATTRIBUTES.approvalStatus]: approval.status,
    [TOOLGATE_ATTRIBUTES.approvalReason]: approval.reason,
    ...(check?.requested_at === undefined
      ? {}
      : {
          [TOOLGATE_ATTRIBUTES.approvalWaitMs]: Math.max(0, waitedUntil - check.requested_at),
        }),
  };
}

async function runTool(
  state: CallState,
  input: { tool: ToolIR; role: 'primary' | 'fallback'; parent: Span },
): Promise<ToolRun> {
  const { runtime, call } = state;
  const { tool, role, parent } = input;
  const step = { tracer: runtime.tracer, parent };
  const validateSpan = startStepSpan({ ...step, step: 'validate' });
  const validation = validateCallArguments(tool, call.arguments);
  validateSpan.setAttributes(validationAttributes(validation));
  validateSpan.end();
  if (role === 'primary') state.span.setAttributes(validationAttributes(validation));
  if (!validation.ok) {
    if (validation.kind === 'invalid_schema')
      return classify(state, tool, { code: 'invalid_schema', message: validation.message });
    return classify(state, tool, {
      code: 'invalid_arguments',
      message: validation.message,
      details: { errors: validation.errors },
    });
  }
  const args = validation.value;
  const policy = runtime.context.policy;
  const decision: PolicyDecision = await inStepSpan(
    { ...step, step: 'policy' },
    () =>
      policy
        ? policy.decide(policyInputOf(state, tool, args))
        : Promise.resolve<PolicyDecision>({ effect: 'allow', policy_revision: 'none' }),
    policyAttributes,
  );
  if (role === 'primary') state.decision = decision;
  if (decision.effect === 'deny') {
    return classify(state, tool, {
      code: 'policy_denied',
      message: decision.reason ?? 'A policy denies this call.',
    });
  }
  const approvalReason = approvalReasonOf(tool, decision);
  if (approvalReason !== undefined) {
    // A fallback never opens an approval request of its own: the person approves what the model asked for.
    if (role === 'fallback') {
      return {
        kind: 'failure',
        tool,
        layer: 'fallback',
        error: {
          code: 'approval_required',
          message: `${tool.name} needs approval`,
          retryable: false,
        },
      };
    }
    const blocked = await inStepSpan(
      { ...step, step: 'approval' },
      () => checkApproval(state, { tool, args, reason: approvalReason, decision }),
      () => approvalAttributes(state),
    );
    if (blocked !== undefined) return blocked;
  }
  const cache = runtime.context.resultCache;
  // A fallback's answer stands in for the version asked for: it is never stored under that version's key.
  if (role === 'primary' && tool.cache !== undefined && cache !== undefined) {
    return runThroughCache(state, { tool, args, parent, cache });
  }
  return executeTool(state, { tool, args, parent });
}

/**
 * The result cache, after validation, policy and approval (a hit never bypasses a decision about
 * its caller) and before the rate limit and the executor: a hit answers without either.
 */
async function runThroughCache(
  state: CallState,
  input: { tool: ToolIR; args: Record<string, unknown>; parent: Span; cache: ResultCache },
): Promise<ToolRun> {
  const { runtime } = state;
  const { tool, args, parent, cache } = input;
  const settings = tool.cache;
  if (settings === undefined) return executeTool(state, input);
  const refresh = runtime.context.cacheMode === 'refresh';
  const span = startStepSpan({
    tracer: runtime.tracer,
    step: 'cache',
    parent,
    attributes: { [TOOLGATE_ATTRIBUTES.cacheScope]: settings.scope },
  });
  let spanOpen = true;
  const endSpan = (status: NonNullable<CallState['cache']>, ageMs?: number): void => {
    state.cache = status;
    if (!spanOpen) return;
    spanOpen = false;
    span.setAttributes({
      [TOOLGATE_ATTRIBUTES.cacheStatus]: status,
      ...(ageMs === undefined ? {} : { [TOOLGATE_ATTRIBUTES.cacheAgeMs]: ageMs }),
    });
    span.end();
  };
  try {
    const generation = (await runtime.context.cacheGeneration?.(tool)) ?? 'none';
    const outcome = await cache.through(
      {
        key: resultCacheKey({
          tool,
          generation,
          team: (runtime.context.caller ?? ANONYMOUS_CALLER).team,
          args,
        }),
        ttlMs: settings.ttl_ms,
        refresh,
        // Every attempt at its timeout: how long others wait for this execution at most.
        executionBudgetMs: tool.constraints.timeout_ms * (1 + tool.constraints.max_retries) + 1000,
        signal: runtime.context.signal,
      },
      async () => {
        endSpan(refresh ? 'refresh' : 'miss');
        const run = await executeTool(state, input);
        return {
          value: run,
          cacheable:
            run.kind === 'success'
              ? {
                  ...(run.data === undefined ? {} : { data: run.data }),
                  ...(run.content === undefined ? {} : { content: run.content }),
                }
              : undefined,
        };
      },
    );
    if (outcome.source === 'execution') return outcome.value;
    endSpan('hit', outcome.age_ms);
    return {
      kind: 'success',
      tool,
      ...(outcome.entry.data === undefined ? {} : { data: outcome.entry.data }),
      ...(outcome.entry.content === undefined ? {} : { content: outcome.entry.content }),
      cache_age_ms: outcome.age_ms,
    };
  } finally {
    if (spanOpen) span.end();
  }
}

async function executeTool(
  state: CallState,
  input: { tool: ToolIR; args: Record<string, unknown>; parent: Span },
): Promise<ToolRun> {
  const { runtime } = state;
  const { tool, args, parent } = input;
  const step = { tracer: runtime.tracer, parent };
  const limited = await inStepSpan({ ...step, step: 'rate_limit' }, () =>
    acquireRateLimit(state, tool, args),
  );
  if (limited !== undefined) return classify(state, tool, limited);
  const config = readExecutorConfig(tool);
  if (!config.ok)
    return classify(state, tool, { code: 'executor_misconfigured', message: config.message });

  const write = expectedWriteOf(tool, args, runtime.context.expectedVersion);

  // Retry only idempotent tools: a second POST may charge twice.
  const maxAttempts = tool.behavior.idempotent ? 1 + tool.constraints.max_retries : 1;
  let retryReason: string | undefined;
  for (let attempt = 1; ; attempt += 1) {
    state.attempts += 1;
    const outcome = await runAttempt(state, {
      tool,
      args: write.arguments,
      headers: write.headers,
      config: config.config,
      attempt,
      parent,
      ...(retryReason === undefined ? {} : { retryReason }),
    });
    if (outcome.ok) {
      const resource = reportedVersionOf(tool, write.arguments, outcome);
      return {
        kind: 'success',
        tool,
        ...(outcome.data === undefined ? {} : { data: outcome.data }),
        ...(outcome.content === undefined ? {} : { content: outcome.content }),
        ...(resource === undefined ? {} : { resource }),
        ...(outcome.cost_usd === undefined ? {} : { cost_usd: outcome.cost_usd }),
      };
    }
    const failure = classify(state, tool, withConflictDetails(outcome.failure, write));
    const retryAfter = outcome.failure.retry_after_ms;
    const canRetry =
      failure.layer === 'retry' &&
      attempt < maxAttempts &&
      runtime.context.signal?.aborted !== true &&
      (retryAfter === undefined || retryAfter <= runtime.retry.maxRetryAfterMs);
    if (!canRetry) return failure;
    retryReason = failure.error.code;
    const delay = retryDelay({
      retry: attempt - 1,
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
      options: runtime.retry,
      random: runtime.random,
    });
    emit(state, {
      type: 'retry',
      tool: tool.name,
      attempt: attempt + 1,
      delay_ms: delay,
      error_code: failure.error.code,
    });
    try {
      await runtime.sleep(delay, runtime.context.signal);
    } catch {
      return classify(state, tool, { aborted: true, message: 'the call was cancelled' });
    }
  }
}

async function runFallback(state: CallState, name: string): Promise<ToolRun | undefined> {
  const span = startStepSpan({
    tracer: state.runtime.tracer,
    step: 'fallback',
    parent: state.span,
    attributes: { [TOOLGATE_ATTRIBUTES.fallbackTool]: name },
  });
  try {
    const fallbackTool = await state.runtime.context.resolveTool(name);
    if (fallbackTool === undefined) {
      state.fallbacks.push({ tool: name, outcome: 'unknown_tool' });
      markSpanError(span, { code: 'unknown_tool', message: `no fallback tool named ${name}` });
      return undefined;
    }
    span.setAttributes({
      [TOOLGATE_ATTRIBUTES.toolId]: fallbackTool.id,
      [TOOLGATE_ATTRIBUTES.toolVersion]: fallbackTool.version,
    });
    const run = await runTool(state, { tool: fallbackTool, role: 'fallback', parent: span });
    if (run.kind === 'success') {
      span.setStatus({ code: SpanStatusCode.OK });
      return run;
    }
    state.fallbacks.push({ tool: name, outcome: run.error.code });
    markSpanError(span, {
      code: run.error.code,
      message: run.error.message,
      ...(run.kind === 'failure' ? { layer: run.layer } : {}),
    });
    return undefined;
  } finally {
    span.end();
  }
}

async function runWithFallbacks(state: CallState, tool: ToolIR): Promise<ToolRun> {
  const first = await runTool(state, { tool, role: 'primary', parent: state.span });
  if (first.kind !== 'failure') return first;
  // A transient failure of a non-idempotent tool may have taken effect: a fallback would be a retry in disguise.
  const mayFallBack =
    first.layer === 'fallback' || (first.layer === 'retry' && tool.behavior.idempotent);
  if (!mayFallBack) return first;
  for (const name of tool.fallback ?? []) {
    if (state.runtime.context.signal?.aborted === true) break;
    const run = await runFallback(state, name);
    if (run !== undefined) return run;
  }
  return first;
}

async function finish(
  state: CallState,
  input: { run: ToolRun; startedAt: number },
): Promise<ExecutionResult> {
  const { runtime, call } = state;
  const { run } = input;
  const execution: ExecutionMetadata = {
    attempts: state.attempts,
    latency_ms: 0,
    ...(state.decision === undefined ? {} : { decision: state.decision }),
    ...(state.approval === undefined ? {} : { approval: state.approval }),
    ...(state.fallbacks.length === 0 ? {} : { fallbacks: state.fallbacks }),
    ...(state.cache === undefined ? {} : { cache: state.cache }),
  };
  const toolCost = toolCostOf(state, run);
  if (toolCost !== undefined) execution.tool_cost = toolCost;
  let result: ExecutionResult;
  if (run.kind === 'success') {
    execution.answered_by = run.cache_age_ms === undefined ? run.tool.name : 'cache';
    execution.answered_by_version = run.tool.version;
    if (run.resource !== undefined) execution.resource = run.resource;
    if (run.cache_age_ms !== undefined) execution.cache_age_ms = run.cache_age_ms;
    const budget = runtime.context.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const full = {
      call_id: call.id,
      name: call.name,
      ok: true,
      ...(run.data === undefined ? {} : { data: run.data }),
      ...(run.content === undefined ? {} : { content: run.content }),
    };
    const truncateSpan = startStepSpan({
      tracer: runtime.tracer,
      step: 'truncate',
      parent: state.span,
    });
    const cut = truncatePayload(full, budget);
    truncateSpan.setAttribute(TOOLGATE_ATTRIBUTES.truncated, cut.report !== undefined);
    if (cut.report !== undefined) {
      truncateSpan.setAttributes({
        [TOOLGATE_ATTRIBUTES.truncationOriginalBytes]: cut.report.original_bytes,
        [TOOLGATE_ATTRIBUTES.truncationKeptBytes]: cut.report.kept_bytes,
      });
      const store = runtime.context.results;
      let handle: string | undefined;
      try {
        handle =
          store === undefined
            ? undefined
            : await store.put({ call_id: call.id, tool: run.tool.name, value: full });
      } catch (error) {
        // The cut result is still useful without its handle; the store's failure is logged, not returned.
        runtime.logger.error(
          { call_id: call.id, err: error instanceof Error ? error.message : String(error) },
          'result store failed',
        );
      }
      execution.truncation = { ...cut.report, ...(handle === undefined ? {} : { handle }) };
    }
    truncateSpan.end();
    result = {
      status: 'succeeded',
      result: {
        call_id: call.id,
        name: call.name,
        ok: true,
        ...(cut.data === undefined ? {} : { data: cut.data }),
        ...(cut.content === undefined ? {} : { content: cut.content }),
        ...(cut.report === undefined ? {} : { truncated: true }),
      },
      execution,
    };
  } else {
    if (run.kind === 'failure') execution.error_layer = run.layer;
    result = {
      status: run.kind === 'awaiting_approval' ? 'awaiting_approval' : 'failed',
      result: { call_id: call.id, name: call.name, ok: false, error: run.error },
      execution,
    };
  }
  execution.latency_ms = Math.max(0, runtime.clock.now() - input.startedAt);
  return result;
}

/**
 * The tool's own cost of a call: what the answering upstream reported, else the answering (or,
 * after a failure, the called) version's `cost_estimate_usd`. A call no executor ran (refused by
 * validation or policy, or waiting for approval) cost nothing, and has none.
 */
function toolCostOf(state: CallState, run: ToolRun): ToolCost | undefined {
  if (run.kind === 'success' && run.cost_usd !== undefined)
    return { usd: run.cost_usd, source: 'reported' };
  if (run.kind === 'awaiting_approval' || state.attempts === 0) return undefined;
  const estimate = run.tool?.constraints.cost_estimate_usd;
  return estimate === undefined ? undefined : { usd: estimate, source: 'estimate' };
}

function recordOutcome(state: CallState, result: ExecutionResult): void {
  const { span, runtime, call } = state;
  const { execution } = result;
  span.setAttributes({
    [TOOLGATE_ATTRIBUTES.status]: result.status,
    [TOOLGATE_ATTRIBUTES.attempts]: execution.attempts,
    [TOOLGATE_ATTRIBUTES.truncated]: execution.truncation !== undefined,
    ...(execution.tool_cost === undefined
      ? {}
      : {
          [TOOLGATE_ATTRIBUTES.costToolUsd]: execution.tool_cost.usd,
          [TOOLGATE_ATTRIBUTES.costToolSource]: execution.tool_cost.source,
        }),
    ...(execution.answered_by === undefined
      ? {}
      : {
          [TOOLGATE_ATTRIBUTES.answeredBy]: execution.answered_by,
          [TOOLGATE_ATTRIBUTES.answeredByVersion]: execution.answered_by_version ?? '',
        }),
    ...(execution.decision === undefined ? {} : policyAttributes(execution.decision)),
    ...approvalAttributes(state),
  });
  if (state.content !== undefined) {
    span.setAttributes(resultAttribute(state.content.tool, result.result, state.content.maxBytes));
  }
  const error = result.result.error;
  if (error === undefined) span.setStatus({ code: SpanStatusCode.OK });
  else
    markSpanError(span, {
      code: error.code,
      message: error.message,
      ...(execution.error_layer === undefined ? {} : { layer: execution.error_layer }),
    });
  span.end();
  emit(state, {
    type: 'finished',
    tool: execution.cache_age_ms === undefined ? (execution.answered_by ?? call.name) : call.name,
    ok: result.result.ok,
    status: result.status,
    ...(error === undefined ? {} : { error_code: error.code }),
    latency_ms: execution.latency_ms,
  });
  runtime.logger.info(
    {
      call_id: call.id,
      tool: call.name,
      status: result.status,
      attempts: execution.attempts,
      answered_by: execution.answered_by,
      error_code: error?.code,
      latency_ms: execution.latency_ms,
    },
    'tool call finished',
  );
}

/** Puts the call's arguments on its span, and the tool's definition when its trace lacks it. */
function recordContent(state: CallState, tool: ToolIR): void {
  const maxBytes = state.runtime.context.traceContent?.maxBytes ?? DEFAULT_TRACE_CONTENT_MAX_BYTES;
  state.content = { tool, maxBytes };
  state.span.setAttributes(argumentsAttribute(tool, state.call.arguments, maxBytes));
  if (definitionsWritten.firstIn(state.span.spanContext().traceId, tool))
    state.span.setAttributes(definitionAttribute(tool, maxBytes));
}

/**
 * Executes one tool call through the whole pipeline: validate -> policy -> approval gate -> result cache -> rate limit ->
 * executor under timeout with retries (idempotent tools, transient errors) -> fallbacks -> normalize -> truncate.
 * Never throws: every outcome, including a failing port, is an ExecutionResult.
 */
export async function executeCall(
  call: ToolCallIR,
  context: ExecutionContext,
): Promise<ExecutionResult> {
  const runtime = runtimeOf(context);
  const startedAt = runtime.clock.now();
  const span = startToolSpan({
    tracer: runtime.tracer,
    toolName: call.name,
    attributes: { ...context.traceAttributes, [GEN_AI_ATTRIBUTES.toolCallId]: call.id },
  });
  const state: CallState = { runtime, call, span, attempts: 0, fallbacks: [] };
  emit(state, { type: 'queued', tool: call.name });
  let run: ToolRun;
  try {
    const tool = await inStepSpan(
      { tracer: runtime.tracer, step: 'resolve', parent: span },
      () => context.resolveTool(call.name, call.tool_version),
      (found): Attributes =>
        found === undefined
          ? { [GEN_AI_ATTRIBUTES.errorType]: 'unknown_tool' }
          : {
              [TOOLGATE_ATTRIBUTES.toolId]: found.id,
              [TOOLGATE_ATTRIBUTES.toolVersion]: found.version,
            },
    );
    if (tool === undefined) {
      run = classify(state, undefined, {
        code: 'unknown_tool',
        message: `There is no tool named "${call.name}"${call.tool_version === undefined ? '' : ` at version ${call.tool_version}`}.`,
      });
    } else {
      const config = readExecutorConfig(tool);
      span.setAttribute(
        GEN_AI_ATTRIBUTES.toolType,
        genAiToolType(config.ok ? config.config.kind : undefined),
      );
      span.setAttributes({
        [TOOLGATE_ATTRIBUTES.toolId]: tool.id,
        [TOOLGATE_ATTRIBUTES.toolVersion]: tool.version,
      });
      if (tracesContent(tool, context.traceContent)) recordContent(state, tool);
      run = await runWithFallbacks(state, tool);
    }
  } catch (error) {
    runtime.logger.error(
      {
        call_id: call.id,
        tool: call.name,
        err: error instanceof Error ? error.message : String(error),
      },
      'engine failure',
    );
    run = classify(state, undefined, {
      code: 'internal',
      message: 'The gateway failed while handling this call.',
    });
  }
  const result = await finish(state, { run, startedAt });
  recordOutcome(state, result);
  return result;
}
