import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { Approval } from '../generated/prisma/client';

export type ApprovalRow = Approval;
export type ApprovalStatusValue = Approval['status'];

/** An approval with who made its call and whether the team lets that caller decide it. */
export type ApprovalForDecision = ApprovalRow & {
  call: { keyId: string | null; actor: string };
  team: { allowSelfApproval: boolean };
};

export interface ApprovalDecisionRow {
  id: string;
  teamId: string | null;
  status: 'approved' | 'denied';
  decidedBy: string;
  decisionReason: string | null;
}

@Injectable()
export class ApprovalsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  findByCall(callId: string): Promise<ApprovalRow | null> {
    return this.database.prisma.approval.findUnique({ where: { callId } });
  }

  findById(id: string, teamId: string | null): Promise<ApprovalRow | null> {
    return this.database.prisma.approval.findFirst({
      where: { id, ...(teamId === null ? {} : { teamId }) },
    });
  }

  findForDecision(id: string, teamId: string | null): Promise<ApprovalForDecision | null> {
    return this.database.prisma.approval.findFirst({
      where: { id, ...(teamId === null ? {} : { teamId }) },
      include: {
        call: { select: { keyId: true, actor: true } },
        team: { select: { allowSelfApproval: true } },
      },
    });
  }

  list(filter: {
    teamId: string | null;
    status?: ApprovalStatusValue | undefined;
    limit: number;
  }): Promise<ApprovalRow[]> {
    return this.database.prisma.approval.findMany({
      where: {
        ...(filter.teamId === null ? {} : { teamId: filter.teamId }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
    });
  }

  /**
   * Records a decision on a pending, unexpired approval with its audit event, in one transaction.
   * Null when the approval was not pending any more (decided, expired or consumed). The call goes
   * back to the queue through the call store afterwards.
   */
  decide(decision: ApprovalDecisionRow, audit: AuditEntry): Promise<ApprovalRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const now = new Date();
      const updated = await tx.approval.updateMany({
        where: {
          id: decision.id,
          status: 'pending',
          expiresAt: { gt: now },
          ...(decision.teamId === null ? {} : { teamId: decision.teamId }),
        },
        data: {
          status: decision.status,
          decidedBy: decision.decidedBy,
          decisionReason: decision.decisionReason,
          decidedAt: now,
        },
      });
      if (updated.count === 0) return null;
      const approval = await tx.approval.findUniqueOrThrow({ where: { id: decision.id } });
      await appendAuditEvent(tx, audit);
      return approval;
    });
  }

  /** Expires pending approvals past their time; returns their call ids (the caller requeues them). */
  async expireDue(now: Date): Promise<string[]> {
    const expired = await this.database.prisma.approval.updateManyAndReturn({
      where: { status: 'pending', expiresAt: { lte: now } },
      data: { status: 'expired' },
    });
    return expired.map((row) => row.callId);
  }
}
