import { describe, expect, it } from 'vitest';
import type { Call } from '@toolgate/contract';
import { wirePreview } from './wire-preview';

function call(fields: Partial<Call>): Call {
  return {
    id: 'a7c1f1f4-1b2c-4d3e-8f9a-0b1c2d3e4f50',
    team_id: 't1',
    status: 'succeeded',
    provider: 'anthropic',
    provider_call_id: 'toolu_1',
    conversation_id: null,
    tool: { id: 'tool-1', name: 'db.drop', version: '1.0.0' },
    arguments: { table: 'users' },
    arguments_hash: 'b1946ac92492d2347c6235b4d2611184',
    result: { call_id: 'toolu_1', name: 'db.drop', ok: true, data: { dropped: true } },
    error_code: null,
    attempts: 1,
    answered_by: 'db.drop',
    cache_age_ms: null,
    latency_ms: 12,
    decision: null,
    input_check: null,
    partial_states: null,
    arguments_repair: null,
    trace_id: null,
    cost: {
      tool_usd: null,
      tokens_usd: null,
      total_usd: null,
      tool_source: null,
      tokens: null,
      model: null,
      provider: null,
      tokens_unpriced_reason: null,
    },
    created_at: '2026-01-01T00:00:00Z',
    started_at: null,
    finished_at: null,
    ...fields,
  };
}

describe('wirePreview', () => {
  it("rebuilds an Anthropic call and its result in Anthropic's blocks", () => {
    const preview = wirePreview(call({}));
    expect(preview?.request).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', input: { table: 'users' } }],
    });
    expect(preview?.result).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }],
    });
  });

  it('leaves the result out while the call has none', () => {
    expect(wirePreview(call({ result: null }))?.result).toBeNull();
  });

  it('has nothing to rebuild for calls posted as ToolIR', () => {
    expect(wirePreview(call({ provider: 'ir' }))).toBeNull();
  });
});
