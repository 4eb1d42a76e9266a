import { Inject, Injectable } from '@nestjs/common';
import type {
  CanaryGuardEvaluation,
  ReleaseHealth,
  ReleaseHistory,
  ReleaseHistoryQuery,
} from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { bucketStarts, windowRange } from '../metrics/slo-window';
import { ToolsService } from '../tools/tools.service';
import { CanaryGuardRepository } from './canary-guard.repository';
import { CanaryGuardService } from './canary-guard.service';
import { releaseHistoryOf } from './release-history';

/** The canary guard for API callers: the same visibility and ownership rules as releases. */
@Injectable()
export class ReleaseHealthService {
  constructor(
    @Inject(ToolsService) private readonly tools: ToolsService,
    @Inject(CanaryGuardService) private readonly guard: CanaryGuardService,
    @Inject(CanaryGuardRepository) private readonly figures: CanaryGuardRepository,
  ) {}

  async health(principal: Principal, toolId: string): Promise<ReleaseHealth> {
    const tool = await this.tools.requireVisible(principal, toolId);
    return this.guard.assess(toolId, tool.release);
  }

  /** Each version's figures over a window in time buckets, for charts of canary against stable. */
  async history(
    principal: Principal,
    toolId: string,
    query: ReleaseHistoryQuery,
  ): Promise<ReleaseHistory> {
    const tool = await this.tools.requireVisible(principal, toolId);
    const range = windowRange(query.window);
    const release = {
      stableVersion: tool.release?.stableVersion ?? null,
      canaryVersion: tool.release?.canaryVersion ?? null,
    };
    const counts = await this.figures.versionHistory(toolId, range);
    return {
      tool_id: toolId,
      window: query.window,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      bucket_ms: range.bucketMs,
      stable_version: release.stableVersion,
      canary_version: release.canaryVersion,
      canary_percent: tool.release?.canaryPercent ?? 0,
      versions: releaseHistoryOf(counts, bucketStarts(range), release),
    };
  }

  /** Evaluates the tool now; only the owning team may, as it may change the release. */
  async evaluate(principal: Principal, toolId: string): Promise<CanaryGuardEvaluation> {
    const tool = await this.tools.requireOwned(principal, toolId);
    if (tool.release === null) {
      return { ...(await this.guard.assess(toolId, null)), action: 'none' };
    }
    return this.guard.evaluateRelease({
      release: tool.release,
      teamId: tool.teamId,
      requestedBy: principal.actor,
    });
  }
}
