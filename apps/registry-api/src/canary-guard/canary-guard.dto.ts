import type { CanaryVerdict, CrossedThreshold } from './canary-guard.rules';

export interface VersionStatsDto {
  version: string;
  calls: number;
  succeeded: number;
  validation_failures: number;
  /** succeeded / calls that passed validation; null without any. */
  success_rate: number | null;
  validation_failure_rate: number | null;
  p95_latency_ms: number | null;
}

export interface CanaryThresholdsDto {
  window_ms: number;
  min_calls: number;
  max_success_rate_drop: number;
  max_p95_ratio: number;
  p95_floor_ms: number;
  max_validation_failure_increase: number;
}

export interface ReleaseHealthDto {
  tool_id: string;
  stable_version: string | null;
  canary_version: string | null;
  canary_percent: number;
  /** The calls compared: since the later of window start and the release's last change. */
  window: { from: string; to: string };
  stable: VersionStatsDto | null;
  canary: VersionStatsDto | null;
  verdict: CanaryVerdict;
  crossed: CrossedThreshold[];
  thresholds: CanaryThresholdsDto;
}

/**
 * What an evaluation did: `rolled_back` cleared the canary; `release_changed` means the release
 * moved on while the figures were read, so nothing was written and the next run judges anew.
 */
export type GuardAction = 'none' | 'rolled_back' | 'release_changed';

export interface GuardEvaluationDto extends ReleaseHealthDto {
  action: GuardAction;
}
