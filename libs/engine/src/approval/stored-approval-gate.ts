import { randomUUID } from 'node:crypto';
import type { ApprovalCheck, ApprovalGate, ApprovalRequest } from './approval-gate';

/** An approval row as a durable store keeps it (one per call). */
export interface StoredApproval {
  id: string;
  toolId: string;
  toolVersion: string;
  argumentsHash: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  decisionReason: string | null;
  expiresAt: Date;
  /** When the request was written; stores that know it report it for traces. */
  requestedAt?: Date;
  /** When a person decided; null or absent while pending. */
  decidedAt?: Date | null;
}

/** A request for approval, written when a call first reaches the gate. */
export interface NewStoredApproval {
  id: string;
  callId: string;
  teamId: string;
  toolId: string;
  toolVersion: string;
  argumentsHash: string;
  reason: string;
  policyReason: string | null;
  requestedBy: string;
  expiresAt: Date;
}

/** What the gate needs from a durable store: the registry's Prisma repository and the worker's pg store. */
export interface ApprovalStore {
  findByCall(callId: string): Promise<StoredApproval | null>;
  /** Inserts the call's request, or returns the one a concurrent check inserted first. */
  request(row: NewStoredApproval): Promise<StoredApproval>;
  /** `pending` -> `expired`; nothing when it is no longer pending. */
  markExpired(id: string): Promise<void>;
  /** Marks an `approved` row used; false when it was used already (an approval runs a call once). */
  consume(id: string): Promise<boolean>;
}

/** Who asks for approvals through a gate and how long a request stays open. */
export interface StoredApprovalGateOptions {
  teamId: string;
  /** Who asked for the call (written on the approval row). */
  requestedBy: string;
  ttlMs: number;
  now?: () => Date;
}

/**
 * The engine's ApprovalGate over a durable store. One approval per call, bound to the tool id,
 * version and arguments hash, consumed atomically when it lets the call run.
 */
export class StoredApprovalGate implements ApprovalGate {
  constructor(
    private readonly store: ApprovalStore,
    private readonly options: StoredApprovalGateOptions,
  ) {}

  async check(request: ApprovalRequest): Promise<ApprovalCheck> {
    const now = this.options.now?.() ?? new Date();
    const approval =
      (await this.store.findByCall(request.call_id)) ??
      (await this.store.request({
        id: randomUUID(),
        callId: request.call_id,
        teamId: this.options.teamId,
        toolId: request.binding.tool_id,
        toolVersion: request.binding.tool_version,
        argumentsHash: request.binding.arguments_hash,
        reason: request.reason,
        policyReason: request.policy_reason ?? null,
        requestedBy: this.options.requestedBy,
        expiresAt: new Date(now.getTime() + this.options.ttlMs),
      }));
    const base = {
      approval_id: approval.id,
      ...(approval.requestedAt === undefined
        ? {}
        : { requested_at: approval.requestedAt.getTime() }),
      ...(approval.decidedAt === undefined || approval.decidedAt === null
        ? {}
        : { decided_at: approval.decidedAt.getTime() }),
    };
    // An approval covers exactly what the approver saw; anything else is refused, never run.
    if (
      approval.toolId !== request.binding.tool_id ||
      approval.toolVersion !== request.binding.tool_version ||
      approval.argumentsHash !== request.binding.arguments_hash
    ) {
      return {
        ...base,
        status: 'denied',
        note: 'The approval was given for another tool version or other arguments.',
      };
    }
    switch (approval.status) {
      case 'denied':
        return {
          ...base,
          status: 'denied',
          ...(approval.decisionReason === null ? {} : { note: approval.decisionReason }),
        };
      case 'expired':
        return { ...base, status: 'expired' };
      case 'pending':
        if (approval.expiresAt <= now) {
          await this.store.markExpired(approval.id);
          return { ...base, status: 'expired' };
        }
        return { ...base, status: 'pending' };
      case 'approved':
        if (await this.store.consume(approval.id)) return { ...base, status: 'approved' };
        return {
          ...base,
          status: 'denied',
          note: 'The approval was already used; a second run needs a new approval.',
        };
    }
  }
}
