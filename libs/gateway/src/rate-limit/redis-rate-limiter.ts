import type { RateLimitDecision, RateLimiter, RateLimitRequest } from '@toolgate/engine';
import type { Redis } from 'ioredis';
import { LuaScript } from './lua-script';

// A sliding-window log: one sorted-set entry per admitted call (score = admission time, member
// `<seq>:<tokens>`), trimmed to the window on each acquire. Redis's own clock (TIME) is used so
// workers with skewed clocks still share one window. KEYS: the log, its sequence counter.
// ARGV: window ms, rpm, tpm (0 = none), tokens. Returns {1, 0} or {0, retry_after_ms}.
const ACQUIRE = new LuaScript(`
local window = tonumber(ARGV[1])
local rpm = tonumber(ARGV[2])
local tpm = tonumber(ARGV[3])
local tokens = tonumber(ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= rpm then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(1, tonumber(oldest[2]) + window - now)}
end
if tpm > 0 and tokens > 0 then
  local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  local used = 0
  for i = 1, #entries, 2 do
    used = used + tonumber(string.match(entries[i], ':(%d+)$'))
  end
  if used + tokens > tpm then
    for i = 1, #entries, 2 do
      used = used - tonumber(string.match(entries[i], ':(%d+)$'))
      if used + tokens <= tpm then
        return {0, math.max(1, tonumber(entries[i + 1]) + window - now)}
      end
    end
    return {0, window}
  end
end
local seq = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], now, seq .. ':' .. tokens)
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
return {1, 0}`);

/** Options of the Redis rate limiter. */
export interface RedisRateLimiterOptions {
  redis: Redis;
  /** Key namespace: a limit's log lives at `<prefix>:rate-limit:<key>`. */
  prefix: string;
  /** The window the limits are counted over. Default one minute, as `rpm`/`tpm` say. */
  windowMs?: number;
}

/**
 * The engine's `RateLimiter` on Redis: a sliding one-minute window per key, checked and taken in
 * one Lua script, so every worker process sharing the Redis sees the same counts.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly windowMs: number;

  constructor(options: RedisRateLimiterOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.windowMs = options.windowMs ?? 60_000;
  }

  async acquire(request: RateLimitRequest): Promise<RateLimitDecision> {
    const key = `${this.prefix}:rate-limit:${request.key}`;
    const tokens = Math.max(0, Math.ceil(request.tokens ?? 0));
    const reply = await ACQUIRE.run(this.redis, {
      keys: [key, `${key}:seq`],
      args: [this.windowMs, request.limit.rpm, request.limit.tpm ?? 0, tokens],
    });
    const [allowed, retryAfterMs] = parseReply(reply);
    return allowed ? { allowed: true } : { allowed: false, retry_after_ms: retryAfterMs };
  }
}

function parseReply(reply: unknown): [boolean, number] {
  if (!Array.isArray(reply) || reply.length !== 2)
    throw new Error('unexpected reply from the rate-limit script');
  return [Number(reply[0]) === 1, Number(reply[1])];
}
