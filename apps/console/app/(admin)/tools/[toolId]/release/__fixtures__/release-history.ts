import type {
  ReleaseHealth,
  ReleaseHistory,
  ReleaseHistoryBucket,
  ReleaseHistoryVersion,
} from '@toolgate/contract';

const HOUR = 3_600_000;
export const HISTORY_FROM = Date.UTC(2026, 11, 6, 0, 0, 0);
export const TOOL_ID = '6f1c1e2a-7d1e-4a55-9d8c-1f0f9b8c2a11';

type Figures = Partial<Omit<ReleaseHistoryBucket, 'start'>>;

function version(
  name: string,
  role: ReleaseHistoryVersion['role'],
  figures: readonly Figures[],
): ReleaseHistoryVersion {
  const buckets = figures.map((entry, index): ReleaseHistoryBucket => ({
    start: new Date(HISTORY_FROM + index * HOUR).toISOString(),
    served: entry.served ?? 0,
    share: entry.share ?? null,
    calls: entry.calls ?? entry.served ?? 0,
    succeeded: entry.succeeded ?? 0,
    validation_failures: entry.validation_failures ?? 0,
    success_rate: entry.success_rate ?? null,
    validation_failure_rate: entry.validation_failure_rate ?? null,
    p95_latency_ms: entry.p95_latency_ms ?? null,
  }));
  return { version: name, role, served: buckets.reduce((sum, b) => sum + b.served, 0), buckets };
}

/** 1.0.0 stable at 80 %, 1.1.0 a 20 % canary that got 30 % and failed more in hour two. */
export const HISTORY: ReleaseHistory = {
  tool_id: TOOL_ID,
  window: '24h',
  from: new Date(HISTORY_FROM).toISOString(),
  to: new Date(HISTORY_FROM + 3 * HOUR).toISOString(),
  bucket_ms: HOUR,
  stable_version: '1.0.0',
  canary_version: '1.1.0',
  canary_percent: 20,
  versions: [
    version('1.0.0', 'stable', [
      {
        served: 80,
        share: 0.8,
        success_rate: 0.99,
        validation_failure_rate: 0,
        p95_latency_ms: 400,
      },
      {
        served: 70,
        share: 0.7,
        success_rate: 0.99,
        validation_failure_rate: 0,
        p95_latency_ms: 420,
      },
      {},
    ]),
    version('1.1.0', 'canary', [
      {
        served: 20,
        share: 0.2,
        success_rate: 0.99,
        validation_failure_rate: 0.01,
        p95_latency_ms: 450,
      },
      {
        served: 30,
        share: 0.3,
        success_rate: 0.8,
        validation_failure_rate: 0.2,
        p95_latency_ms: 2000,
      },
      {},
    ]),
    version('0.9.0', 'other', [{ served: 1, share: 0.01 }, {}, {}]),
  ],
};

/** Guard figures over its window: stable at 99 %, 400 ms p95, no validation failures. */
export const HEALTH: ReleaseHealth = {
  tool_id: TOOL_ID,
  stable_version: '1.0.0',
  canary_version: '1.1.0',
  canary_percent: 20,
  window: {
    from: new Date(HISTORY_FROM + 2 * HOUR).toISOString(),
    to: new Date(HISTORY_FROM + 3 * HOUR).toISOString(),
  },
  stable: {
    version: '1.0.0',
    calls: 100,
    succeeded: 99,
    validation_failures: 0,
    success_rate: 0.99,
    validation_failure_rate: 0,
    p95_latency_ms: 400,
  },
  canary: {
    version: '1.1.0',
    calls: 25,
    succeeded: 24,
    validation_failures: 0,
    success_rate: 0.96,
    validation_failure_rate: 0,
    p95_latency_ms: 500,
  },
  verdict: 'healthy',
  crossed: [],
  thresholds: {
    window_ms: 900_000,
    min_calls: 20,
    max_success_rate_drop: 0.05,
    max_p95_ratio: 1.5,
    p95_floor_ms: 50,
    max_validation_failure_increase: 0.05,
  },
};
