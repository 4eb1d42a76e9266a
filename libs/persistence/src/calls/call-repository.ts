import type { TokenUsage } from '@toolgate/adapters';
import type {
  EngineToolResult,
  PolicyDecision,
  PolicyPrincipal,
  ResourceVersion,
  ToolCost,
} from '@toolgate/engine';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import { CALL_STATUSES } from '@toolgate/contract';
import { z } from 'zod';

/**
 * Where a call is in its life:
 * `queued` (enqueued, not started) -> `running` -> `succeeded` | `failed` | `awaiting_approval` | `outcome_unknown`;
 * `retrying` is a call put back on the queue by the API (e.g. a person retried it) and starts like `queued`;
 * `cancelled` is set by the API from any unfinished state and ends the call.
 */
/** Every value of the `calls.status` column (`call_status`), as the HTTP contract shows them. */
export { CALL_STATUSES };
/** Every state a runner knows: the column's values and `retrying`, which the table does not hold. */
export const CALL_STATES = [...CALL_STATUSES, 'retrying'] as const;
/** A call's state (see {@link CALL_STATES}). */
export type CallState = (typeof CALL_STATES)[number];

/** States a worker may start a call from. */
export const STARTABLE_CALL_STATES: readonly CallState[] = ['queued', 'retrying'];

/** States after which a call never runs again on its own. */
export const FINAL_CALL_STATES: readonly CallState[] = [
  'succeeded',
  'failed',
  'outcome_unknown',
  'cancelled',
];

/**
 * The MCP session a call came from, recorded with the call so whichever process runs it can reach
 * that session's client: what its upstream asks goes out on `relay_id`, which the API process
 * holding the session listens on while it follows the call.
 */
export const ClientRelayTargetSchema = z.object({
  /** The `Mcp-Session-Id` of the session that made the call. */
  session_id: z.string().min(1).max(256),
  /** Names the way to the request that follows the call (one per `tools/call`). */
  relay_id: z.string().min(1).max(256),
  /** What the session's client declared that the gateway relays (MCP `ClientCapabilities`). */
  capabilities: z.object({
    sampling: z.record(z.string(), z.unknown()).optional(),
    elicitation: z.record(z.string(), z.unknown()).optional(),
    roots: z.record(z.string(), z.unknown()).optional(),
  }),
});
/** The MCP session a call came from (see {@link ClientRelayTargetSchema}). */
export type ClientRelayTarget = z.infer<typeof ClientRelayTargetSchema>;

