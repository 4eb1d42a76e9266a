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
  errorType: 'error.type',
} as const;

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

/** Marks a span failed with the error code as `error.type`. */
export function markSpanError(span: Span, input: { code: string; message: string }): void {
  span.setAttribute(GEN_AI_ATTRIBUTES.errorType, input.code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: input.message });
}

/**
 * Runs `work` with `span` as the active span, so what it starts (an executor's upstream request)
 * carries this span's trace context. Without a registered context manager it simply runs `work`.
 */
export function runInSpan<T>(span: Span, work: () => T): T {
  return context.with(trace.setSpan(context.active(), span), work);
}
