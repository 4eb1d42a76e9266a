/** A per-minute limit, as in ToolIR `constraints.rate_limit`. */
export interface RateLimit {
  /** Requests per minute. */
  rpm: number;
  /** Tokens per minute. */
  tpm?: number | undefined;
}

/** A request for capacity: one call, optionally weighing some tokens. */
export interface RateLimitRequest {
  /** What the limit is shared by, e.g. `tool:<id>`. */
  key: string;
  limit: RateLimit;
  /** Tokens the call is estimated to use (counted against `tpm`). */
  tokens?: number;
}

/** The limiter's answer: capacity taken, or how long until there may be some. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retry_after_ms: number };

/** Takes capacity for one call; a shared (Redis) implementation lets every worker see the same counts. */
export interface RateLimiter {
  acquire(request: RateLimitRequest): Promise<RateLimitDecision>;
}
