import type { EngineToolResult, PolicyPrincipal } from '@toolgate/engine';
import { hashArguments, plainToolResult } from '@toolgate/engine';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import type pg from 'pg';
import type {
  CallOutcome,
  CallRecord,
  CallRepository,
  CallRun,
  CallState,
  NewCall,
} from './call-repository';
import { STARTABLE_CALL_STATES } from './call-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id can name a row of `calls` (its ids are uuids); anything else names no call. */
export function isCallRowId(id: string): boolean {
  return UUID.test(id);
}

// `retrying` is the worker's name for a call put back by a person; the table has no such status.
const STARTABLE_ROW_STATUSES = STARTABLE_CALL_STATES.filter((state) => state !== 'retrying');

/** The scopes a recorded call runs with: what the API grants a call it executes. */
export const CALL_EXECUTION_SCOPES: readonly string[] = ['calls:execute'];

/** Who a recorded call runs for, from the owner columns the API writes. */
export function callerOfRow(row: {
  team_id: string;
  key_id: string | null;
  actor: string;
}): PolicyPrincipal {
  return { key_id: row.key_id ?? row.actor, team: row.team_id, scopes: [...CALL_EXECUTION_SCOPES] };
}

interface CallRowWithTool extends Record<string, unknown> {
  id: string;
  team_id: string;
  key_id: string | null;
  actor: string;
  conversation_id: string | null;
  tool_name: string;
  tool_version: string;
  arguments: Record<string, unknown>;
  status: CallState;
  result: EngineToolResult | null;
  attempts: number;
  answered_by: string | null;
  latency_ms: number | null;
  decision_effect: string | null;
  decision_rule: string | null;
  policy_revision: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  run_id: string | null;
  worker_id: string | null;
  run_attempt: number | null;
  ir: ToolIR | null;
}

const OUTCOME_STATES = new Set<CallState>([
  'awaiting_approval',
  'succeeded',
  'failed',
  'outcome_unknown',
]);


function recordOf(row: CallRowWithTool): CallRecord | undefined {
  // A call whose tool version vanished cannot run; the registry never deletes versions in use.
  if (row.ir === null) return undefined;
  const call: ToolCallIR = {
    id: row.id,
    name: row.tool_name,
    arguments: row.arguments,
    tool_version: row.tool_version,
  };
  const record: CallRecord = {
    call,
    // Stored versions were validated as ToolIR when they were published.
    tool: row.ir,
    caller: callerOfRow(row),
    conversation_id: row.conversation_id ?? undefined,
    actor: row.actor,
    state: row.status,
  };
  if (row.run_id !== null) {
    record.run = {
      worker_id: row.worker_id ?? '',
      attempt: row.run_attempt ?? 0,
      run_id: row.run_id,
      started_at: row.started_at?.getTime() ?? 0,
    };
  }
  if (OUTCOME_STATES.has(row.status) && row.result !== null) {
    record.outcome = {
      status: row.status as CallOutcome['status'],
      result: row.result,
      attempts: row.attempts,
      latency_ms: row.latency_ms ?? 0,
      answered_by: row.answered_by ?? undefined,
      finished_at: row.finished_at?.getTime() ?? 0,
      ...(row.decision_effect === null
        ? {}
        : {
            decision: {
              effect: row.decision_effect as 'allow' | 'deny' | 'require_approval',
              policy_revision: row.policy_revision ?? '',
              ...(row.decision_rule === null ? {} : { matched_rule: row.decision_rule }),
            },
          }),
    };
  }
  return record;
}

/** A call to record directly (tests, tools): the API's own columns default from the call. */
export interface NewCallRow extends NewCall {
  /** The tool's registry id; defaults to the ToolIR's id. */
  tool_id?: string;
  provider?: string;
  idempotency_key?: string;
}

/**
 * The worker's call records on the `calls` table the API writes, so both share one record of each
 * call. Every transition is one `UPDATE ... WHERE id = $1 AND status = ... [AND run_id = ...]
 * RETURNING`, atomic under concurrent workers; `run_id` fences off a worker that lost its job.
 */
export class PostgresCallRepository implements CallRepository {
  constructor(private readonly pool: pg.Pool) {}

