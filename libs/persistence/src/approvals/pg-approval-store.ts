import type { ApprovalStore, NewStoredApproval, StoredApproval } from '@toolgate/engine';
import type pg from 'pg';

interface ApprovalRow extends Record<string, unknown> {
  id: string;
  tool_id: string;
  tool_version: string;
  arguments_hash: string;
  status: StoredApproval['status'];
  decision_reason: string | null;
  expires_at: Date;
}

function toStored(row: ApprovalRow): StoredApproval {
  return {
    id: row.id,
    toolId: row.tool_id,
    toolVersion: row.tool_version,
    argumentsHash: row.arguments_hash,
    status: row.status,
    decisionReason: row.decision_reason,
    expiresAt: row.expires_at,
  };
}

/**
 * The registry's `approvals` table for the worker's StoredApprovalGate (the API reaches the same
 * rows through its Prisma repository). Each change is one conditional statement, so concurrent
 * workers never both consume an approval.
 */
export class PgApprovalStore implements ApprovalStore {
  constructor(private readonly pool: pg.Pool) {}

  async findByCall(callId: string): Promise<StoredApproval | null> {
    const { rows } = await this.pool.query<ApprovalRow>(
      'SELECT * FROM approvals WHERE call_id = $1',
      [callId],
    );
    return rows[0] === undefined ? null : toStored(rows[0]);
  }

  async request(row: NewStoredApproval): Promise<StoredApproval> {
    await this.pool.query(
      `INSERT INTO approvals (id, call_id, team_id, tool_id, tool_version, arguments_hash, reason,
                              policy_reason, requested_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (call_id) DO NOTHING`,
      [
        row.id,
        row.callId,
        row.teamId,
        row.toolId,
        row.toolVersion,
        row.argumentsHash,
        row.reason,
        row.policyReason,
        row.requestedBy,
        row.expiresAt,
      ],
    );
    const stored = await this.findByCall(row.callId);
    if (stored === null) throw new Error(`approval of call ${row.callId} vanished`);
    return stored;
  }

  async markExpired(id: string): Promise<void> {
    await this.pool.query(
      `UPDATE approvals SET status = 'expired' WHERE id = $1 AND status = 'pending'`,
      [id],
    );
  }

  async consume(id: string): Promise<boolean> {
    const consumed = await this.pool.query(
      `UPDATE approvals SET consumed_at = now()
        WHERE id = $1 AND status = 'approved' AND consumed_at IS NULL RETURNING id`,
      [id],
    );
    return consumed.rowCount === 1;
  }
}
