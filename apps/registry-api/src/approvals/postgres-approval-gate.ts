import { randomUUID } from 'node:crypto';
import type { ApprovalCheck, ApprovalGate, ApprovalRequest } from '@toolgate/engine';
import type { ApprovalsRepository } from './approvals.repository';

export interface PostgresApprovalGateOptions {
  teamId: string;
  /** Who asked for the call (written on the approval row). */
  requestedBy: string;
  ttlMs: number;
  now?: () => Date;
}

/**
 * The engine's ApprovalGate on the `approvals` table. Call ids are call row ids; one approval per
 * call, bound to the tool id, version and arguments hash, consumed atomically when it lets the call run.
 */
export class PostgresApprovalGate implements ApprovalGate {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly options: PostgresApprovalGateOptions,
  ) {}

  async check(request: ApprovalRequest): Promise<ApprovalCheck> {
    const now = this.options.now?.() ?? new Date();
    const approval =
      (await this.approvals.findByCall(request.call_id)) ??
      (await this.approvals.request({
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
    const base = { approval_id: approval.id };
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
          await this.approvals.markExpired(approval.id);
          return { ...base, status: 'expired' };
        }
        return { ...base, status: 'pending' };
      case 'approved':
        if (await this.approvals.consume(approval.id)) return { ...base, status: 'approved' };
        return {
          ...base,
          status: 'denied',
          note: 'The approval was already used; a second run needs a new approval.',
        };
    }
  }
}
