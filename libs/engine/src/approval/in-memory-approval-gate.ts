import { randomUUID } from 'node:crypto';
import type { Clock } from '../pipeline/clock';
import { systemClock } from '../pipeline/clock';
import type {
  ApprovalBinding,
  ApprovalCheck,
  ApprovalGate,
  ApprovalRequest,
} from './approval-gate';

/** One approval request as the in-memory gate keeps it. */
export interface ApprovalRecord {
  id: string;
  call_id: string;
  tool_name: string;
  binding: ApprovalBinding;
  reason: ApprovalRequest['reason'];
  policy_reason?: string;
  arguments: Record<string, unknown>;
  status: 'pending' | 'approved' | 'denied' | 'consumed';
  created_at: number;
  expires_at: number;
  decided_by?: string;
  decided_at?: number;
  note?: string;
}

function sameBinding(left: ApprovalBinding, right: ApprovalBinding): boolean {
  return (
    left.tool_id === right.tool_id &&
    left.tool_version === right.tool_version &&
    left.arguments_hash === right.arguments_hash
  );
}

/** An approval gate kept in memory, for tests, the embedded mode and the SDK. */
export class InMemoryApprovalGate implements ApprovalGate {
  private readonly records = new Map<string, ApprovalRecord>();
  private readonly clock: Clock;
  private readonly ttlMs: number;

  constructor(options: { clock?: Clock; ttlMs?: number } = {}) {
    this.clock = options.clock ?? systemClock;
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  }

  check(request: ApprovalRequest): Promise<ApprovalCheck> {
    return Promise.resolve(this.checkNow(request));
  }

  /** Records a person's approval of a pending request. */
  approve(approvalId: string, options: { by: string; note?: string }): ApprovalRecord {
    return this.decide(approvalId, { ...options, status: 'approved' });
  }

  /** Records a person's denial of a pending request. */
  deny(approvalId: string, options: { by: string; note?: string }): ApprovalRecord {
    return this.decide(approvalId, { ...options, status: 'denied' });
  }

  /** Every request, for consoles and tests. */
  list(): ApprovalRecord[] {
    return [...this.records.values()].map((record) => ({ ...record }));
  }

  /** One request by id. */
  get(approvalId: string): ApprovalRecord | undefined {
    const record = this.records.get(approvalId);
    return record === undefined ? undefined : { ...record };
  }

  private decide(
    approvalId: string,
    decision: { by: string; note?: string; status: 'approved' | 'denied' },
  ): ApprovalRecord {
    const record = this.records.get(approvalId);
    if (record === undefined) throw new Error(`unknown approval ${approvalId}`);
    if (record.status !== 'pending')
      throw new Error(`approval ${approvalId} is ${record.status}, not pending`);
    if (this.clock.now() >= record.expires_at)
      throw new Error(`approval ${approvalId} has expired`);
    record.status = decision.status;
    record.decided_by = decision.by;
    record.decided_at = this.clock.now();
    if (decision.note !== undefined) record.note = decision.note;
    return { ...record };
  }

  private checkNow(request: ApprovalRequest): ApprovalCheck {
    const now = this.clock.now();
    // Only a live (not consumed) request for this very call and binding counts: an approval of other
    // arguments, another version or another call never lets this one run.
    const existing = [...this.records.values()].find(
      (record) =>
        record.call_id === request.call_id &&
        record.status !== 'consumed' &&
        sameBinding(record.binding, request.binding),
    );
    if (existing !== undefined) {
      const base = {
        approval_id: existing.id,
        requested_at: existing.created_at,
        ...(existing.decided_at === undefined ? {} : { decided_at: existing.decided_at }),
      };
      if (existing.status === 'denied') {
        return {
          ...base,
          status: 'denied',
          ...(existing.note === undefined ? {} : { note: existing.note }),
        };
      }
      if (now >= existing.expires_at) return { ...base, status: 'expired' };
      if (existing.status === 'approved') {
        existing.status = 'consumed';
        return { ...base, status: 'approved' };
      }
      return { ...base, status: 'pending' };
    }
    const record: ApprovalRecord = {
      id: randomUUID(),
      call_id: request.call_id,
      tool_name: request.tool_name,
      binding: { ...request.binding },
      reason: request.reason,
      ...(request.policy_reason === undefined ? {} : { policy_reason: request.policy_reason }),
      arguments: structuredClone(request.arguments),
      status: 'pending',
      created_at: now,
      expires_at: now + this.ttlMs,
    };
    this.records.set(record.id, record);
    return { status: 'pending', approval_id: record.id, requested_at: now };
  }
}
