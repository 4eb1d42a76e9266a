import type { TokenUsage } from '@toolgate/adapters';
import type {
  EngineToolResult,
  PolicyOAuth,
  PolicyPrincipal,
  ResourceVersion,
  ToolCost,
} from '@toolgate/engine';
import { hashArguments, plainToolResult } from '@toolgate/engine';
import type { CallArgumentsRepair, PartialArgumentStates } from '@toolgate/contract';
import type { GrammarCheck, ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import { MicroBatcher } from '../sql/micro-batcher';
import { sql, type SqlPort } from '../sql/sql-port';
import { ABANDONED_RUN_ATTEMPTS, clientRelayOf } from './call-repository';
import type {
  CallOutcome,
  CallTokenCost,
  ClientRelayTarget,
  CallRecord,
  CallRepository,
  CallRun,
  CallRunRecord,
  CallState,
  ClaimResult,
  NewCall,
} from './call-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id can name a row of `calls` (its ids are uuids); anything else names no call. */
export function isCallRowId(id: string): boolean {
  return UUID.test(id);
}

/** The scopes a recorded call runs with: what the API grants a call it executes. */
export const CALL_EXECUTION_SCOPES: readonly string[] = ['calls:execute'];

/** Who a recorded call runs for, from the owner columns the API writes. */
export function callerOfRow(row: {
  teamId: string;
  keyId: string | null;
  actor: string;
  callerOauth?: PolicyOAuth | null;
}): PolicyPrincipal {
  return {
    key_id: row.keyId ?? row.actor,
    team: row.teamId,
    scopes: [...CALL_EXECUTION_SCOPES],
    ...(row.callerOauth == null ? {} : { oauth: row.callerOauth }),
  };
}

/** The `call_status` column: the worker's states less `retrying`, which the table does not hold. */
export type CallStatus = Exclude<CallState, 'retrying'>;

/** Statuses after which a call never changes again. */
export const FINAL_CALL_STATUSES: readonly CallStatus[] = [
  'succeeded',
  'failed',
  'cancelled',
  'outcome_unknown',
];

/** One row of `calls`, as every reader of the table sees it. */
export interface CallRow {
  id: string;
  teamId: string;
  keyId: string | null;
  actor: string;
  /** The OAuth token the caller presented, for policies that key on its scopes or client. */
  callerOauth: PolicyOAuth | null;
  /** The MCP session the call came from, when its client can answer what the upstream asks. */
  clientRelay: ClientRelayTarget | null;
  conversationId: string | null;
  provider: string;
  providerCallId: string;
  toolId: string;
  toolName: string;
  toolVersion: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
  idempotencyKey: string;
  status: CallStatus;
  /** The ToolResultIR-shaped result (under the row id), once the call has one. */
  result: Record<string, unknown> | null;
  errorCode: string | null;
  attempts: number;
  answeredBy: string | null;
  /** How old the cached result was when the result cache answered; null when the call executed. */
  cacheAgeMs: number | null;
  latencyMs: number | null;
  decisionEffect: string | null;
  decisionRule: string | null;
  policyRevision: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  runId: string | null;
  workerId: string | null;
  runAttempt: number | null;
  /** Every pickup of the call, oldest first (the `runs` column). */
  runs: CallRunRecord[];
  /**
   * How a free-text call's input is checked against its tool version's grammar: `regex` (matched
   * before the tool runs), `not_checked` (a Lark grammar, which nothing checks); null otherwise.
   */
  inputCheck: GrammarCheck | null;
  /** How the arguments grew while the model streamed them, as the client posted it; null without. */
  partialStates: PartialArgumentStates | null;
  /** What happened to arguments that were cut off (repaired, or not and never run); null otherwise. */
  argumentsRepair: CallArgumentsRepair | null;
  /** The W3C trace id of the request that recorded the call; null when it carried none. */
  traceId: string | null;
  /** The call's share of its turn's tokens and their price; null when the app posted no usage. */
  tokenCost: CallTokenCost | null;
  /** The tool's own cost, written with the outcome; null until then, or when nothing is known. */
  toolCost: ToolCost | null;
  /** The resource version the write expected (set within a run for tools that declare concurrency). */
  expectedVersion: string | null;
  /** The resource and version a successful call reported; null otherwise. */
  resource: ResourceVersion | null;
}

/** A call of one turn to record: what the API resolved for it. */
export interface NewCallRow {
  id: string;
  providerCallId: string;
  toolId: string;
  toolName: string;
  toolVersion: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
  idempotencyKey: string;
  /** Set for a call recorded already claimed by this run (the inline path): it starts `running`. */
  run?: CallRun | undefined;
  /** How the version's grammar checks a free-text input (see `CallRow.inputCheck`). */
  inputCheck?: GrammarCheck | undefined;
  /** The client's record of how the arguments grew while streamed (see `CallRow.partialStates`). */
  partialStates?: PartialArgumentStates | undefined;
  /** The repair of cut-off arguments (see `CallRow.argumentsRepair`). */
  argumentsRepair?: CallArgumentsRepair | undefined;
  /**
   * Set for a call that must not run (cut-off arguments that were not repaired): it is recorded
   * `failed` with this result in the same statement, so no process can pick it up in between.
   */
  refusal?: ToolResultIR | undefined;
  /** The trace id of the recording request (see `CallRow.traceId`). */
  traceId?: string | undefined;
  /** The call's share of the turn's tokens (see `CallRow.tokenCost`). */
  tokenCost?: CallTokenCost | undefined;
  /** The run step the call belongs to (a run's turn or plan step) and its place in it; absent outside runs. */
  runStep?: { id: string; index: number } | undefined;
  /** The resource version the write expects (see `CallRow.expectedVersion`). */
  expectedVersion?: string | undefined;
}

/** A call of a run step, with the step it belongs to. */
export interface RunStepCallRow {
  runStepId: string;
  index: number;
  row: CallRow;
}

/** Who made a turn: written once for all of its calls. */
export interface TurnOwner {
  teamId: string;
  keyId: string | null;
  actor: string;
  /** Set when the caller presented an OAuth access token (at /mcp). */
  oauth?: PolicyOAuth | null;
  /** Set when the calls come from an MCP session whose client can answer its upstream's requests. */
  clientRelay?: ClientRelayTarget | null;
  conversationId: string | null;
  provider: string;
}

/** What recording a turn came to: each wanted call's row, and which of them this statement inserted. */
export interface RecordedTurn {
  /** In the order of the wanted calls; a replayed idempotency key gives the row recorded before. */
  rows: CallRow[];
  inserted: ReadonlySet<string>;
}

/** A filter of `GET /v1/calls`, newest first. */
export interface ListCallsFilter {
  teamId: string | null;
  status?: CallStatus | undefined;
  toolName?: string | undefined;
  /** Received at or after this instant. */
  from?: Date | undefined;
  /** Received before this instant. */
  to?: Date | undefined;
  before?: { createdAt: Date; id: string } | undefined;
  limit: number;
}

/** One outcome of a batch written behind (the inline path). */
export interface OutcomeWrite {
  callId: string;
  runId: string;
  outcome: CallOutcome;
}

interface TurnRequest {
  owner: TurnOwner;
  calls: readonly NewCallRow[];
}

interface ClaimRequest {
  callId: string;
  run: CallRun;
}

/** Finds a tool version's IR; versions come from the in-memory catalog, not from a join per call. */
export type ToolVersionLookup = (toolId: string, version: string) => Promise<ToolIR | undefined>;

interface CallColumns extends Record<string, unknown> {
  id: string;
  team_id: string;
  key_id: string | null;
  actor: string;
  caller_oauth: PolicyOAuth | null;
  client_relay: unknown;
  conversation_id: string | null;
  provider: string;
  provider_call_id: string;
  tool_id: string;
  tool_name: string;
  tool_version: string;
  arguments: Record<string, unknown>;
  arguments_hash: string;
  idempotency_key: string;
  status: CallStatus;
  result: Record<string, unknown> | null;
  error_code: string | null;
  attempts: number;
  answered_by: string | null;
  cache_age_ms: number | null;
  latency_ms: number | null;
  decision_effect: string | null;
  decision_rule: string | null;
  policy_revision: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  run_id: string | null;
  worker_id: string | null;
  run_attempt: number | null;
  runs: CallRunRecord[];
  input_check: GrammarCheck | null;
  partial_states: PartialArgumentStates | null;
  arguments_repair: CallArgumentsRepair | null;
  trace_id: string | null;
  model: string | null;
  tokens: TokenUsage | null;
  tokens_usd: number | null;
  tokens_unpriced_reason: string | null;
  tool_cost_usd: number | null;
  tool_cost_source: ToolCost['source'] | null;
  expected_version: string | null;
  resource: ResourceVersion | null;
}

const COLUMNS = `id, team_id, key_id, actor, caller_oauth, client_relay, conversation_id, provider, provider_call_id, tool_id,
  tool_name, tool_version, arguments, arguments_hash, idempotency_key, status, result, error_code,
  attempts, answered_by, cache_age_ms, latency_ms, decision_effect, decision_rule, policy_revision, created_at,
  started_at, finished_at, run_id, worker_id, run_attempt, runs, input_check, arguments_repair,
  partial_states, trace_id, model, tokens, tokens_usd, tokens_unpriced_reason, tool_cost_usd,
  tool_cost_source, expected_version, resource`;

// In a statement that joins another relation, every returned column names the call's.
const QUALIFIED_COLUMNS = COLUMNS.split(',')
  .map((column) => `c.${column.trim()}`)
  .join(', ');

// What a claim returns: the runner's record, which never reads how streamed arguments grew (up to
// 16 KiB a call), so a claim does not carry them.
const CLAIMED_COLUMNS = QUALIFIED_COLUMNS.replace(
  'c.partial_states',
  'NULL::jsonb AS partial_states',
);

const OUTCOME_STATES = new Set<CallState>([
  'awaiting_approval',
  'succeeded',
  'failed',
  'outcome_unknown',
]);

function rowOf(columns: CallColumns): CallRow {
  return {
    id: columns.id,
    teamId: columns.team_id,
    keyId: columns.key_id,
    actor: columns.actor,
    callerOauth: columns.caller_oauth,
    clientRelay: clientRelayOf(columns.client_relay),
    conversationId: columns.conversation_id,
    provider: columns.provider,
    providerCallId: columns.provider_call_id,
    toolId: columns.tool_id,
    toolName: columns.tool_name,
    toolVersion: columns.tool_version,
    arguments: columns.arguments,
    argumentsHash: columns.arguments_hash,
    idempotencyKey: columns.idempotency_key,
    status: columns.status,
    result: columns.result,
    errorCode: columns.error_code,
    attempts: columns.attempts,
    answeredBy: columns.answered_by,
    cacheAgeMs: columns.cache_age_ms,
    latencyMs: columns.latency_ms,
    decisionEffect: columns.decision_effect,
    decisionRule: columns.decision_rule,
    policyRevision: columns.policy_revision,
    createdAt: columns.created_at,
    startedAt: columns.started_at,
    finishedAt: columns.finished_at,
    runId: columns.run_id,
    workerId: columns.worker_id,
    runAttempt: columns.run_attempt,
    runs: columns.runs,
    inputCheck: columns.input_check,
    partialStates: columns.partial_states,
    argumentsRepair: columns.arguments_repair,
    traceId: columns.trace_id,
    tokenCost:
      columns.tokens === null
        ? null
        : {
            model: columns.model,
            tokens: columns.tokens,
            usd: columns.tokens_usd,
            unpricedReason: columns.tokens_unpriced_reason,
          },
    toolCost:
      columns.tool_cost_usd === null || columns.tool_cost_source === null
        ? null
        : { usd: columns.tool_cost_usd, source: columns.tool_cost_source },
    expectedVersion: columns.expected_version,
    resource: columns.resource,
  };
}

/** The runner's view of a row: the call under its row id, the tool version, who made it, where it stands. */
export function recordOfRow(row: CallRow, tool: ToolIR): CallRecord {
  const record: CallRecord = {
    call: {
      id: row.id,
      name: row.toolName,
      arguments: row.arguments,
      tool_version: row.toolVersion,
    },
    tool,
    caller: callerOfRow(row),
    conversation_id: row.conversationId ?? undefined,
    provider: row.provider,
    actor: row.actor,
    provider_call_id: row.providerCallId,
    state: row.status,
  };
  if (row.clientRelay !== null) record.client_relay = row.clientRelay;
  if (row.runId !== null) {
    // The holding run's own start is in the history; `started_at` is the call's first start.
    const last = row.runs.at(-1);
    record.run = {
      worker_id: row.workerId ?? '',
      attempt: row.runAttempt ?? 0,
      run_id: row.runId,
      started_at: last?.run_id === row.runId ? last.started_at : (row.startedAt?.getTime() ?? 0),
    };
  }
  record.runs = row.runs;
  if (row.tokenCost !== null) record.token_cost = row.tokenCost;
  if (row.expectedVersion !== null) record.expected_version = row.expectedVersion;
  if (OUTCOME_STATES.has(row.status) && row.result !== null) {
    record.outcome = {
      status: row.status as CallOutcome['status'],
      // Results are written by this store from EngineToolResult only.
      result: row.result as unknown as EngineToolResult,
      attempts: row.attempts,
      latency_ms: row.latencyMs ?? 0,
      answered_by: row.answeredBy ?? undefined,
      ...(row.cacheAgeMs === null ? {} : { cache_age_ms: row.cacheAgeMs }),
      finished_at: row.finishedAt?.getTime() ?? 0,
      ...(row.toolCost === null ? {} : { tool_cost: row.toolCost }),
      ...(row.resource === null ? {} : { resource: row.resource }),
      ...(row.decisionEffect === null
        ? {}
        : {
            decision: {
              effect: row.decisionEffect as 'allow' | 'deny' | 'require_approval',
              policy_revision: row.policyRevision ?? '',
              ...(row.decisionRule === null ? {} : { matched_rule: row.decisionRule }),
            },
          }),
    };
  }
  return record;
}

/**
 * SQL of the `runs` history (a jsonb array, oldest first) with its last pickup ended: `state`, `at`
 * (epoch ms) and `attempts` are SQL expressions. A history without pickups stays as it is.
 */
function endLastRunSql(
  runs: string,
  ended: { state: string; at: string; attempts: string },
): string {
  return `CASE WHEN jsonb_array_length(${runs}) = 0 THEN ${runs}
          ELSE jsonb_set(${runs}, ARRAY[(jsonb_array_length(${runs}) - 1)::text],
                         (${runs} -> -1) || jsonb_build_object('ended', jsonb_build_object(
                           'state', ${ended.state}, 'at', ${ended.at}, 'attempts', ${ended.attempts})))
          END`;
}

const NOW_MS = `floor(extract(epoch FROM clock_timestamp()) * 1000)`;

// Turns in one statement: their rows as one JSON document. A replayed idempotency key conflicts,
// and `DO UPDATE` (a no-op assignment) returns the row that holds the key, even one a concurrent
// request committed after this statement began, which `DO NOTHING` would leave out.
const RECORD_TURNS = sql(
  'calls.record_turns',
  `INSERT INTO calls (id, team_id, key_id, actor, caller_oauth, client_relay, conversation_id, provider,
                      provider_call_id, tool_id, tool_name, tool_version, arguments,
                      arguments_hash, idempotency_key, status, run_id, worker_id, run_attempt,
                      started_at, runs, input_check, arguments_repair, result, error_code,
                      finished_at, partial_states, trace_id, model, tokens, tokens_usd,
                      tokens_unpriced_reason, run_step_id, run_step_index, expected_version)
   SELECT r.id, r.team_id, r.key_id, r.actor, r.caller_oauth, r.client_relay, r.conversation_id, r.provider,
          r.provider_call_id,
          r.tool_id, r.tool_name, r.tool_version, r.arguments, r.arguments_hash, r.idempotency_key,
          CASE WHEN r.refusal IS NOT NULL THEN 'failed'
               WHEN r.run_id IS NULL THEN 'queued' ELSE 'running' END::call_status,
          r.run_id, r.worker_id, r.run_attempt,
          CASE WHEN r.run_id IS NULL THEN NULL ELSE to_timestamp(r.started_at / 1000) END,
          CASE WHEN r.run IS NULL THEN '[]'::jsonb ELSE jsonb_build_array(r.run) END,
          r.input_check, r.arguments_repair, r.refusal, r.refusal->'error'->>'code',
          CASE WHEN r.refusal IS NULL THEN NULL ELSE now() END, r.partial_states, r.trace_id,
          r.model, r.tokens, r.tokens_usd, r.tokens_unpriced_reason, r.run_step_id, r.run_step_index,
          r.expected_version
     FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, team_id uuid, key_id uuid, actor text,
          caller_oauth jsonb, client_relay jsonb, conversation_id text, provider text, provider_call_id text, tool_id uuid,
          tool_name text, tool_version text, arguments jsonb, arguments_hash text,
          idempotency_key text, run_id text, worker_id text, run_attempt integer,
          started_at double precision, run jsonb, input_check text, arguments_repair jsonb,
          refusal jsonb, partial_states jsonb, trace_id text, model text, tokens jsonb,
          tokens_usd double precision, tokens_unpriced_reason text, run_step_id uuid,
          run_step_index integer, expected_version text)
   ON CONFLICT (team_id, idempotency_key) DO UPDATE SET idempotency_key = excluded.idempotency_key
   RETURNING ${COLUMNS}`,
);

const GET = sql('calls.get', `SELECT ${COLUMNS} FROM calls WHERE id = $1`);

// A run's calls, each with its step, oldest first (the order they were recorded in).
const FIND_BY_RUN_STEPS = sql(
  'calls.find_by_run_steps',
  `SELECT ${COLUMNS}, run_step_id, run_step_index FROM calls WHERE run_step_id = ANY($1::uuid[])
    ORDER BY created_at, run_step_index`,
);

const FIND_MANY = sql('calls.find_many', `SELECT ${COLUMNS} FROM calls WHERE id = ANY($1::uuid[])`);

// The claims of several runs in one statement; a call named twice is claimed by one of them. Each
// pickup joins the history in the same statement; `started_at` keeps the call's first start (a
// call claimed again after its approval, or after an inline run was put back on the queue).
const CLAIMS = sql(
  'calls.claims',
  `UPDATE calls AS c
      SET status = 'running', run_id = x.run_id, worker_id = x.worker_id,
          run_attempt = x.run_attempt,
          started_at = coalesce(c.started_at, to_timestamp(x.started_at / 1000)),
          runs = c.runs || jsonb_build_array(x.run)
     FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, run_id text, worker_id text,
          run_attempt integer, started_at double precision, run jsonb)
    WHERE c.id = x.id AND c.status = 'queued'
    RETURNING ${CLAIMED_COLUMNS}`,
);

// The pickup whose process stopped mid-call ends `abandoned` and counts its attempt; the new one
// joins the history. `started_at` stays the call's first start.
const TAKE_OVER = sql(
  'calls.take_over',
  `UPDATE calls
      SET run_id = $3, worker_id = $4, run_attempt = $5,
          attempts = attempts + ${ABANDONED_RUN_ATTEMPTS},
          runs = ${endLastRunSql('runs', { state: `'abandoned'`, at: '$6::double precision', attempts: String(ABANDONED_RUN_ATTEMPTS) })}
                 || jsonb_build_array($7::jsonb)
    WHERE id = $1 AND status = 'running' AND coalesce(run_id, '') = $2
    RETURNING id`,
);

// The outcomes of several runs in one statement; each is fenced on its own run, like a single one.
const RECORD_OUTCOMES = sql(
  'calls.record_outcomes',
  `UPDATE calls AS c
      SET status = o.status::call_status, result = o.result, error_code = o.error_code,
          attempts = c.attempts + o.attempts, answered_by = o.answered_by,
          cache_age_ms = o.cache_age_ms,
          latency_ms = o.latency_ms, decision_effect = o.decision_effect,
          decision_rule = o.decision_rule, policy_revision = o.policy_revision,
          tool_cost_usd = o.tool_cost_usd, tool_cost_source = o.tool_cost_source,
          resource = o.resource,
          finished_at = CASE WHEN o.status = 'awaiting_approval' THEN NULL
                             ELSE to_timestamp(o.finished_at / 1000) END,
          runs = ${endLastRunSql('c.runs', { state: 'o.status', at: 'o.finished_at', attempts: 'o.attempts' })}
     FROM jsonb_to_recordset($1::jsonb) AS o(id uuid, run_id text, status text, result jsonb,
          error_code text, attempts integer, answered_by text, cache_age_ms integer, latency_ms integer,
          decision_effect text, decision_rule text, policy_revision text,
          finished_at double precision, tool_cost_usd double precision, tool_cost_source text,
          resource jsonb)
    WHERE c.id = o.id AND c.status = 'running' AND c.run_id = o.run_id
    RETURNING c.id, c.run_id`,
);

const CANCEL = sql(
  'calls.cancel',
  `UPDATE calls
      SET status = 'cancelled', result = $2::jsonb, error_code = 'cancelled', finished_at = now(),
          runs = CASE WHEN status = 'running'
                      THEN ${endLastRunSql('runs', { state: `'cancelled'`, at: NOW_MS, attempts: '0' })}
                      ELSE runs END
    WHERE id = $1 AND status IN ('queued', 'running', 'awaiting_approval')
    RETURNING ${COLUMNS}`,
);

// Calls refused before they ran (a dependency cycle): queued rows end as failed, each with its result.
const FAIL_QUEUED = sql(
  'calls.fail_queued',
  `UPDATE calls AS c
      SET status = 'failed', result = f.result, error_code = f.error_code, finished_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, result jsonb, error_code text)
    WHERE c.id = f.id AND c.status = 'queued'
    RETURNING c.id`,
);

// Inline runs started before `$1` ms ago by a process that is gone: their tools are idempotent.
// The stopped pickup stays in the history as abandoned, and counts its attempt.
const REQUEUE_STALE_INLINE = sql(
  'calls.requeue_stale_inline',
  `UPDATE calls
      SET status = 'queued', run_id = NULL, worker_id = NULL,
          attempts = attempts + ${ABANDONED_RUN_ATTEMPTS},
          runs = ${endLastRunSql('runs', { state: `'abandoned'`, at: NOW_MS, attempts: String(ABANDONED_RUN_ATTEMPTS) })}
    WHERE status = 'running' AND worker_id LIKE 'inline:%'
      AND started_at < now() - make_interval(secs => $1::double precision / 1000)
    RETURNING id`,
);

// Rows a refused turn inserted before the refusal was known; nothing has run them yet.
const DISCARD = sql(
  'calls.discard',
  `DELETE FROM calls WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running')`,
);

// Calls held for approval go back to the queue once their approval is no longer pending (decided,
// expired): named ones after a decision, or every such call in the sweep that heals a stop between
// the decision's commit and this statement.
const REQUEUE_DECIDED = sql(
  'calls.requeue_decided',
  `UPDATE calls AS c SET status = 'queued'
     FROM approvals AS a
    WHERE a.call_id = c.id AND c.status = 'awaiting_approval' AND a.status <> 'pending'
      AND ($1::uuid[] IS NULL OR c.id = ANY($1::uuid[]))
    RETURNING c.id`,
);

const INSERT_ONE = sql(
  'calls.insert_one',
  `INSERT INTO calls (id, team_id, key_id, actor, conversation_id, provider, provider_call_id,
                      tool_id, tool_name, tool_version, arguments, arguments_hash, idempotency_key)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13)
   ON CONFLICT DO NOTHING
   RETURNING id`,
);

/** A pickup as the `runs` history holds it (only the run's own fields, whatever the caller passed). */
function runEntry(run: CallRun): CallRunRecord {
  return {
    worker_id: run.worker_id,
    attempt: run.attempt,
    run_id: run.run_id,
    started_at: run.started_at,
  };
}

function outcomeDocument(write: OutcomeWrite): Record<string, unknown> {
  const { outcome } = write;
  return {
    id: write.callId,
    run_id: write.runId,
    status: outcome.status,
    result: plainToolResult(outcome.result),
    error_code: outcome.result.error?.code ?? null,
    attempts: outcome.attempts,
    answered_by: outcome.answered_by ?? null,
    cache_age_ms: outcome.cache_age_ms === undefined ? null : Math.round(outcome.cache_age_ms),
    latency_ms: Math.round(outcome.latency_ms),
    decision_effect: outcome.decision?.effect ?? null,
    decision_rule: outcome.decision?.matched_rule ?? null,
    policy_revision: outcome.decision?.policy_revision ?? null,
    finished_at: outcome.finished_at,
    tool_cost_usd: outcome.tool_cost?.usd ?? null,
    tool_cost_source: outcome.tool_cost?.source ?? null,
    resource: outcome.resource ?? null,
  };
}

/**
 * The one data layer of `calls`, for the API and the worker alike, on a pg pool or on PGlite.
 * Each hot-path step is one named statement: a turn is recorded by one insert-or-return, a run
 * claims its call with one `UPDATE ... RETURNING` and records its outcome with another, fenced on
 * its `run_id` so a worker that lost its job cannot overwrite the run that took it over.
 */
export class CallStore implements CallRepository {
  constructor(
    private readonly db: SqlPort,
    private readonly versionOf: ToolVersionLookup,
  ) {}

  private readonly turns = new MicroBatcher<TurnRequest, RecordedTurn>((items) =>
    this.recordTurns(items),
  );
  private readonly claims = new MicroBatcher<ClaimRequest, CallRow | undefined | null>((items) =>
    this.claimRows(items),
  );
  private readonly outcomes = new MicroBatcher<OutcomeWrite, boolean>(async (writes) => {
    const recorded = await this.writeOutcomes(writes);
    return writes.map((write) => recorded.has(`${write.callId} ${write.runId}`));
  });

  /**
   * Records a turn's calls. A call whose idempotency key is taken (by an earlier or a concurrent
   * request) is not inserted: the row holding the key comes back instead, so the call runs once.
   * Turns recorded at the same moment share one statement.
   */
  recordTurn(owner: TurnOwner, calls: readonly NewCallRow[]): Promise<RecordedTurn> {
    return this.turns.add({ owner, calls });
  }

  private async recordTurns(turns: readonly TurnRequest[]): Promise<RecordedTurn[]> {
    const keyOf = (teamId: string, idempotencyKey: string) => `${teamId} ${idempotencyKey}`;
    const document: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    for (const { owner, calls } of turns) {
      for (const call of calls) {
        // A key named twice in one statement would be a second change of one row, which
        // Postgres refuses: the first names it, the others get its row, as a replay would.
        const key = keyOf(owner.teamId, call.idempotencyKey);
        if (seen.has(key)) continue;
        seen.add(key);
        document.push({
          id: call.id,
          team_id: owner.teamId,
          key_id: owner.keyId,
          actor: owner.actor,
          caller_oauth: owner.oauth ?? null,
          client_relay: owner.clientRelay ?? null,
          conversation_id: owner.conversationId,
          provider: owner.provider,
          provider_call_id: call.providerCallId,
          tool_id: call.toolId,
          tool_name: call.toolName,
          tool_version: call.toolVersion,
          arguments: call.arguments,
          arguments_hash: call.argumentsHash,
          idempotency_key: call.idempotencyKey,
          run_id: call.run?.run_id ?? null,
          worker_id: call.run?.worker_id ?? null,
          run_attempt: call.run?.attempt ?? null,
          started_at: call.run?.started_at ?? null,
          run: call.run === undefined ? null : runEntry(call.run),
          input_check: call.inputCheck ?? null,
          partial_states: call.partialStates ?? null,
          arguments_repair: call.argumentsRepair ?? null,
          refusal: call.refusal ?? null,
          trace_id: call.traceId ?? null,
          model: call.tokenCost?.model ?? null,
          tokens: call.tokenCost?.tokens ?? null,
          tokens_usd: call.tokenCost?.usd ?? null,
          tokens_unpriced_reason: call.tokenCost?.unpricedReason ?? null,
          run_step_id: call.runStep?.id ?? null,
          run_step_index: call.runStep?.index ?? null,
          expected_version: call.expectedVersion ?? null,
        });
      }
    }
    const { rows } = await this.db.query<CallColumns>(RECORD_TURNS, [JSON.stringify(document)]);
    const byKey = new Map(
      rows.map((columns) => [keyOf(columns.team_id, columns.idempotency_key), rowOf(columns)]),
    );
    return turns.map(({ owner, calls }) => {
      const inserted = new Set<string>();
      const ordered = calls.map((call) => {
        const row = byKey.get(keyOf(owner.teamId, call.idempotencyKey));
        if (row === undefined) throw new Error(`call ${call.id} was neither inserted nor found`);
        if (row.id === call.id) inserted.add(row.id);
        return row;
      });
      return { rows: ordered, inserted };
    });
  }

  /**
   * Removes rows `recordTurn` inserted for a turn that is then refused (a key reused for another
   * call), so a refused request leaves nothing behind; they were never enqueued or run.
   */
  async discard(callIds: readonly string[]): Promise<void> {
    const ids = callIds.filter(isCallRowId);
    if (ids.length > 0) await this.db.query(DISCARD, [ids]);
  }

  async findRow(callId: string): Promise<CallRow | undefined> {
    if (!isCallRowId(callId)) return undefined;
    const { rows } = await this.db.query<CallColumns>(GET, [callId]);
    return rows[0] === undefined ? undefined : rowOf(rows[0]);
  }

  /** A call of the team (any team's for null), or undefined. */
  async findById(callId: string, teamId: string | null): Promise<CallRow | undefined> {
    const row = await this.findRow(callId);
    return row !== undefined && (teamId === null || row.teamId === teamId) ? row : undefined;
  }

  /** The rows of these ids (missing ids are left out, the order is not kept). */
  async findMany(callIds: readonly string[]): Promise<CallRow[]> {
    const ids = callIds.filter(isCallRowId);
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<CallColumns>(FIND_MANY, [ids]);
    return rows.map(rowOf);
  }

  /** The calls recorded for these run steps, each with its step. */
  async findByRunSteps(stepIds: readonly string[]): Promise<RunStepCallRow[]> {
    const ids = stepIds.filter(isCallRowId);
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<
      CallColumns & { run_step_id: string; run_step_index: number | null }
    >(FIND_BY_RUN_STEPS, [ids]);
    return rows.map((columns) => ({
      runStepId: columns.run_step_id,
      index: columns.run_step_index ?? 0,
      row: rowOf(columns),
    }));
  }

  async list(filter: ListCallsFilter): Promise<CallRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (clause: (index: number) => string, ...values: unknown[]) => {
      where.push(clause(params.length + 1));
      params.push(...values);
    };
    if (filter.teamId !== null) add((index) => `team_id = $${index}`, filter.teamId);
    if (filter.status !== undefined) add((index) => `status = $${index}`, filter.status);
    if (filter.toolName !== undefined) add((index) => `tool_name = $${index}`, filter.toolName);
    if (filter.from !== undefined)
      add((index) => `created_at >= $${index}::timestamptz`, filter.from.toISOString());
    if (filter.to !== undefined)
      add((index) => `created_at < $${index}::timestamptz`, filter.to.toISOString());
    if (filter.before !== undefined) {
      add(
        (index) => `(created_at, id) < ($${index}::timestamptz, $${index + 1}::uuid)`,
        filter.before.createdAt.toISOString(),
        filter.before.id,
      );
    }
    params.push(filter.limit);
    const { rows } = await this.db.query<CallColumns>(
      {
        text: `SELECT ${COLUMNS} FROM calls ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
                ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      },
      params,
    );
    return rows.map(rowOf);
  }

  /** Cancels a call that has not finished, returning its row; undefined when it had already finished. */
  async cancel(callId: string, result: Record<string, unknown>): Promise<CallRow | undefined> {
    if (!isCallRowId(callId)) return undefined;
    const { rows } = await this.db.query<CallColumns>(CANCEL, [callId, JSON.stringify(result)]);
    return rows[0] === undefined ? undefined : rowOf(rows[0]);
  }

  /** Ends queued calls that must not run as failed with their results; returns the ids it ended. */
  async failQueued(
    failures: ReadonlyArray<{ callId: string; result: EngineToolResult }>,
  ): Promise<Set<string>> {
    if (failures.length === 0) return new Set();
    const document = failures.map((failure) => ({
      id: failure.callId,
      result: plainToolResult(failure.result),
      error_code: failure.result.error?.code ?? null,
    }));
    const { rows } = await this.db.query<{ id: string }>(FAIL_QUEUED, [JSON.stringify(document)]);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Puts inline calls back in the queue whose run started longer ago than `olderThanMs` (the process
   * that ran them stopped before their outcome was written); returns their ids.
   */
  async requeueStaleInline(olderThanMs: number): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(REQUEUE_STALE_INLINE, [olderThanMs]);
    return rows.map((row) => row.id);
  }

  /**
   * Puts calls awaiting approval back in the queue once their approval was decided or expired:
   * these ids, or (without ids) every such call. Returns the ids it put back.
   */
  async requeueDecided(callIds?: readonly string[]): Promise<string[]> {
    const ids = callIds?.filter(isCallRowId);
    if (ids !== undefined && ids.length === 0) return [];
    const { rows } = await this.db.query<{ id: string }>(REQUEUE_DECIDED, [ids ?? null]);
    return rows.map((row) => row.id);
  }

  async getCall(callId: string): Promise<CallRecord | undefined> {
    const row = await this.findRow(callId);
    return row === undefined ? undefined : this.recordOf(row);
  }

  async claim(callId: string, run: CallRun): Promise<ClaimResult> {
    if (!isCallRowId(callId)) return { claimed: false, record: undefined };
    const row = await this.claims.add({ callId, run });
    if (row !== undefined && row !== null) {
      const record = await this.recordOf(row);
      return record === undefined
        ? { claimed: false, record: undefined }
        : { claimed: true, record };
    }
    // Not queued (a duplicate delivery, a recovery, a call awaiting approval): read why.
    return { claimed: false, record: await this.getCall(callId) };
  }

  /** Claims of runs that start at the same moment, in one statement: each run's row, or null. */
  private async claimRows(requests: readonly ClaimRequest[]): Promise<Array<CallRow | null>> {
    const document = requests.map(({ callId, run }) => ({
      id: callId,
      run_id: run.run_id,
      worker_id: run.worker_id,
      run_attempt: run.attempt,
      started_at: run.started_at,
      run: runEntry(run),
    }));
    const { rows } = await this.db.query<CallColumns>(CLAIMS, [JSON.stringify(document)]);
    const byRun = new Map(rows.map((columns) => [columns.run_id ?? '', rowOf(columns)]));
    return requests.map(({ run }) => byRun.get(run.run_id) ?? null);
  }

  async takeOver(callId: string, input: { previousRunId: string; run: CallRun }): Promise<boolean> {
    if (!isCallRowId(callId)) return false;
    const { run } = input;
    const { rowCount } = await this.db.query(TAKE_OVER, [
      callId,
      input.previousRunId,
      run.run_id,
      run.worker_id,
      run.attempt,
      run.started_at,
      JSON.stringify(runEntry(run)),
    ]);
    return rowCount === 1;
  }

  async recordOutcome(
    callId: string,
    input: { runId: string; outcome: CallOutcome },
  ): Promise<boolean> {
    if (!isCallRowId(callId)) return false;
    return this.outcomes.add({ callId, ...input });
  }

  /** Several runs' outcomes in one statement; returns the ids whose run still held the call. */
  async recordOutcomes(writes: readonly OutcomeWrite[]): Promise<Set<string>> {
    const recorded = await this.writeOutcomes(writes);
    return new Set([...recorded].map((entry) => entry.slice(0, entry.indexOf(' '))));
  }

  /** `<call id> <run id>` of each outcome the statement wrote. */
  private async writeOutcomes(writes: readonly OutcomeWrite[]): Promise<Set<string>> {
    const valid = writes.filter((write) => isCallRowId(write.callId));
    if (valid.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: string; run_id: string }>(RECORD_OUTCOMES, [
      JSON.stringify(valid.map(outcomeDocument)),
    ]);
    return new Set(rows.map((row) => `${row.id} ${row.run_id}`));
  }

  /**
   * Records a call as `queued` directly (tests, tools); false when the id (or its idempotency key)
   * exists. The caller's team, the tool and its version must already be in the registry.
   */
  async create(input: NewCall & { tool_id?: string; idempotency_key?: string }): Promise<boolean> {
    const keyId = isCallRowId(input.caller.key_id) ? input.caller.key_id : null;
    const { rowCount } = await this.db.query(INSERT_ONE, [
      input.call.id,
      input.caller.team,
      keyId,
      input.caller.key_id,
      input.conversation_id ?? null,
      'ir',
      input.call.id,
      input.tool_id ?? input.tool.id,
      input.tool.name,
      input.tool.version,
      JSON.stringify(input.call.arguments),
      hashArguments(input.call.arguments),
      input.idempotency_key ?? input.call.id,
    ]);
    return rowCount === 1;
  }

  private async recordOf(row: CallRow): Promise<CallRecord | undefined> {
    // A call whose tool version vanished cannot run; the registry never deletes versions in use.
    const tool = await this.versionOf(row.toolId, row.toolVersion);
    return tool === undefined ? undefined : recordOfRow(row, tool);
  }
}

/** The call as the engine runs it: under its row id, so events and results name the row. */
export function engineCallOf(row: CallRow): ToolCallIR {
  return {
    id: row.id,
    name: row.toolName,
    arguments: row.arguments,
    tool_version: row.toolVersion,
  };
}
