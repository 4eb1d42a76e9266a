import { parseToolIR, type ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { settleCutCall } from './cut-call-repair';

function searchTool(repair: boolean): ToolIR {
  return parseToolIR({
    schema_version: '1.0',
    id: '7f4e3c4e-8d0a-4c55-9b1e-2a4f0f3f6d11',
    name: 'search',
    version: '1.2.0',
    description: 'Search.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' }, note: { type: 'string' } },
      required: ['query'],
    },
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 1000 },
    ...(repair ? { repair_cut_arguments: true } : {}),
  });
}

const call = (raw: string) => ({ id: 'call_1', name: 'search', raw_arguments: raw });

describe('settleCutCall', () => {
  it('repairs for a version that opts in and records what was done', () => {
    const outcome = settleCutCall(call('{"query": "a", "note": "b'), searchTool(true));
    expect(outcome).toEqual({
      kind: 'repaired',
      arguments: { query: 'a' },
      repair: {
        outcome: 'repaired',
        received: 25,
        raw_arguments: '{"query": "a", "note": "b',
        closed: ['/'],
        completed: [],
        dropped: [{ path: '/note', cut: 'string' }],
        filled: [],
      },
    });
  });

  it('answers incomplete_arguments for a version that does not opt in, naming it in the record only', () => {
    const outcome = settleCutCall(call('{"query": "a"'), searchTool(false));
    expect(outcome).toMatchObject({
      kind: 'not_repaired',
      refusal: { call_id: 'call_1', ok: false, error: { code: 'incomplete_arguments' } },
      repair: { outcome: 'not_repaired', reason: expect.stringContaining('version 1.2.0') },
    });
    if (outcome.kind !== 'not_repaired') throw new Error('expected a refusal');
    expect(outcome.refusal.error?.message).not.toContain('repair_cut_arguments');
  });

  it('tells the model why an ambiguous cut was not completed', () => {
    const outcome = settleCutCall(call('{"query": "a'), searchTool(true));
    if (outcome.kind !== 'not_repaired') throw new Error('expected a refusal');
    expect(outcome.refusal.error?.message).toContain('/query is required');
    expect(outcome.repair).toMatchObject({ received: 12, raw_arguments: '{"query": "a' });
  });

  it('reads a cut call without text as nothing received', () => {
    const outcome = settleCutCall({ id: 'call_2', name: 'search' }, searchTool(true));
    expect(outcome).toMatchObject({ kind: 'not_repaired', repair: { received: 0 } });
  });
});
