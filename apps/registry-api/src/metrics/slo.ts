import type { SloName, SloResult } from '@toolgate/contract';

/** The platform's three service-level objectives and how each is judged. */
export const SLO_TARGETS = {
  success_rate: 0.995,
  p95_latency_ms: 2000,
  destructive_approval_rate: 1,
} as const satisfies Record<SloName, number>;

/** Judges one objective: latency must stay at or below its target, rates at or above. */
export function evaluateSlo(name: SloName, actual: number | null): SloResult {
  const target = SLO_TARGETS[name];
  if (actual === null) return { name, target, actual: null, met: null };
  return {
    name,
    target,
    actual,
    met: name === 'p95_latency_ms' ? actual <= target : actual >= target,
  };
}

/** A ratio, or null when nothing was counted. */
export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}
