import type { Redis } from 'ioredis';
import { LuaScript } from '../rate-limit/lua-script';
import { periodWindow, type SpendSubject } from './budget';
import { spendCounterKey, type SpendCounters } from './spend-counters';

// KEYS: the counters. ARGV[1]: micro-dollars to add; ARGV[1 + i]: when KEYS[i] expires (unix
// seconds). Adds and sets the expiry in one step, so a counter never outlives its period (plus the
// margin) whatever happens between the two. Returns the new totals.
const ADD = new LuaScript(`
local micros = tonumber(ARGV[1])
local totals = {}
for i, key in ipairs(KEYS) do
  totals[i] = redis.call('INCRBY', key, micros)
  redis.call('EXPIREAT', key, tonumber(ARGV[i + 1]))
end
return totals`);

// A counter stays readable this long after its period ends, for a report read right at midnight.
const EXPIRY_MARGIN_S = 3_600;

/** Options of the Redis spend counters. */
export interface RedisSpendCountersOptions {
  redis: Redis;
  /** Key namespace: a counter lives at `<prefix>:spend:<scope>:<id>:<period>:<period id>`. */
  prefix: string;
}

/**
 * Spend counters on Redis, shared by every API replica and worker on it: integer micro-dollars
 * added with INCRBY in one Lua script (one round trip for a call's team and key, day and month),
 * each counter expiring after its period.
 */
export class RedisSpendCounters implements SpendCounters {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(options: RedisSpendCountersOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
  }

  async add(input: {
    subjects: readonly SpendSubject[];
    micros: number;
    at: number;
  }): Promise<number[]> {
    if (input.subjects.length === 0) return [];
    const expiries = input.subjects.map(
      (subject) =>
        Math.ceil(periodWindow(subject.period, input.at).resetsAt.getTime() / 1000) +
        EXPIRY_MARGIN_S,
    );
    const reply = await ADD.run(this.redis, {
      keys: input.subjects.map((subject) => this.keyOf(subject, input.at)),
      args: [Math.round(input.micros), ...expiries],
    });
    if (!Array.isArray(reply)) throw new Error('unexpected reply from the spend script');
    return reply.map((total) => Number(total));
  }

  async read(input: { subjects: readonly SpendSubject[]; at: number }): Promise<number[]> {
    if (input.subjects.length === 0) return [];
    const values = await this.redis.mget(
      ...input.subjects.map((subject) => this.keyOf(subject, input.at)),
    );
    return values.map((value) => (value === null ? 0 : Number(value)));
  }

  private keyOf(subject: SpendSubject, at: number): string {
    return `${this.prefix}:spend:${spendCounterKey(subject, at)}`;
  }
}
