import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type {
  Approval,
  ApprovalDecisionInput,
  ApprovalList,
  ListApprovalsQuery,
} from '@toolgate/contract';
import { ActorsService } from '../actors/actors.service';
import type { Principal } from '../auth/principal';
import { GatewayHost } from '../calls/gateway-host';
import { ToolException } from '../problem/tool.exception';
import { RunQueue } from '../runs/run-queue';
import {
  ApprovalsRepository,
  type ApprovalForDecision,
  type ApprovalRow,
} from './approvals.repository';

// How often open approvals are checked for expiry; a check of the call itself also expires it.
const EXPIRY_SWEEP_MS = 5_000;

/**
 * True when the principal made the call the approval is for. `requested_by` is the call's actor
 * (or, for a call recorded without one, its key id), so the key id and actor of the call row are
 * compared too.
 */
function isRequester(principal: Principal, approval: ApprovalForDecision): boolean {
  if (principal.actor === approval.requestedBy || principal.actor === approval.call.actor) {
    return true;
  }
  return (
    principal.keyId !== null &&
    (principal.keyId === approval.call.keyId || principal.keyId === approval.requestedBy)
  );
}

export function approvalToDto(row: ApprovalRow): Approval {
  return {
    id: row.id,
    call_id: row.callId,
    tool_id: row.toolId,
    tool_version: row.toolVersion,
    arguments_hash: row.argumentsHash,
    reason: row.reason,
    policy_reason: row.policyReason,
    status: row.status,
    requested_by: row.requestedBy,
    decided_by: row.decidedBy,
    decision_reason: row.decisionReason,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    consumed_at: row.consumedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ApprovalsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ApprovalsService.name);
  private timer: NodeJS.Timeout | undefined;

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ApprovalsRepository) private readonly approvals: ApprovalsRepository,
    @Inject(GatewayHost) private readonly gateway: GatewayHost,
    @Inject(ActorsService) private readonly actors: ActorsService,
    @Inject(RunQueue) private readonly runQueue: RunQueue,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.expireDue().catch((error: unknown) => {
        this.logger.warn(`expiring approvals failed: ${String(error)}`);
      });
    }, EXPIRY_SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async list(principal: Principal, query: ListApprovalsQuery): Promise<ApprovalList> {
    const rows = await this.approvals.list({
      teamId: principal.teamId,
      status: query.status,
      limit: query.limit,
    });
    const actors = await this.actors.describe(
      rows.flatMap((row) => [row.requestedBy, row.decidedBy]),
    );
    return { items: rows.map(approvalToDto), actors };
  }

  /**
   * Records a person's decision; the call goes back to the dispatcher, whose engine run reads it:
   * an approval lets exactly that call run once, a denial becomes its `approval_denied` result.
   */
  async decide(principal: Principal, id: string, body: ApprovalDecisionInput): Promise<Approval> {
    const target = await this.approvals.findForDecision(id, principal.teamId);
    if (target === null) {
      throw new ToolException('not_found', `Approval ${id} was not found.`);
    }
    // Four eyes by default, for denials too: a requester that no longer wants its call cancels it
    // (POST /v1/calls/:id/cancel). The setting is read right before the decision is written, so a
    // change of it applies from the next decision on.
    if (!target.team.allowSelfApproval && isRequester(principal, target)) {
      throw new ToolException(
        'self_approval_forbidden',
        `Approval ${id} is for a call made by ${target.requestedBy}, which cannot decide it: another ` +
          'member with the approvals:decide scope must. A team admin can allow self-approval ' +
          `for the team with PATCH /v1/teams/${target.teamId} {"allow_self_approval": true}.`,
        { extensions: { requested_by: target.requestedBy } },
      );
    }
    const status = body.decision === 'approve' ? 'approved' : 'denied';
    const decided = await this.approvals.decide(
      {
        id,
        teamId: principal.teamId,
        status,
        decidedBy: principal.actor,
        decisionReason: body.reason ?? null,
      },
      {
        actor: principal.actor,
        teamId: principal.teamId,
        action: `approval.${status}`,
        entityType: 'approval',
        entityId: id,
        data: { decision: body.decision, reason: body.reason ?? null },
      },
    );
    if (decided === null) {
      const existing = (await this.approvals.findById(id, principal.teamId)) ?? target;
      const state = existing.status === 'pending' ? 'expired' : existing.status;
      throw new ToolException(
        'conflict',
        `Approval ${id} is ${state}; only a pending approval can be decided.`,
        { extensions: { approval_status: state } },
      );
    }
    // Back to the queue, where the engine's gate reads the decision (a stop right here is healed
    // when an API starts).
    this.gateway.requeue(await this.gateway.calls.requeueDecided([decided.callId]));
    // A run waiting on the call goes on now, not at its next look.
    this.runQueue.advanceRunsOfCalls([decided.callId]);
    return approvalToDto(decided);
  }

  /** Expires open approvals past their time; their calls get `approval_expired` results. */
  async expireDue(now = new Date()): Promise<string[]> {
    const callIds = await this.approvals.expireDue(now);
    this.gateway.requeue(await this.gateway.calls.requeueDecided(callIds));
    this.runQueue.advanceRunsOfCalls(callIds);
    return callIds;
  }
}
