import type { SpanLike, TracerLike } from '../../telemetry/client-tracing';

/** `SpanStatusCode.ERROR` of `@opentelemetry/api`, a stable numeric enum member of its API. */
const SPAN_STATUS_ERROR = 2;

/** Names of what the SDK writes on a streamed call's span (GenAI conventions where they name it). */
export const PARTIAL_STATE_SPAN = {
  /** The span's name prefix: `stream_tool_call <tool name>`. */
  name: 'stream_tool_call',
  /** An event per argument delta that completed values. */
  completedEvent: 'toolgate.arguments.completed',
  /** An event, once, when the record reached its limits. */
  truncatedEvent: 'toolgate.arguments.truncated',
  attributes: {
    toolName: 'gen_ai.tool.name',
    toolCallId: 'gen_ai.tool.call.id',
    pointers: 'toolgate.arguments.pointers',
    offsetMs: 'toolgate.arguments.offset_ms',
    entries: 'toolgate.partial_states.entries',
    truncated: 'toolgate.partial_states.truncated',
    errorType: 'error.type',
  },
} as const;

const names = PARTIAL_STATE_SPAN.attributes;

/** One streamed call's span: opened at its start, one event per recorded entry, closed at its end. */
export class StreamedCallSpan {
  private constructor(private readonly span: SpanLike) {}

  static start(tracer: TracerLike, call: { id: string; name: string }): StreamedCallSpan {
    return new StreamedCallSpan(
      tracer.startSpan(`${PARTIAL_STATE_SPAN.name} ${call.name}`, {
        attributes: { [names.toolName]: call.name, [names.toolCallId]: call.id },
      }),
    );
  }

  completed(entry: { offset_ms: number; pointers: readonly string[] }): void {
    this.span.addEvent(PARTIAL_STATE_SPAN.completedEvent, {
      [names.pointers]: [...entry.pointers],
      [names.offsetMs]: entry.offset_ms,
    });
  }

  truncated(offsetMs: number): void {
    this.span.addEvent(PARTIAL_STATE_SPAN.truncatedEvent, { [names.offsetMs]: offsetMs });
  }

  end(outcome: {
    entries: number;
    truncated: boolean;
    error?: { code: string; message: string };
  }): void {
    this.span.setAttribute(names.entries, outcome.entries);
    this.span.setAttribute(names.truncated, outcome.truncated);
    if (outcome.error !== undefined) {
      this.span.setAttribute(names.errorType, outcome.error.code);
      this.span.setStatus({ code: SPAN_STATUS_ERROR, message: outcome.error.message });
    }
    this.span.end();
  }
}
