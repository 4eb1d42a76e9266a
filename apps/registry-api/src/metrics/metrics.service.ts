import { Inject, Injectable } from '@nestjs/common';
import type {
  CallsMetrics,
  CallsMetricsQuery,
  CostQuery,
  CostReport,
  SloQuery,
  SloReport,
} from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { MetricsRepository, type CallScope } from './metrics.repository';
import { costSeriesOf } from './cost-report';
import { evaluateSlo, ratio } from './slo';
import { callsBucketOf, callsToolSeriesOf } from './calls-series';
import { sloBucketOf, sloSeriesOf } from './slo-series';
import { bucketStarts, windowRange } from './slo-window';

@Injectable()
export class MetricsService {
  constructor(@Inject(MetricsRepository) private readonly metrics: MetricsRepository) {}

  /**
   * Success rate, latency, error codes and approvals over a window, with the three SLOs judged.
   * Rates and latencies count only calls the tool answers for (finished, not refused before it
   * ran); error codes count every failed call, refusals included, so the dashboard shows them.
   * Calls the result cache answered are counted apart (`cached`) and in neither.
   */
  async slo(principal: Principal, query: SloQuery, now = new Date()): Promise<SloReport> {
    const range = windowRange(query.window, now);
    const scope: CallScope = {
      from: range.from,
      to: range.to,
      // A team's key sees its own team's calls; console users and the admin key see all.
      teamId: principal.teamId,
      toolName: query.tool,
    };
    const [buckets, byTool, byVersion, totals, tools] = await Promise.all([
      this.metrics.buckets(scope, range.bucketMs),
      this.metrics.buckets(scope, range.bucketMs, 'tool'),
      this.metrics.buckets(scope, range.bucketMs, 'version'),
      this.metrics.totals(scope),
      this.metrics.tools(scope, now),
    ]);
    const starts = bucketStarts(range);
    const byStart = new Map(buckets.map((bucket) => [bucket.start, bucket]));
    return {
      window: query.window,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      buckets: starts.map((start) => sloBucketOf(start, byStart.get(start.getTime()))),
      by_tool: sloSeriesOf(byTool, starts),
      by_version: sloSeriesOf(byVersion, starts),
      tools: tools.map((tool) => ({
        tool: tool.tool,
        tool_id: tool.toolId,
        calls: tool.calls,
        cached: tool.cached,
        success_rate: ratio(tool.succeeded, tool.calls),
        p50_ms: tool.p50Ms,
        p95_ms: tool.p95Ms,
        error_codes: tool.errorCodes,
        destructive: tool.destructive,
        approvals: tool.approvals,
      })),
      slos: [
        evaluateSlo('success_rate', ratio(totals.succeeded, totals.calls)),
        evaluateSlo('p95_latency_ms', totals.p95Ms),
        evaluateSlo(
          'destructive_approval_rate',
          ratio(totals.destructiveApproved, totals.destructiveRuns),
        ),
      ],
    };
  }

  /**
   * Tool and token spend over a window, bucketed, one series per team, key, tool or version. The
   * same visibility as the SLO report: a team's key sees its own team's calls only.
   */
  async cost(principal: Principal, query: CostQuery, now = new Date()): Promise<CostReport> {
    const range = windowRange(query.window, now);
    const scope: CallScope = {
      from: range.from,
      to: range.to,
      teamId: principal.teamId,
      toolName: query.tool,
    };
    const figures = await this.metrics.costs(scope, {
      bucketMs: range.bucketMs,
      groupBy: query.group_by,
    });
    return {
      group_by: query.group_by,
      window: query.window,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      bucket_ms: range.bucketMs,
      currency: 'USD',
      ...costSeriesOf(figures, bucketStarts(range)),
    };
  }

  /** Every call received over a window, bucketed: by status, error rate, latency, and per tool. */
  async calls(
    principal: Principal,
    query: CallsMetricsQuery,
    now = new Date(),
  ): Promise<CallsMetrics> {
    const range = windowRange(query.window, now);
    const scope: CallScope = {
      from: range.from,
      to: range.to,
      teamId: principal.teamId,
      toolName: query.tool,
      toolVersion: query.version,
    };
    const [buckets, tools] = await Promise.all([
      this.metrics.callBuckets(scope, range.bucketMs),
      this.metrics.toolBuckets(scope, range.bucketMs),
    ]);
    const starts = bucketStarts(range);
    const byStart = new Map(buckets.map((bucket) => [bucket.start, bucket]));
    return {
      window: query.window,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      bucket_ms: range.bucketMs,
      buckets: starts.map((start) => callsBucketOf(start, byStart.get(start.getTime()))),
      tools: callsToolSeriesOf(tools, starts),
    };
  }
}
