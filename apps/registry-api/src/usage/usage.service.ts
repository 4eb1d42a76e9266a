import { Inject, Injectable } from '@nestjs/common';
import type { VersionUsage, VersionUsageQuery } from '@toolgate/contract';
import { ownsTeam, type Principal } from '../auth/principal';
import { windowRange } from '../metrics/slo-window';
import { ToolException } from '../problem/tool.exception';
import { UsageRepository } from './usage.repository';

@Injectable()
export class UsageService {
  constructor(@Inject(UsageRepository) private readonly usage: UsageRepository) {}

  /**
   * The keys and teams that called one version in the window, busiest first: what a deprecation
   * will break. Only the tool's own team (or a caller spanning all teams) may see who calls it.
   */
  async versionUsage(
    principal: Principal,
    target: { toolId: string; version: string },
    query: VersionUsageQuery,
  ): Promise<VersionUsage> {
    const tool = await this.usage.findTool(target.toolId, target.version);
    if (tool === null || !ownsTeam(principal, tool.teamId)) {
      throw new ToolException('not_found', `Tool ${target.toolId} was not found.`);
    }
    if (!tool.hasVersion) {
      throw new ToolException(
        'version_not_found',
        `Tool ${tool.name} has no version ${target.version}.`,
      );
    }
    const { from } = windowRange(query.window);
    const callers = await this.usage.callers(tool.id, target.version, from);
    return {
      tool: tool.name,
      version: target.version,
      window: query.window,
      callers: callers.map((caller) => ({
        team_id: caller.teamId,
        team_name: caller.teamName,
        key_id: caller.keyId,
        key_name: caller.keyName,
        actor: caller.actor,
        calls: caller.calls,
        last_call_at: caller.lastCallAt.toISOString(),
      })),
    };
  }
}
