import { describe, expect, it } from 'vitest';
import {
  CanaryGuardConfigError,
  DEFAULT_CANARY_GUARD_OPTIONS,
  loadCanaryGuardOptions,
} from './canary-guard.options';
import { judgeCanary, statsOf, type VersionCounts } from './canary-guard.rules';

const options = DEFAULT_CANARY_GUARD_OPTIONS;

function counts(fields: Partial<VersionCounts>): VersionCounts {
  return { calls: 40, succeeded: 40, validationFailures: 0, p95LatencyMs: 100, ...fields };
}

describe('judgeCanary', () => {
  it('needs enough calls of both versions before judging', () => {
    const stable = statsOf('1.0.0', counts({}));
    expect(
      judgeCanary(stable, statsOf('1.1.0', counts({ calls: 19, succeeded: 0 })), options),
    ).toEqual({ verdict: 'insufficient_data', crossed: [] });
    expect(
      judgeCanary(
        statsOf('1.0.0', counts({ calls: 5, succeeded: 5 })),
        statsOf('1.1.0', counts({})),
        options,
      ),
    ).toEqual({ verdict: 'insufficient_data', crossed: [] });
  });

  it('tolerates a success-rate drop up to the limit and no further', () => {
    const stable = statsOf('1.0.0', counts({}));
    expect(judgeCanary(stable, statsOf('1.1.0', counts({ succeeded: 38 })), options).verdict).toBe(
      'healthy',
    );
    const worse = judgeCanary(stable, statsOf('1.1.0', counts({ succeeded: 37 })), options);
    expect(worse.verdict).toBe('unhealthy');
    expect(worse.crossed).toEqual([
      expect.objectContaining({ rule: 'success_rate_drop', measured: 0.075, limit: 0.05 }),
    ]);
  });

  it('needs both the p95 ratio and the absolute floor crossed', () => {
    const fast = statsOf('1.0.0', counts({ p95LatencyMs: 10 }));
    expect(judgeCanary(fast, statsOf('1.1.0', counts({ p95LatencyMs: 50 })), options).verdict).toBe(
      'healthy',
    );
    const slow = judgeCanary(fast, statsOf('1.1.0', counts({ p95LatencyMs: 61 })), options);
    expect(slow.crossed).toEqual([
      expect.objectContaining({ rule: 'p95_latency_ratio', measured: 6.1 }),
    ]);
    const zero = judgeCanary(
      statsOf('1.0.0', counts({ p95LatencyMs: 0 })),
      statsOf('1.1.0', counts({ p95LatencyMs: 80 })),
      options,
    );
    expect(zero.crossed[0]?.measured).toBe(80);
  });

  it('compares validation failures as a rate over all calls', () => {
    const stable = statsOf('1.0.0', counts({ validationFailures: 2, succeeded: 38 }));
    const canary = statsOf('1.1.0', counts({ validationFailures: 6, succeeded: 34 }));
    expect(canary.successRate).toBe(1);
    expect(judgeCanary(stable, canary, options).crossed).toEqual([
      expect.objectContaining({ rule: 'validation_failure_increase', measured: 0.1 }),
    ]);
  });
});

describe('loadCanaryGuardOptions', () => {
  it('reads CANARY_GUARD_* over the defaults and code overrides over both', () => {
    expect(loadCanaryGuardOptions({})).toEqual(DEFAULT_CANARY_GUARD_OPTIONS);
    expect(
      loadCanaryGuardOptions(
        {
          CANARY_GUARD_INTERVAL_MS: '0',
          CANARY_GUARD_MIN_CALLS: ' ',
          CANARY_GUARD_MAX_P95_RATIO: '2',
        },
        { minCalls: 50 },
      ),
    ).toMatchObject({ intervalMs: 0, minCalls: 50, maxP95Ratio: 2, windowMs: 900_000 });
  });

  it('refuses invalid values, naming each', () => {
    expect(() =>
      loadCanaryGuardOptions({
        CANARY_GUARD_WINDOW_MS: 'soon',
        CANARY_GUARD_MAX_SUCCESS_RATE_DROP: '5',
      }),
    ).toThrow(CanaryGuardConfigError);
  });
});
