import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ExecutorKind } from '@toolgate/contract';

/** Attribute names of the OpenTelemetry GenAI semantic conventions the engine sets on its spans. */
export const GEN_AI_ATTRIBUTES = {
  operationName: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  toolDefinitions: 'gen_ai.tool.definitions',
  conversationId: 'gen_ai.conversation.id',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  errorType: 'error.type',
} as const;

/** Toolgate's own span attributes, for what the GenAI conventions have no name for. */
export const TOOLGATE_ATTRIBUTES = {
  toolId: 'toolgate.tool.id',
  toolVersion: 'toolgate.tool.version',
  providerFormat: 'toolgate.provider.format',
  teamId: 'toolgate.team.id',
  teamName: 'toolgate.team.name',
  keyId: 'toolgate.api_key.id',
  keyName: 'toolgate.api_key.name',
  status: 'toolgate.status',
  attempts: 'toolgate.attempts',
  attempt: 'toolgate.attempt',
  retryReason: 'toolgate.retry.reason',
  validationOutcome: 'toolgate.validation.outcome',
  validationErrorCount: 'toolgate.validation.error_count',
  validationPaths: 'toolgate.validation.paths',
  policyEffect: 'toolgate.policy.effect',
  policyRule: 'toolgate.policy.rule',
  policyRevision: 'toolgate.policy.revision',
  approvalId: 'toolgate.approval.id',
  approvalStatus: 'toolgate.approval.status',
  approvalReason: 'toolgate.approval.reason',
  approvalWaitMs: 'toolgate.approval.wait_ms',
  queueWaitMs: 'toolgate.queue.wait_ms',
  fallbackTool: 'toolgate.fallback.tool',
  answeredBy: 'toolgate.answered_by',
  answeredByVersion: 'toolgate.answered_by.version',
  cacheStatus: 'toolgate.cache.status',
  cacheScope: 'toolgate.cache.scope',
  cacheAgeMs: 'toolgate.cache.age_ms',
  truncated: 'toolgate.truncated',
  truncationOriginalBytes: 'toolgate.truncation.original_bytes',
  truncationKeptBytes: 'toolgate.truncation.kept_bytes',
  errorCode: 'toolgate.error.code',
  errorLayer: 'toolgate.error.layer',
  costToolUsd: 'toolgate.cost.tool_usd',
  costToolSource: 'toolgate.cost.tool_source',
  costTokensUsd: 'toolgate.cost.tokens_usd',
  costCacheReadTokens: 'toolgate.cost.tokens.cache_read',
  costCacheWriteTokens: 'toolgate.cost.tokens.cache_write',
  costReasoningTokens: 'toolgate.cost.tokens.reasoning',
} as const;

/** The `gen_ai.provider.name` of a Toolgate wire format, where the GenAI conventions name one. */
export function genAiProviderName(format: string): string | undefined {
  if (format.startsWith('openai')) return 'openai';
  if (format === 'anthropic') return 'anthropic';
  if (format === 'gemini') return 'gcp.gemini';
  return undefined;
}

/** The tracer used when the host injects none: a no-op until a global provider is registered. */
export function defaultTracer(): Tracer {
  return trace.getTracer('@toolgate/engine');
}

/** The GenAI `gen_ai.tool.type` of an executor kind: code in-process is a function, anything remote an extension. */
export function genAiToolType(kind: ExecutorKind | undefined): string {
  return kind === 'builtin' ? 'function' : 'extension';
}

/** Starts an `execute_tool <tool>` span (INTERNAL), as a child of `parent` when given. */
export function startToolSpan(input: {
  tracer: Tracer;
  toolName: string;
  attributes: Attributes;
  parent?: Span;
}): Span {
  // The parent is passed explicitly: hosts without a registered context manager still get a proper tree.
  const parentContext =
    input.parent === undefined ? undefined : trace.setSpan(context.active(), input.parent);
  return input.tracer.startSpan(
    `execute_tool ${input.toolName}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI_ATTRIBUTES.operationName]: 'execute_tool',
        [GEN_AI_ATTRIBUTES.toolName]: input.toolName,
        ...input.attributes,
      },
    },
    parentContext,
  );
}

/** Marks a span failed with the error code as `error.type` (and its layer, when known). */
export function markSpanError(
  span: Span,
  input: { code: string; message: string; layer?: string },
): void {
  span.setAttribute(GEN_AI_ATTRIBUTES.errorType, input.code);
  span.setAttribute(TOOLGATE_ATTRIBUTES.errorCode, input.code);
  if (input.layer !== undefined) span.setAttribute(TOOLGATE_ATTRIBUTES.errorLayer, input.layer);
  span.setStatus({ code: SpanStatusCode.ERROR, message: input.message });
}

/**
 * Starts a `toolgate.<step>` span (INTERNAL) for one step of a call (resolve, validate, policy,
 * approval, rate_limit, fallback, truncate, and the host's queue_wait).
 */
export function startStepSpan(input: {
  tracer: Tracer;
  step: string;
  /** The span it belongs to; the active context's span when absent. */
  parent?: Span;
  attributes?: Attributes;
  startTime?: number;
}): Span {
  return input.tracer.startSpan(
    `toolgate.${input.step}`,
    {
      kind: SpanKind.INTERNAL,
      ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
      ...(input.startTime === undefined ? {} : { startTime: input.startTime }),
    },
    input.parent === undefined ? context.active() : trace.setSpan(context.active(), input.parent),
  );
}

/**
 * Runs one step of a call in its own span; `describe` turns the step's value into the span's
 * attributes. A thrown error marks the span and is rethrown.
 */
export async function inStepSpan<T>(
  input: { tracer: Tracer; step: string; parent: Span; attributes?: Attributes },
  work: () => Promise<T>,
  describe?: (value: T) => Attributes,
): Promise<T> {
  // Under a call span nobody records (no tracer set up, or not sampled) the step's span and its
  // attributes would be built for nothing on every call.
  if (!input.parent.isRecording()) return work();
  const span = startStepSpan(input);
  try {
    const value = await work();
    if (describe !== undefined) span.setAttributes(describe(value));
    return value;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `work` with `span` as the active span, so what it starts (an executor's upstream request)
 * carries this span's trace context. Without a registered context manager it simply runs `work`.
 */
export function runInSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}
