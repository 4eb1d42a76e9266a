import { describe, expect, it } from 'vitest';
import { withTraceHeaders } from './trace-headers';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('withTraceHeaders', () => {
  it('adds traceparent and tracestate', () => {
    expect(
      withTraceHeaders(
        { accept: 'application/json' },
        { traceparent: TRACEPARENT, tracestate: 'a=1' },
      ),
    ).toEqual({ accept: 'application/json', traceparent: TRACEPARENT, tracestate: 'a=1' });
  });

  it('keeps a configured header of the same name, in any case', () => {
    expect(
      withTraceHeaders(
        { TraceParent: 'configured' },
        { traceparent: TRACEPARENT, tracestate: 'a=1' },
      ),
    ).toEqual({ TraceParent: 'configured', tracestate: 'a=1' });
  });

  it('adds nothing outside a trace', () => {
    expect(withTraceHeaders({ accept: '*/*' }, {})).toEqual({ accept: '*/*' });
  });
});
