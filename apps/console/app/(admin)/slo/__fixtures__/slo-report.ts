import type { SloBucket, SloReport, SloSeries } from '@toolgate/contract';

const HOUR = 3_600_000;
export const SLO_FROM = Date.UTC(2026, 11, 6, 0, 0, 0);

type BucketFigures = Partial<Omit<SloBucket, 'start'>>;

/** Four hourly buckets from SLO_FROM, each with the figures given (empty buckets by default). */
export function sloBuckets(figures: readonly BucketFigures[]): SloBucket[] {
  return Array.from({ length: 4 }, (_, index) => {
    const entry = figures[index] ?? {};
    const calls = entry.calls ?? 0;
    const succeeded = entry.succeeded ?? calls;
    return {
      start: new Date(SLO_FROM + index * HOUR).toISOString(),
      calls,
      succeeded,
      failed: calls - succeeded,
      cached: entry.cached ?? 0,
      p50_ms: entry.p50_ms ?? null,
      p95_ms: entry.p95_ms ?? null,
      destructive_runs: entry.destructive_runs ?? 0,
      destructive_approved: entry.destructive_approved ?? 0,
      approval_wait_p50_ms: entry.approval_wait_p50_ms ?? null,
      approval_wait_p95_ms: entry.approval_wait_p95_ms ?? null,
    };
  });
}

function series(tool: string, version: string | null, buckets: SloBucket[]): SloSeries {
  return {
    key: version === null ? tool : `${tool}@${version}`,
    tool,
    tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000001',
    version,
    calls: buckets.reduce((sum, bucket) => sum + bucket.calls, 0),
    buckets,
  };
}

const stable = sloBuckets([
  { calls: 100, succeeded: 100, p50_ms: 120, p95_ms: 400 },
  { calls: 100, succeeded: 100, p50_ms: 130, p95_ms: 450 },
  { calls: 100, succeeded: 100, p50_ms: 110, p95_ms: 420 },
]);
// The canary breaches both SLOs in its second hour.
const canary = sloBuckets([
  { calls: 10, succeeded: 10, p50_ms: 150, p95_ms: 600 },
  { calls: 10, succeeded: 9, p50_ms: 900, p95_ms: 2600 },
  { calls: 10, succeeded: 10, p50_ms: 140, p95_ms: 500 },
]);

/** A day with a stable and a canary version of one tool; the canary breaches in hour two. */
export const SLO_REPORT: SloReport = {
  window: '24h',
  from: new Date(SLO_FROM).toISOString(),
  to: new Date(SLO_FROM + 4 * HOUR).toISOString(),
  buckets: sloBuckets([
    {
      calls: 110,
      succeeded: 110,
      p50_ms: 121,
      p95_ms: 410,
      destructive_runs: 2,
      destructive_approved: 2,
      approval_wait_p50_ms: 30_000,
      approval_wait_p95_ms: 60_000,
    },
    {
      calls: 110,
      succeeded: 109,
      p50_ms: 140,
      p95_ms: 2100,
      destructive_runs: 2,
      destructive_approved: 1,
      approval_wait_p50_ms: 45_000,
      approval_wait_p95_ms: 90_000,
    },
    { calls: 110, succeeded: 110, p50_ms: 112, p95_ms: 430 },
  ]),
  tools: [
    {
      tool: 'search',
      tool_id: '6f1c1e2a-7d1e-4a55-9d8c-000000000001',
      calls: 330,
      cached: 12,
      success_rate: 329 / 330,
      p50_ms: 120,
      p95_ms: 600,
      error_codes: { tool_error: 1 },
      destructive: false,
      approvals: { required: 0, approved: 0, denied: 0, expired: 0 },
    },
  ],
  by_tool: [series('search', null, stable)],
  by_version: [series('search', '1.0.0', stable), series('search', '1.1.0', canary)],
  slos: [
    { name: 'success_rate', target: 0.995, actual: 329 / 330, met: true },
    { name: 'p95_latency_ms', target: 2000, actual: 600, met: true },
    { name: 'destructive_approval_rate', target: 1, actual: 0.75, met: false },
  ],
};

/** A window whose only calls fall in one bucket. */
export const SLO_REPORT_ONE_BUCKET: SloReport = {
  ...SLO_REPORT,
  buckets: sloBuckets([{}, { calls: 3, succeeded: 3, p50_ms: 250, p95_ms: 700 }]),
  by_tool: [],
  by_version: [],
};

export const SLO_REPORT_EMPTY: SloReport = {
  ...SLO_REPORT,
  buckets: sloBuckets([]),
  tools: [],
  by_tool: [],
  by_version: [],
  slos: SLO_REPORT.slos.map((slo) => ({ ...slo, actual: null, met: null })),
};
