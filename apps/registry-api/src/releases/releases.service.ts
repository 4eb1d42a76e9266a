import { Injectable, Inject } from '@nestjs/common';
import type {
  Release,
  ReleaseWithActors,
  SetCanaryVersionInput,
  SetStableVersionInput,
} from '@toolgate/contract';
import { ActorsService } from '../actors/actors.service';
import type { Principal } from '../auth/principal';
import { ExportCache } from '../exports/export-cache';
import { ToolException } from '../problem/tool.exception';
import { ToolsService } from '../tools/tools.service';
import { withStable } from './release-state';
import {
  releaseStateOf,
  ReleasesRepository,
  type ReleaseRow,
  type ReleaseState,
} from './releases.repository';

export function releaseToDto(toolId: string, row: ReleaseRow | null): Release {
  return {
    tool_id: toolId,
    stable_version: row?.stableVersion ?? null,
    canary_version: row?.canaryVersion ?? null,
    canary_percent: row?.canaryPercent ?? 0,
    previous_stable_version: row?.previousStableVersion ?? null,
    updated_by: row?.updatedBy ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

type ReleaseAction =
  'release.stable_set' | 'release.canary_set' | 'release.promoted' | 'release.rolled_back';

@Injectable()
export class ReleasesService {
  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(ReleasesRepository) private readonly releases: ReleasesRepository,
    @Inject(ToolsService) private readonly tools: ToolsService,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(ActorsService) private readonly actors: ActorsService,
  ) {}

  async get(principal: Principal, toolId: string): Promise<ReleaseWithActors> {
    await this.tools.requireVisible(principal, toolId);
    const release = releaseToDto(toolId, await this.releases.find(toolId));
    return { ...release, actors: await this.actors.describe([release.updated_by]) };
  }

  async setStable(
    principal: Principal,
    toolId: string,
    body: SetStableVersionInput,
  ): Promise<Release> {
    await this.tools.requireOwned(principal, toolId);
    await this.tools.requireServable(toolId, body.version, '/body/version');
    return this.transition(principal, { toolId, action: 'release.stable_set' }, (current) =>
      withStable(current, body.version),
    );
  }

  async setCanary(
    principal: Principal,
    toolId: string,
    body: SetCanaryVersionInput,
  ): Promise<Release> {
    await this.tools.requireOwned(principal, toolId);
    await this.tools.requireServable(toolId, body.version, '/body/version');
    return this.transition(principal, { toolId, action: 'release.canary_set' }, (current) => {
      if (current?.stableVersion == null) {
        throw new ToolException('conflict', 'Set a stable version before starting a canary.');
      }
      if (current.stableVersion === body.version) {
        throw new ToolException(
          'conflict',
          `Version ${body.version} is already the stable version.`,
          {
            issues: [{ path: '/body/version', message: 'is the stable version' }],
          },
        );
      }
      return { ...current, canaryVersion: body.version, canaryPercent: body.percent };
    });
  }

  async promote(principal: Principal, toolId: string): Promise<Release> {
    await this.tools.requireOwned(principal, toolId);
    return this.transition(principal, { toolId, action: 'release.promoted' }, (current) => {
      if (current?.canaryVersion == null) {
        throw new ToolException('conflict', 'There is no canary to promote.');
      }
      return {
        stableVersion: current.canaryVersion,
        canaryVersion: null,
        canaryPercent: 0,
        previousStableVersion: current.stableVersion,
      };
    });
  }

  /** Stops a running canary; with none running, returns stable to the version before the last change. */
  async rollback(principal: Principal, toolId: string): Promise<Release> {
    await this.tools.requireOwned(principal, toolId);
    return this.transition(principal, { toolId, action: 'release.rolled_back' }, (current) => {
      if (current?.canaryVersion != null)
        return { ...current, canaryVersion: null, canaryPercent: 0 };
      if (current?.previousStableVersion == null) {
        throw new ToolException(
          'conflict',
          'There is neither a canary nor a previous stable version to roll back to.',
        );
      }
      return {
        stableVersion: current.previousStableVersion,
        canaryVersion: null,
        canaryPercent: 0,
        previousStableVersion: null,
      };
    });
  }

  private async transition(
    principal: Principal,
    { toolId, action }: { toolId: string; action: ReleaseAction },
    next: (current: ReleaseState | null) => ReleaseState,
  ): Promise<Release> {
    const currentRow = await this.releases.find(toolId);
    const expected = releaseStateOf(currentRow);
    const state = next(expected);
    const saved = await this.releases.save(
      toolId,
      { expected, next: state, updatedBy: principal.actor },
      {
        actor: principal.actor,
        teamId: principal.teamId,
        action,
        entityType: 'tool',
        entityId: toolId,
        data: { before: expected, after: state },
      },
    );
    if (!saved) {
      throw new ToolException(
        'conflict',
        'The release changed while this request ran; read it again and retry.',
      );
    }
    this.cache.invalidate();
    return releaseToDto(toolId, saved);
  }
}
