import { z } from 'zod';

/** Nest injection token of the guard's `CanaryGuardOptions`. */
export const CANARY_GUARD_OPTIONS = Symbol('toolgate.canary-guard-options');

/** When the canary guard judges a canary and what counts as "clearly worse" than stable. */
export interface CanaryGuardOptions {
  /** How often every running canary is evaluated, in ms; 0 turns the timer off. */
  intervalMs: number;
  /** The sliding window of calls that is compared, in ms. */
  windowMs: number;
  /** Calls each version needs in the window before it is judged at all. */
  minCalls: number;
  /** Largest tolerated drop of the canary's success rate below stable's (0.05 = 5 points). */
  maxSuccessRateDrop: number;
  /** Largest tolerated ratio of the canary's p95 latency to stable's. */
  maxP95Ratio: number;
  /** A p95 ratio only counts when the canary is also this many ms slower (noise on fast tools). */
  p95FloorMs: number;
  /** Largest tolerated rise of the canary's invalid_arguments rate over stable's (0.05 = 5 points). */
  maxValidationFailureIncrease: number;
}

export const DEFAULT_CANARY_GUARD_OPTIONS: CanaryGuardOptions = {
  intervalMs: 30_000,
  windowMs: 15 * 60_000,
  minCalls: 20,
  maxSuccessRateDrop: 0.05,
  maxP95Ratio: 1.5,
  p95FloorMs: 50,
  maxValidationFailureIncrease: 0.05,
};

const rate = z.coerce.number().min(0).max(1);

/** The environment variables the guard reads (`CANARY_GUARD_*`), each optional. */
const CanaryGuardEnvSchema = z.object({
  CANARY_GUARD_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).optional(),
  CANARY_GUARD_WINDOW_MS: z.coerce.number().int().min(1_000).max(86_400_000).optional(),
  CANARY_GUARD_MIN_CALLS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  CANARY_GUARD_MAX_SUCCESS_RATE_DROP: rate.optional(),
  CANARY_GUARD_MAX_P95_RATIO: z.coerce.number().min(1).max(1_000).optional(),
  CANARY_GUARD_P95_FLOOR_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  CANARY_GUARD_MAX_VALIDATION_FAILURE_INCREASE: rate.optional(),
});

const KEYS = Object.keys(CanaryGuardEnvSchema.shape) as ReadonlyArray<
  keyof z.input<typeof CanaryGuardEnvSchema>
>;

/** Thrown at start when a `CANARY_GUARD_*` variable is invalid; lists every bad one. */
export class CanaryGuardConfigError extends Error {
  override readonly name = 'CanaryGuardConfigError';
}

/**
 * The guard's options from the environment over the defaults, then `overrides` (tests and
 * embedders pass these in code). Blank variables count as unset, like the app config.
 */
export function loadCanaryGuardOptions(
  env: Readonly<Record<string, string | undefined>>,
  overrides: Partial<CanaryGuardOptions> = {},
): CanaryGuardOptions {
  const input = Object.fromEntries(
    KEYS.map((key) => {
      const value = env[key];
      return [key, value === undefined || value.trim() === '' ? undefined : value];
    }),
  );
  const parsed = CanaryGuardEnvSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new CanaryGuardConfigError(`Invalid canary guard configuration:\n${lines.join('\n')}`);
  }
  const fromEnv = parsed.data;
  const defined = <T>(value: T | undefined, fallback: T): T => value ?? fallback;
  const base = DEFAULT_CANARY_GUARD_OPTIONS;
  return {
    intervalMs: defined(fromEnv.CANARY_GUARD_INTERVAL_MS, base.intervalMs),
    windowMs: defined(fromEnv.CANARY_GUARD_WINDOW_MS, base.windowMs),
    minCalls: defined(fromEnv.CANARY_GUARD_MIN_CALLS, base.minCalls),
    maxSuccessRateDrop: defined(
      fromEnv.CANARY_GUARD_MAX_SUCCESS_RATE_DROP,
      base.maxSuccessRateDrop,
    ),
    maxP95Ratio: defined(fromEnv.CANARY_GUARD_MAX_P95_RATIO, base.maxP95Ratio),
    p95FloorMs: defined(fromEnv.CANARY_GUARD_P95_FLOOR_MS, base.p95FloorMs),
    maxValidationFailureIncrease: defined(
      fromEnv.CANARY_GUARD_MAX_VALIDATION_FAILURE_INCREASE,
      base.maxValidationFailureIncrease,
    ),
    ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
  };
}
