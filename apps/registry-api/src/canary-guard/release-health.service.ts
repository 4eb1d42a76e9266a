import { Inject, Injectable } from '@nestjs/common';
import type { CanaryGuardEvaluation, ReleaseHealth } from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { ToolsService } from '../tools/tools.service';
import { CanaryGuardService } from './canary-guard.service';

/** The canary guard for API callers: the same visibility and ownership rules as releases. */
@Injectable()
export class ReleaseHealthService {
  constructor(
    @Inject(ToolsService) private readonly tools: ToolsService,
    @Inject(CanaryGuardService) private readonly guard: CanaryGuardService,
  ) {}

  async health(principal: Principal, toolId: string): Promise<ReleaseHealth> {
    const tool = await this.tools.requireVisible(principal, toolId);
    return this.guard.assess(toolId, tool.release);
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
