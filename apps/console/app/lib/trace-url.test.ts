import { describe, expect, it } from 'vitest';
import { traceUrlOf } from './trace-url';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('traceUrlOf', () => {
  it('fills the trace id into the Jaeger, Langfuse and Phoenix templates', () => {
    expect(traceUrlOf(traceId, 'http://localhost:16686/trace/{trace_id}')).toBe(
      `http://localhost:16686/trace/${traceId}`,
    );
    expect(traceUrlOf(traceId, 'https://cloud.langfuse.com/project/p-1/traces/{trace_id}')).toBe(
      `https://cloud.langfuse.com/project/p-1/traces/${traceId}`,
    );
    expect(
      traceUrlOf(traceId, 'http://localhost:6006/projects/UHJvamVjdDox/traces/{trace_id}'),
    ).toBe(`http://localhost:6006/projects/UHJvamVjdDox/traces/${traceId}`);
  });

  it('gives no link without a template, a trace id, or for a template that is no http(s) URL', () => {
    expect(traceUrlOf(traceId, undefined)).toBeUndefined();
    expect(traceUrlOf(null, 'http://localhost:16686/trace/{trace_id}')).toBeUndefined();
    expect(traceUrlOf(traceId, 'http://localhost:16686/search')).toBeUndefined();
    expect(traceUrlOf(traceId, 'javascript:alert({trace_id})')).toBeUndefined();
  });
});
