import { randomUUID } from 'node:crypto';
import type { ApprovalCheck, ApprovalGate, ApprovalRequest } from '@toolgate/engine';
import type pg from 'pg';

/** Who asks for approvals through this gate and how long a request stays open. */
export interface PgApprovalGateOptions {
  teamId: string;
  /** Who asked for the call (written on the approval row). */
  requestedBy: string;
  ttlMs: number;
  now?: () => Date;
}

interface ApprovalRow extends Record<string, unknown> {
  id: string;
  tool_id: string;
  tool_version: string;
  arguments_hash: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  decision_reason: string | null;
  expires_at: Date;
}

/**
 * The engine's ApprovalGate on the registry's `approvals` table, for the worker (the API's gate
 * does the same through Prisma). One approval per call, bound to the tool id, version and
 * arguments hash, consumed atomically when it lets the call run.
 */
export class PgApprovalGate implements ApprovalGate {
  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgApprovalGateOptions,
  ) {}

  async check(request: ApprovalRequest): Promise<ApprovalCheck> {
    const now = this.options.now?.() ?? new Date();
    const approval = (await this.findByCall(request.call_id)) ?? (await this.request(request, now));
    const base = { approval_id: approval.id };
    // An approval covers exactly what the approver saw; anything else is refused, never run.
    if (
      approval.tool_id !== request.binding.tool_id ||
      approval.tool_version !== request.binding.tool_version ||
      approval.arguments_hash !== request.binding.arguments_hash
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
          ...(approval.decision_reason === null ? {} : { note: approval.decision_reason }),
        };
      case 'expired':
        return { ...base, status: 'expired' };
      case 'pending':
        if (approval.expires_at <= now) {
          await this.pool.query(
            `UPDATE approvals SET status = 'expired' WHERE id = $1 AND status = 'pending'`,
            [approval.id],
          );
          return { ...base, status: 'expired' };
        }
        return { ...base, status: 'pending' };
      case 'approved': {
        const consumed = await this.pool.query(
          `UPDATE approvals SET consumed_at = now()
            WHERE id = $1 AND status = 'approved' AND consumed_at IS NULL RETURNING id`,
          [approval.id],
        );
        if (consumed.rowCount === 1) return { ...base, status: 'approved' };
        return {
          ...base,
          status: 'denied',
          note: 'The approval was already used; a second run needs a new approval.',
        };
      }
    }
  }

  private async findByCall(callId: string): Promise<ApprovalRow | undefined> {
    const { rows } = await this.pool.query<ApprovalRow>(
      'SELECT * FROM approvals WHERE call_id = $1',
      [callId],
    );
    return rows[0];
  }

  /** Inserts the call's approval request, or returns the one a concurrent check inserted first. */
  private async request(request: ApprovalRequest, now: Date): Promise<ApprovalRow> {
    await this.pool.query(
      `INSERT INTO approvals (id, call_id, team_id, tool_id, tool_version, arguments_hash, reason,
                              policy_reason, requested_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (call_id) DO NOTHING`,
      [
        randomUUID(),
        request.call_id,
        this.options.teamId,
        request.binding.tool_id,
        request.binding.tool_version,
        request.binding.arguments_hash,
        request.reason,
        request.policy_reason ?? null,
        this.options.requestedBy,
        new Date(now.getTime() + this.options.ttlMs),
      ],
    );
    const stored = await this.findByCall(request.call_id);
    if (stored === undefined) throw new Error(`approval of call ${request.call_id} vanished`);
    return stored;
  }
}
