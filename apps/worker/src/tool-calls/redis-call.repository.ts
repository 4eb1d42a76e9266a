import { PolicyPrincipalSchema } from '@toolgate/engine';
import type { EngineToolResult } from '@toolgate/engine';
import { ToolCallIRSchema, ToolIRSchema } from '@toolgate/toolir';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { LuaScript } from '@toolgate/gateway';
import type {
  CallOutcome,
  CallRecord,
  CallRepository,
  CallRun,
  CallRunRecord,
  ClaimResult,
  NewCall,
} from '@toolgate/persistence';
import {
  ABANDONED_RUN_ATTEMPTS,
  CALL_STATES,
  FINAL_CALL_STATES,
  STARTABLE_CALL_STATES,
  claimByReading,
} from '@toolgate/persistence';

const CallRunSchema = z.object({
  worker_id: z.string(),
  attempt: z.number().int(),
  run_id: z.string(),
  started_at: z.number(),
});

const RunEndSchema = z.object({
  state: z.enum([
    'awaiting_approval',
    'succeeded',
    'failed',
    'outcome_unknown',
    'cancelled',
    'abandoned',
  ]),
  at: z.number(),
  attempts: z.number().int().min(0),
});

const CallOutcomeSchema = z.object({
  status: z.enum(['awaiting_approval', 'succeeded', 'failed', 'outcome_unknown']),
  result: z.custom<EngineToolResult>(
    (value) => typeof value === 'object' && value !== null && 'ok' in value && 'call_id' in value,
  ),
  attempts: z.number().int().min(0),
  latency_ms: z.number().min(0),
  answered_by: z.string().optional(),
  cache_age_ms: z.number().min(0).optional(),
  finished_at: z.number(),
});

const StoredCallSchema = z.object({
  call: ToolCallIRSchema,
  tool: ToolIRSchema,
  caller: PolicyPrincipalSchema,
  conversation_id: z.string().optional(),
});

// Each script reads and writes one call's hash, so the compare-and-set is atomic across workers.
// The history of pickups is the JSON array in 'runs' (appended as text, so no number is re-encoded
// by Lua), each pickup's end in 'end:<run id>', and the attempts of all pickups in 'attempts'.
const APPEND_RUN = `
local function append_run(key, run)
  local runs = redis.call('HGET', key, 'runs')
  if runs then runs = string.sub(runs, 1, -2) .. ',' .. run .. ']' else runs = '[' .. run .. ']' end
  redis.call('HSET', key, 'runs', runs)
end`;

const CREATE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'state', 'queued')
return 1`);

const MARK_STARTED = new LuaScript(`${APPEND_RUN}
local state = redis.call('HGET', KEYS[1], 'state')
if not state then return 0 end
for i = 3, #ARGV do
  if state == ARGV[i] then
    redis.call('HSET', KEYS[1], 'state', 'running', 'run', ARGV[1], 'run_id', ARGV[2])
    append_run(KEYS[1], ARGV[1])
    return 1
  end
