import type { CanaryVerdict, CrossedThreshold } from '@toolgate/contract';
import type { CanaryGuardOptions } from './canary-guard.options';

/** One version's calls in the window, as the aggregate query counts them. */
export interface VersionCounts {
  /** Finished calls the version is answerable for (see canary-guard.repository.ts). */
  calls: number;
  succeeded: number;
  /** Calls refused by argument validation (`error_code = invalid_arguments`). */
  validationFailures: number;
  /** p95 latency of the calls that passed validation, in ms; null without any. */
  p95LatencyMs: number | null;
}

export interface VersionStats extends VersionCounts {
  version: string;
  /** succeeded / calls that passed validation; null without any. */
  successRate: number | null;
  /** validation failures / calls; null without calls. */
  validationFailureRate: number | null;
}

export interface Judgement {
  verdict: CanaryVerdict;
  crossed: CrossedThreshold[];
}

export function statsOf(version: string, counts: VersionCounts): VersionStats {
  const executed = counts.calls - counts.validationFailures;
  return {
    version,
    ...counts,
    successRate: executed > 0 ? counts.succeeded / executed : null,
    validationFailureRate: counts.calls > 0 ? counts.validationFailures / counts.calls : null,
  };
}

const round = (value: number, digits = 4): number => Number(value.toFixed(digits));

// Rates are ratios of counts: 38/40 lands a hair past 0.95, so a drop exactly at the limit must
// not read as crossing it.
const EPSILON = 1e-9;
const exceeds = (value: number, limit: number): boolean => value - limit > EPSILON;

/**
 * Whether the canary does clearly worse than stable. "Clearly" means two things at once:
 *
 * - Both versions have at least `minCalls` calls in the window. Below that one unlucky call
 *   moves a rate by several points, and a guard that acts on such noise would roll back good
 *   canaries (and, as operators restart them, flap). Too few samples is `insufficient_data`,
 *   and the canary keeps running.
 * - At least one threshold is crossed, each relative to stable over the same window, so load or
 *   a downstream outage that hurts both versions alike does not count against the canary:
 *   success rate more than `maxSuccessRateDrop` below stable's; p95 latency above
 *   `maxP95Ratio` times stable's AND more than `p95FloorMs` slower (a 2 ms tool going to 4 ms
 *   doubles without harming anyone); the invalid_arguments rate more than
 *   `maxValidationFailureIncrease` above stable's (a schema change models cannot follow).
 */
export function judgeCanary(
  stable: VersionStats,
  canary: VersionStats,
  options: CanaryGuardOptions,
): Judgement {
  if (stable.calls < options.minCalls || canary.calls < options.minCalls) {
    return { verdict: 'insufficient_data', crossed: [] };
  }
  const crossed: CrossedThreshold[] = [];
  if (stable.successRate !== null && canary.successRate !== null) {
    const drop = stable.successRate - canary.successRate;
    if (exceeds(drop, options.maxSuccessRateDrop)) {
      crossed.push({
        rule: 'success_rate_drop',
        stable: round(stable.successRate),
        canary: round(canary.successRate),
        measured: round(drop),
        limit: options.maxSuccessRateDrop,
        detail: `success rate ${pct(canary.successRate)} vs ${pct(stable.successRate)} on stable (drop > ${pct(options.maxSuccessRateDrop)})`,
      });
    }
  }
  if (stable.p95LatencyMs !== null && canary.p95LatencyMs !== null) {
    const slower = canary.p95LatencyMs - stable.p95LatencyMs;
    const ratio =
      stable.p95LatencyMs > 0
        ? canary.p95LatencyMs / stable.p95LatencyMs
        : Number.POSITIVE_INFINITY;
    if (exceeds(ratio, options.maxP95Ratio) && exceeds(slower, options.p95FloorMs)) {
      crossed.push({
        rule: 'p95_latency_ratio',
        stable: round(stable.p95LatencyMs, 1),
        canary: round(canary.p95LatencyMs, 1),
        // JSON has no Infinity; a zero-latency stable is reported as the canary's own p95.
        measured: Number.isFinite(ratio) ? round(ratio, 3) : round(canary.p95LatencyMs, 1),
        limit: options.maxP95Ratio,
        detail: `p95 ${round(canary.p95LatencyMs, 1)} ms vs ${round(stable.p95LatencyMs, 1)} ms on stable (ratio > ${options.maxP95Ratio} and > ${options.p95FloorMs} ms slower)`,
      });
    }
  }
  if (stable.validationFailureRate !== null && canary.validationFailureRate !== null) {
    const increase = canary.validationFailureRate - stable.validationFailureRate;
    if (exceeds(increase, options.maxValidationFailureIncrease)) {
      crossed.push({
        rule: 'validation_failure_increase',
        stable: round(stable.validationFailureRate),
        canary: round(canary.validationFailureRate),
        measured: round(increase),
        limit: options.maxValidationFailureIncrease,
        detail: `invalid_arguments rate ${pct(canary.validationFailureRate)} vs ${pct(stable.validationFailureRate)} on stable (increase > ${pct(options.maxValidationFailureIncrease)})`,
      });
    }
  }
  return { verdict: crossed.length > 0 ? 'unhealthy' : 'healthy', crossed };
}

function pct(value: number): string {
  return `${round(value * 100, 1)}%`;
}
