import { Inject, Injectable } from '@nestjs/common';
import type { SloBucket, SloQuery, SloReport } from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { MetricsRepository, type CallScope } from './metrics.repository';
import { evaluateSlo, ratio } from './slo';
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
    const [buckets, totals, tools] = await Promise.all([
      this.metrics.buckets(scope, range.bucketMs),
      this.metrics.totals(scope),
      this.metrics.tools(scope, now),
    ]);
    const byStart = new Map(buckets.map((bucket) => [bucket.start, bucket]));
    return {
      window: query.window,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      buckets: bucketStarts(range).map((start): SloBucket => {
        const figures = byStart.get(start.getTime());
        return {
          start: start.toISOString(),
          calls: figures?.calls ?? 0,
          succeeded: figures?.succeeded ?? 0,
          failed: figures === undefined ? 0 : figures.calls - figures.succeeded,
          cached: figures?.cached ?? 0,
          p50_ms: figures?.p50Ms ?? null,
          p95_ms: figures?.p95Ms ?? null,
        };
      }),
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
}
