import type { ApprovalStore, NewStoredApproval, StoredApproval } from '@toolgate/engine';
import { sql, type SqlPort } from '../sql/sql-port';

interface ApprovalRow extends Record<string, unknown> {
  id: string;
  tool_id: string;
  tool_version: string;
  arguments_hash: string;
  status: StoredApproval['status'];
  decision_reason: string | null;
  expires_at: Date;
  created_at: Date;
  decided_at: Date | null;
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
    requestedAt: row.created_at,
    decidedAt: row.decided_at,
  };
}

const COLUMNS =
  'id, tool_id, tool_version, arguments_hash, status, decision_reason, expires_at, created_at, decided_at';

const FIND_BY_CALL = sql(
  'approvals.find_by_call',
  `SELECT ${COLUMNS} FROM approvals WHERE call_id = $1`,
);

// A concurrent check of the same call inserted first: the conflict's no-op assignment returns its row.
const REQUEST = sql(
  'approvals.request',
  `INSERT INTO approvals (id, call_id, team_id, tool_id, tool_version, arguments_hash, reason,
                          policy_reason, requested_by, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   ON CONFLICT (call_id) DO UPDATE SET call_id = excluded.call_id
   RETURNING ${COLUMNS}`,
);

const MARK_EXPIRED = sql(
  'approvals.mark_expired',
  `UPDATE approvals SET status = 'expired' WHERE id = $1 AND status = 'pending'`,
);

const CONSUME = sql(
  'approvals.consume',
  `UPDATE approvals SET consumed_at = now()
    WHERE id = $1 AND status = 'approved' AND consumed_at IS NULL RETURNING id`,
);

/**
 * The `approvals` table for the engine's StoredApprovalGate, wherever the call runner is hosted.
 * Each change is one conditional statement, so concurrent runs never both consume an approval.
 */
export class PgApprovalStore implements ApprovalStore {
  constructor(private readonly db: SqlPort) {}

  async findByCall(callId: string): Promise<StoredApproval | null> {
    const { rows } = await this.db.query<ApprovalRow>(FIND_BY_CALL, [callId]);
    return rows[0] === undefined ? null : toStored(rows[0]);
  }

  async request(row: NewStoredApproval): Promise<StoredApproval> {
    const { rows } = await this.db.query<ApprovalRow>(REQUEST, [
      row.id,
      row.callId,
      row.teamId,
      row.toolId,
      row.toolVersion,
      row.argumentsHash,
      row.reason,
      row.policyReason,
      row.requestedBy,
      row.expiresAt.toISOString(),
    ]);
    if (rows[0] === undefined) throw new Error(`approval of call ${row.callId} vanished`);
    return toStored(rows[0]);
  }

  async markExpired(id: string): Promise<void> {
    await this.db.query(MARK_EXPIRED, [id]);
  }

  async consume(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(CONSUME, [id]);
    return rowCount === 1;
  }
}
