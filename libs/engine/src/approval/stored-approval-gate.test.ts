import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from './approval-gate';
import {
  StoredApprovalGate,
  type ApprovalStore,
  type NewStoredApproval,
  type StoredApproval,
} from './stored-approval-gate';

type Row = StoredApproval & NewStoredApproval & { consumedAt: Date | null };

/** The store calls the gate makes, kept in a map. */
class FakeApprovals implements ApprovalStore {
  readonly rows = new Map<string, Row>();

  findByCall(callId: string): Promise<StoredApproval | null> {
    return Promise.resolve([...this.rows.values()].find((row) => row.callId === callId) ?? null);
  }

  request(row: NewStoredApproval): Promise<StoredApproval> {
    const stored: Row = { ...row, status: 'pending', decisionReason: null, consumedAt: null };
    this.rows.set(row.id, stored);
    return Promise.resolve(stored);
  }

  consume(id: string): Promise<boolean> {
    const row = this.rows.get(id);
    if (row === undefined || row.status !== 'approved' || row.consumedAt !== null) {
      return Promise.resolve(false);
    }
    row.consumedAt = new Date();
    return Promise.resolve(true);
  }

  markExpired(id: string): Promise<void> {
    const row = this.rows.get(id);
    if (row?.status === 'pending') row.status = 'expired';
    return Promise.resolve();
  }
}

function setup(now = new Date('2026-01-01T00:00:00Z')) {
  const approvals = new FakeApprovals();
  let clock = now;
  const gate = new StoredApprovalGate(approvals, {
    teamId: 'team-1',
    requestedBy: 'key:1',
    ttlMs: 60_000,
    now: () => clock,
  });
  return {
    approvals,
    gate,
    advance: (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    },
  };
}

const request: ApprovalRequest = {
  call_id: 'call-1',
  tool_name: 'drop_table',
  binding: { tool_id: 'tool-1', tool_version: '1.0.0', arguments_hash: 'abc' },
  reason: 'destructive',
  arguments: { table: 'users' },
};

describe('StoredApprovalGate', () => {
  it('asks once, waits while pending, and lets an approved call run exactly once', async () => {
    const { approvals, gate } = setup();
    const first = await gate.check(request);
    expect(first.status).toBe('pending');
    expect((await gate.check(request)).approval_id).toBe(first.approval_id);
    expect(approvals.rows.size).toBe(1);
    approvals.rows.get(first.approval_id)!.status = 'approved';
    expect((await gate.check(request)).status).toBe('approved');
    expect((await gate.check(request)).status).toBe('denied');
  });

  it('refuses an approval given for other arguments or another version', async () => {
    const { approvals, gate } = setup();
    const first = await gate.check(request);
    approvals.rows.get(first.approval_id)!.status = 'approved';
    const other = await gate.check({
      ...request,
      binding: { ...request.binding, arguments_hash: 'changed' },
    });
    expect(other.status).toBe('denied');
    expect(approvals.rows.get(first.approval_id)!.consumedAt).toBeNull();
  });

  it('passes the denial reason on and expires undecided requests', async () => {
    const denied = setup();
    const first = await denied.gate.check(request);
    Object.assign(denied.approvals.rows.get(first.approval_id)!, {
      status: 'denied',
      decisionReason: 'not today',
    });
    expect(await denied.gate.check(request)).toMatchObject({ status: 'denied', note: 'not today' });

    const expiring = setup();
    await expiring.gate.check(request);
    expiring.advance(60_000);
    expect((await expiring.gate.check(request)).status).toBe('expired');
    expect([...expiring.approvals.rows.values()][0]!.status).toBe('expired');
  });
});
