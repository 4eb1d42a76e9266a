/**
 * Error codes of calls refused before the tool ran (policy, approval, rate limit, budget, cancellation).
 * Such calls say nothing about a tool version's health, so the SLO dashboard and the canary guard
 * both leave them out of success rates and latencies.
 */
export const REFUSED_BEFORE_RUN_CODES: readonly string[] = [
  'policy_denied',
  'approval_denied',
  'approval_expired',
  'approval_required',
  'egress_denied',
  'secret_unavailable',
  'rate_limited',
  'budget_exceeded',
  'cancelled',
];

/**
 * Call statuses with an outcome of the tool's making. Calls the result cache answered
 * (`cache_age_ms` set) are left out of rates and latencies beside these: they did not execute.
 */
export const ANSWERED_STATUSES: readonly string[] = ['succeeded', 'failed', 'outcome_unknown'];
