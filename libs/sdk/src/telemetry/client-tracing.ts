// The SDK runs in browsers and edge runtimes and must not make apps install OpenTelemetry: it
// takes the app's tracer structurally, the few members it calls of `@opentelemetry/api`'s types.

/** A value an OpenTelemetry span attribute may hold. */
export type SpanAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/** The attributes the SDK writes on a span or an event. */
type SpanAttributes = Record<string, SpanAttributeValue>;

/** What the SDK sets when it starts a span (`SpanOptions` of `@opentelemetry/api`). */
export interface SpanOptionsLike {
  /** `SpanKind`: 0 internal, 3 client. */
  kind?: number;
  attributes?: SpanAttributes;
}

/** The members of an OpenTelemetry `Span` the SDK uses. */
export interface SpanLike {
  spanContext(): {
    traceId: string;
    spanId: string;
    traceFlags: number;
    traceState?: { serialize(): string };
  };
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setAttributes(attributes: SpanAttributes): unknown;
  addEvent(name: string, attributes?: SpanAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The members of an OpenTelemetry `Tracer` (`trace.getTracer(...)` of `@opentelemetry/api`) the
 * SDK uses; pass the app's tracer as it is.
 */
export interface TracerLike {
  startSpan(name: string, options?: SpanOptionsLike): SpanLike;
  startActiveSpan<F extends (span: SpanLike) => unknown>(
    name: string,
    options: SpanOptionsLike,
    fn: F,
  ): ReturnType<F>;
}

/** `SpanKind.INTERNAL` and `SpanKind.CLIENT` of `@opentelemetry/api`. */
const SPAN_KIND = { internal: 0, client: 3 };
/** `SpanStatusCode.ERROR` of `@opentelemetry/api`. */
const STATUS_ERROR = 2;

/**
 * The W3C `traceparent` (and `tracestate`) naming `span` as the parent, written from its span
 * context so no global propagator is needed (https://www.w3.org/TR/trace-context/#traceparent-header).
 */
export function traceHeadersOfSpan(span: SpanLike): Record<string, string> {
  const spanContext = span.spanContext();
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const state = spanContext.traceState?.serialize();
  return {
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`,
    ...(state === undefined || state === '' ? {} : { tracestate: state }),
  };
}

/** Marks a span failed with `error.type`. */
export function markClientSpanFailed(span: SpanLike, errorType: string, message: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: STATUS_ERROR, message });
}

/** Starts a CLIENT span `<METHOD> <route>` for one HTTP request to the gateway (HTTP client conventions). */
export function startRequestSpan(
  tracer: TracerLike,
  input: { method: string; route: string; url: string },
): SpanLike {
  const url = new URL(input.url);
  return tracer.startSpan(`${input.method} ${input.route}`, {
    kind: SPAN_KIND.client,
    attributes: {
      'http.request.method': input.method,
      'url.full': url.toString(),
      'url.template': input.route,
      'server.address': url.hostname,
      ...(url.port === '' ? {} : { 'server.port': Number(url.port) }),
    },
  });
}

/**
 * Runs `work` as the active span `invoke_agent <name>` of the GenAI conventions (a tool loop), so
 * the model calls and gateway requests it makes are its children where the app installed a
 * context manager (the Node SDK does).
 */
export function inLoopSpan<T>(
  tracer: TracerLike | undefined,
  input: { name: string; attributes: SpanAttributes },
  work: (span: SpanLike | undefined) => Promise<T>,
): Promise<T> {
  if (tracer === undefined) return work(undefined);
  return tracer.startActiveSpan(
    `invoke_agent ${input.name}`,
    {
      kind: SPAN_KIND.internal,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', ...input.attributes },
    },
    async (span: SpanLike) => {
      try {
        return await work(span);
      } catch (error) {
        markClientSpanFailed(
          span,
          error instanceof Error ? error.name : 'Error',
          error instanceof Error ? error.message : String(error),
        );
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