end
return 0`);

const TAKE_OVER = new LuaScript(`${APPEND_RUN}
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'run_id') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'run', ARGV[2], 'run_id', ARGV[3], 'end:' .. ARGV[1], ARGV[4])
redis.call('HINCRBY', KEYS[1], 'attempts', ARGV[5])
append_run(KEYS[1], ARGV[2])
return 1`);

const RECORD_OUTCOME = new LuaScript(`
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
if redis.call('HGET', KEYS[1], 'run_id') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'outcome', ARGV[3], 'end:' .. ARGV[1], ARGV[5])
redis.call('HINCRBY', KEYS[1], 'attempts', ARGV[6])
if tonumber(ARGV[4]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
return 1`);

/** Options of the Redis call repository. */
export interface RedisCallRepositoryOptions {
  redis: Redis;
  /** Key namespace: a call lives in the hash `<prefix>:call:<id>`. */
  prefix: string;
  /** Finished calls expire this long after their outcome; 0 keeps them. Default 7 days. */
  retentionSeconds?: number;
}

/**
 * Call records in Redis, one hash per call, changed only by Lua compare-and-set scripts.
 * The worker's record of truth until the Postgres repository of the API takes over; because the
 * state lives outside the worker process, a second worker can tell that a call was left mid-run.
 */
export class RedisCallRepository implements CallRepository {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly retentionSeconds: number;

  constructor(options: RedisCallRepositoryOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.retentionSeconds = options.retentionSeconds ?? 7 * 24 * 3600;
  }

  /** The hash key of a call. */
  keyOf(callId: string): string {
    return `${this.prefix}:call:${callId}`;
  }

  /** Records a new call as `queued`; an existing id is left as it is (returns false). */
  async create(input: NewCall): Promise<boolean> {
    const record = JSON.stringify({
      call: input.call,
      tool: input.tool,
      caller: input.caller,
      conversation_id: input.conversation_id,
    });
    return (
      (await CREATE.run(this.redis, { keys: [this.keyOf(input.call.id)], args: [record] })) === 1
    );
  }

  async getCall(callId: string): Promise<CallRecord | undefined> {
    const hash = await this.redis.hgetall(this.keyOf(callId));
    if (hash['record'] === undefined) return undefined;
    const stored = StoredCallSchema.parse(JSON.parse(hash['record']));
    const state = z.enum(CALL_STATES).parse(hash['state']);
    const run =
      hash['run'] === undefined ? undefined : CallRunSchema.parse(JSON.parse(hash['run']));
    const outcome =
      hash['outcome'] === undefined
        ? undefined
        : CallOutcomeSchema.parse(JSON.parse(hash['outcome']));
    const runs: CallRunRecord[] = z
      .array(CallRunSchema)
      .parse(JSON.parse(hash['runs'] ?? '[]'))
      .map((pickup) => {
        const ended = hash[`end:${pickup.run_id}`];
        return ended === undefined
          ? pickup
          : { ...pickup, ended: RunEndSchema.parse(JSON.parse(ended)) };
      });
    const attempts = Number(hash['attempts'] ?? 0);
    return {
      call: stored.call,
      tool: stored.tool,
      caller: stored.caller,
      conversation_id: stored.conversation_id,
      state,
      ...(run === undefined ? {} : { run }),
      runs,
      ...(outcome === undefined
        ? {}
        : { outcome: { ...outcome, attempts, answered_by: outcome.answered_by } }),
    };
  }

  claim(callId: string, run: CallRun): Promise<ClaimResult> {
    return claimByReading(this, { callId, run, start: () => this.markStarted(callId, run) });
  }

  /** `queued`/`retrying` -> `running` held by `run`, atomically; false from any other state. */
  async markStarted(callId: string, run: CallRun): Promise<boolean> {
    const result = await MARK_STARTED.run(this.redis, {
      keys: [this.keyOf(callId)],
      args: [JSON.stringify(run), run.run_id, ...STARTABLE_CALL_STATES],
    });
    return result === 1;
  }

  async takeOver(callId: string, input: { previousRunId: string; run: CallRun }): Promise<boolean> {
    const result = await TAKE_OVER.run(this.redis, {
      keys: [this.keyOf(callId)],
      args: [
        input.previousRunId,
        JSON.stringify(input.run),
        input.run.run_id,
        JSON.stringify({
          state: 'abandoned',
          at: input.run.started_at,
          attempts: ABANDONED_RUN_ATTEMPTS,
        }),
        ABANDONED_RUN_ATTEMPTS,
      ],
    });
    return result === 1;
  }

  async recordOutcome(
    callId: string,
    input: { runId: string; outcome: CallOutcome },
  ): Promise<boolean> {
    const final = FINAL_CALL_STATES.includes(input.outcome.status);
    const result = await RECORD_OUTCOME.run(this.redis, {
      keys: [this.keyOf(callId)],
      args: [
        input.runId,
        input.outcome.status,
        JSON.stringify(input.outcome),
        final ? this.retentionSeconds : 0,
        JSON.stringify({
          state: input.outcome.status,
          at: input.outcome.finished_at,
          attempts: input.outcome.attempts,
        }),
        input.outcome.attempts,
      ],
    });
    return result === 1;
  }
}
