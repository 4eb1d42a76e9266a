import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The trace id of the active span (the request's, or its caller's), when there is a valid one. */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext !== undefined && isSpanContextValid(spanContext)
    ? spanContext.traceId
    : undefined;
}
