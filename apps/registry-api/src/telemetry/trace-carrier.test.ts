import { describe, expect, it } from 'vitest';
import { traceCarrierOfHeaders, traceCarrierOfMcpBody } from './trace-carrier';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('traceCarrierOfHeaders', () => {
  it('reads traceparent and tracestate', () => {
    expect(traceCarrierOfHeaders({ traceparent: TRACEPARENT, tracestate: 'a=1' })).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'a=1',
    });
  });

  it('ignores tracestate without traceparent, and a repeated header', () => {
    expect(traceCarrierOfHeaders({ tracestate: 'a=1' })).toEqual({});
    expect(traceCarrierOfHeaders({ traceparent: [TRACEPARENT, TRACEPARENT] })).toEqual({});
  });
});

describe('traceCarrierOfMcpBody', () => {
  it('reads params._meta of a tools/call', () => {
    expect(
      traceCarrierOfMcpBody({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'x',
          arguments: {},
          _meta: { traceparent: TRACEPARENT, tracestate: 'a=1' },
        },
      }),
    ).toEqual({ traceparent: TRACEPARENT, tracestate: 'a=1' });
    expect(
      traceCarrierOfMcpBody({
        method: 'tools/call',
        params: { _meta: { traceparent: TRACEPARENT, progressToken: 1 } },
      }),
    ).toEqual({ traceparent: TRACEPARENT });
  });

  it('reads nothing from other methods, other shapes or a batch', () => {
    const meta = { _meta: { traceparent: TRACEPARENT } };
    expect(traceCarrierOfMcpBody({ method: 'tools/list', params: meta })).toEqual({});
    expect(traceCarrierOfMcpBody({ method: 'tools/call', params: { name: 'x' } })).toEqual({});
    expect(traceCarrierOfMcpBody([{ method: 'tools/call', params: meta }])).toEqual({});
    expect(traceCarrierOfMcpBody(undefined)).toEqual({});
    expect(
      traceCarrierOfMcpBody({ method: 'tools/call', params: { _meta: { traceparent: 7 } } }),
    ).toEqual({});
  });
});
