import { describe, expect, it } from 'vitest';
import { FakeClock } from '../__fixtures__/engine-harness';
import type { ApprovalRequest } from './approval-gate';
import { hashArguments } from './hash-arguments';
import { InMemoryApprovalGate } from './in-memory-approval-gate';

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const args = { path: '/tmp/a' };
  return {
    call_id: 'call-1',
    tool_name: 'delete_file',
    binding: { tool_id: 'tool-1', tool_version: '1.0.0', arguments_hash: hashArguments(args) },
    reason: 'destructive',
    arguments: args,
    ...overrides,
  };
}

describe('hashArguments', () => {
  it('is stable across key order and differs for other values', () => {
    expect(hashArguments({ a: 1, b: { c: 2, d: 3 } })).toBe(
      hashArguments({ b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(hashArguments({ a: 1 })).not.toBe(hashArguments({ a: 2 }));
    expect(hashArguments({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('InMemoryApprovalGate', () => {
  it('binds an approval to the call, tool version and arguments, and consumes it once', async () => {
    const gate = new InMemoryApprovalGate({ clock: new FakeClock() });
    const pending = await gate.check(request());
    expect(pending.status).toBe('pending');
    gate.approve(pending.approval_id, { by: 'alice' });
    expect(
      (await gate.check(request({ binding: { ...request().binding, tool_version: '2.0.0' } })))
        .status,
    ).toBe('pending');
    expect((await gate.check(request({ call_id: 'call-2' }))).status).toBe('pending');
    expect(await gate.check(request())).toEqual({
      status: 'approved',
      approval_id: pending.approval_id,
      requested_at: pending.requested_at,
      decided_at: pending.requested_at,
    });
    const next = await gate.check(request());
    expect(next.status).toBe('pending');
    expect(next.approval_id).not.toBe(pending.approval_id);
    expect(gate.get(pending.approval_id)?.status).toBe('consumed');
  });

  it('refuses to decide an expired or already decided request', async () => {
    const clock = new FakeClock();
    const gate = new InMemoryApprovalGate({ clock, ttlMs: 10 });
    const pending = await gate.check(request());
    gate.deny(pending.approval_id, { by: 'bob' });
    expect(() => gate.approve(pending.approval_id, { by: 'eve' })).toThrow(/denied/);
    const other = await gate.check(request({ call_id: 'call-3' }));
    clock.time += 11;
    expect(() => gate.approve(other.approval_id, { by: 'alice' })).toThrow(/expired/);
    expect((await gate.check(request({ call_id: 'call-3' }))).status).toBe('expired');
  });
});