  async getCall(callId: string): Promise<CallRecord | undefined> {
    if (!isCallRowId(callId)) return undefined;
    const { rows } = await this.pool.query<CallRowWithTool>(
      `SELECT c.*, v.ir FROM calls c
         LEFT JOIN tool_versions v ON v.tool_id = c.tool_id AND v.version = c.tool_version
        WHERE c.id = $1`,
      [callId],
    );
    const row = rows[0];
    return row === undefined ? undefined : recordOf(row);
  }

  /** The states of several calls (missing ids are left out). */
  async getStates(callIds: readonly string[]): Promise<Map<string, CallState>> {
    const ids = callIds.filter(isCallRowId);
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; status: CallState }>(
      'SELECT id, status FROM calls WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  async markStarted(callId: string, run: CallRun): Promise<boolean> {
    if (!isCallRowId(callId)) return false;
    const { rowCount } = await this.pool.query(
      `UPDATE calls
          SET status = 'running', run_id = $2, worker_id = $3, run_attempt = $4,
              started_at = to_timestamp($5::double precision / 1000)
        WHERE id = $1 AND status = ANY($6::call_status[])
        RETURNING id`,
      [callId, run.run_id, run.worker_id, run.attempt, run.started_at, STARTABLE_ROW_STATUSES],
    );
    return rowCount === 1;
  }

  async takeOver(callId: string, input: { previousRunId: string; run: CallRun }): Promise<boolean> {
    if (!isCallRowId(callId)) return false;
    const { run } = input;
    const { rowCount } = await this.pool.query(
      `UPDATE calls
          SET run_id = $3, worker_id = $4, run_attempt = $5,
              started_at = to_timestamp($6::double precision / 1000)
        WHERE id = $1 AND status = 'running' AND coalesce(run_id, '') = $2
        RETURNING id`,
      [callId, input.previousRunId, run.run_id, run.worker_id, run.attempt, run.started_at],
    );
    return rowCount === 1;
  }

  async recordOutcome(
    callId: string,
    input: { runId: string; outcome: CallOutcome },
  ): Promise<boolean> {
    if (!isCallRowId(callId)) return false;
    const { outcome } = input;
    const waiting = outcome.status === 'awaiting_approval';
    const { rowCount } = await this.pool.query(
      `UPDATE calls
          SET status = $3::call_status, result = $4::jsonb, error_code = $5,
              attempts = attempts + $6, answered_by = $7, latency_ms = $8,
              decision_effect = $9, decision_rule = $10, policy_revision = $11,
              finished_at = CASE WHEN $12::boolean THEN NULL
                                 ELSE to_timestamp($13::double precision / 1000) END
        WHERE id = $1 AND status = 'running' AND run_id = $2
        RETURNING id`,
      [
        callId,
        input.runId,
        outcome.status,
        JSON.stringify(plainToolResult(outcome.result)),
        outcome.result.error?.code ?? null,
        outcome.attempts,
        outcome.answered_by ?? null,
        Math.round(outcome.latency_ms),
        outcome.decision?.effect ?? null,
        outcome.decision?.matched_rule ?? null,
        outcome.decision?.policy_revision ?? null,
        waiting,
        outcome.finished_at,
      ],
    );
    return rowCount === 1;
  }

  /**
   * Records a call as `queued`, as the API does; false when the id (or its idempotency key) exists.
   * The caller's team, the tool and its version must already be in the registry.
   */
  async create(input: NewCallRow): Promise<boolean> {
    const keyId = isCallRowId(input.caller.key_id) ? input.caller.key_id : null;
    const { rowCount } = await this.pool.query(
      `INSERT INTO calls (id, team_id, key_id, actor, conversation_id, provider, provider_call_id,
                          tool_id, tool_name, tool_version, arguments, arguments_hash, idempotency_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        input.call.id,
        input.caller.team,
        keyId,
        input.caller.key_id,
        input.conversation_id ?? null,
        input.provider ?? 'ir',
        input.call.id,
        input.tool_id ?? input.tool.id,
        input.tool.name,
        input.tool.version,
        JSON.stringify(input.call.arguments),
        hashArguments(input.call.arguments),
        input.idempotency_key ?? input.call.id,
      ],
    );
    return rowCount === 1;
  }
}