/** A stored `client_relay` value, or null for one this version cannot read (it relays nothing). */
export function clientRelayOf(value: unknown): ClientRelayTarget | null {
  if (value === null || value === undefined) return null;
  const parsed = ClientRelayTargetSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A call's share of its turn's tokens, written with the call. */
export interface CallTokenCost {
  /** The turn's model, as the provider's response names it. */
  model: string | null;
  tokens: TokenUsage;
  /** The share's price in US dollars; null when the model has no price. */
  usd: number | null;
  /** Why `usd` is null; null when priced. */
  unpricedReason: string | null;
}

/** A recorded call as the worker needs it: the call, the tool version it resolved to, who made it and where it stands. */
export interface CallRecord {
  call: ToolCallIR;
  /** The exact tool version the registry resolved for this call. */
  tool: ToolIR;
  caller: PolicyPrincipal;
  conversation_id: string | undefined;
  /** The wire format the call came in (`openai-chat`, `anthropic`, `mcp`, ...), when the store keeps it. */
  provider?: string | undefined;
  /** The person or key that made the call, when the store knows it (written on approval requests). */
  actor?: string | undefined;
  /** The MCP session the call came from, when its client can answer what the upstream asks. */
  client_relay?: ClientRelayTarget | undefined;
  state: CallState;
  /** The id the model gave the call (the finished event addresses its result to it); the row id when unknown. */
  provider_call_id?: string | undefined;
  /** The call's share of its model turn's tokens and their price, when the app posted usage. */
  token_cost?: CallTokenCost | undefined;
  /** The resource version the write expects: the one its run last saw (see the tool's `concurrency`). */
  expected_version?: string | undefined;
  /** The run that holds the call while `running`; set by `claim` and `takeOver`. */
  run?: CallRun;
  /** Every pickup of the call, oldest first: the first one's `started_at` is when the call started. */
  runs?: CallRunRecord[];
  /**
   * How the call ended (or why it waits for approval), once a run recorded it; its `attempts` are
   * the executor attempts of every pickup (see {@link ABANDONED_RUN_ATTEMPTS}), not the last one's.
   */
  outcome?: CallOutcome;
}

/**
 * What a pickup that stopped mid-call counts toward a call's attempts. It held the call `running`
 * (claimed, then into the engine), so it may have reached the tool; how far it got died with it,
 * and counting it as none would hide an execution that may have taken effect.
 */
export const ABANDONED_RUN_ATTEMPTS = 1;

/** How one pickup ended: its outcome's state, `cancelled`, or `abandoned` (its process stopped mid-call). */
export type CallRunEnd = CallOutcome['status'] | 'cancelled' | 'abandoned';

/** One pickup in a call's history. */
export interface CallRunRecord extends CallRun {
  /** Absent while the pickup runs (or when its process stopped and nobody took the call over yet). */
  ended?: { state: CallRunEnd; at: number; attempts: number };
}

/** The history with its last pickup ended (a no-op without one), as every store writes it. */
export function endLastRun(
  runs: readonly CallRunRecord[],
  ended: NonNullable<CallRunRecord['ended']>,
): CallRunRecord[] {
  const last = runs.at(-1);
  return last === undefined ? [] : [...runs.slice(0, -1), { ...last, ended }];
}

/** Who runs a call: a worker process, the job's start count, and a token unique to this pickup. */
export interface CallRun {
  worker_id: string;
  attempt: number;
  /** Unique per pickup; `recordOutcome` only succeeds for the run that holds the call, which fences off a stale worker. */
  run_id: string;
  started_at: number;
}

/** What `claim` came to: the record this run now holds, or the record as another state left it. */
export type ClaimResult =
  { claimed: true; record: CallRecord } | { claimed: false; record: CallRecord | undefined };

/** Whether a claim succeeded (for callers that only need the yes or no). */
export function isClaimed(result: ClaimResult): boolean {
  return result.claimed;
}

/**
 * `claim` for stores without a compare-and-set that returns the row: read the call, then start it.
 * A concurrent claim between the two is lost by one of them, as the start is itself atomic.
 */
export async function claimByReading(
  store: { getCall(callId: string): Promise<CallRecord | undefined> },
  input: { callId: string; run: CallRun; start: () => Promise<boolean> },
): Promise<ClaimResult> {
  const record = await store.getCall(input.callId);
  if (record === undefined || !STARTABLE_CALL_STATES.includes(record.state)) {
    return { claimed: false, record };
  }
  if (!(await input.start())) return { claimed: false, record: await store.getCall(input.callId) };
  return {
    claimed: true,
    record: {
      ...record,
      state: 'running',
      run: input.run,
      runs: [...(record.runs ?? []), input.run],
    },
  };
}

/** What a run records when it ends. */
export interface CallOutcome {
  status: Exclude<CallState, 'queued' | 'retrying' | 'running' | 'cancelled'>;
  result: EngineToolResult;
  /** Executor attempts made by this run (0 when the tool did not run); stores add them to the call's. */
  attempts: number;
  latency_ms: number;
  /** The tool that answered (a fallback's name), or `cache` when the result cache did. */
  answered_by: string | undefined;
  /** How old the cached result was, when the result cache answered. */
  cache_age_ms?: number | undefined;
  finished_at: number;
  /** The policy decision the call ran under, when the engine made one. */
  decision?: PolicyDecision | undefined;
  /** The tool's own cost of the call (reported by the upstream, or the version's estimate). */
  tool_cost?: ToolCost | undefined;
  /** The resource and version a successful call reported (see the tool's `concurrency`). */
  resource?: ResourceVersion | undefined;
}

/**
 * The worker's view of call records. Every state change is an atomic compare-and-set, because
 * several worker processes may hold the same job over time (a stalled job is handed on).
 * Postgres (the `calls` table the API writes) backs it in production; Redis and memory serve tests and the embedded mode.
 */
export interface CallRepository {
  /** The call, or undefined when no such call was recorded. */
  getCall(callId: string): Promise<CallRecord | undefined>;
  /**
   * `queued`/`retrying` -> `running` held by `run`, returning the claimed record (one statement on
   * Postgres); from any other state nothing changes and the record comes back as it stands.
   */
  claim(callId: string, run: CallRun): Promise<ClaimResult>;
  /**
   * `running` held by `previousRunId` -> `running` held by `run`, for a call whose worker died; false
   * otherwise. The previous pickup stays in the history as `abandoned`.
   */
  takeOver(callId: string, input: { previousRunId: string; run: CallRun }): Promise<boolean>;
  /** `running` held by `runId` -> the outcome's state; false (nothing written) when another run holds the call. */
  recordOutcome(callId: string, input: { runId: string; outcome: CallOutcome }): Promise<boolean>;
}

/** A call to record before it is enqueued (what the API writes; tests and the embedded mode use it too). */
export interface NewCall {
  call: ToolCallIR;
  tool: ToolIR;
  caller: PolicyPrincipal;
  conversation_id?: string;
}
