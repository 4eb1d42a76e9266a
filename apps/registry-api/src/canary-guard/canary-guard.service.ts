import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type {
  CanaryGuardAction,
  CanaryGuardEvaluation,
  CanaryVersionStats,
  ReleaseHealth,
} from '@toolgate/contract';
import { ExportCache } from '../exports/export-cache';
import type { ReleaseRow } from '../releases/releases.repository';
import { CANARY_GUARD_OPTIONS, type CanaryGuardOptions } from './canary-guard.options';
import { CanaryGuardRepository } from './canary-guard.repository';
import {
  judgeCanary,
  statsOf,
  type Judgement,
  type VersionCounts,
  type VersionStats,
} from './canary-guard.rules';

/** The audit actor of every change the guard makes on its own. */
export const CANARY_GUARD_ACTOR = 'system:canary-guard';
export const CANARY_AUTO_ROLLBACK_ACTION = 'release.canary_auto_rollback';

const NO_CALLS: VersionCounts = {
  calls: 0,
  succeeded: 0,
  validationFailures: 0,
  p95LatencyMs: null,
};

function statsToDto(stats: VersionStats): CanaryVersionStats {
  return {
    version: stats.version,
    calls: stats.calls,
    succeeded: stats.succeeded,
    validation_failures: stats.validationFailures,
    success_rate: stats.successRate,
    validation_failure_rate: stats.validationFailureRate,
    p95_latency_ms: stats.p95LatencyMs,
  };
}

/** A release to judge and act on, with the team owning the tool and who asked (null: the timer). */
export interface GuardTarget {
  release: ReleaseRow;
  teamId: string;
  requestedBy: string | null;
}

/**
 * Compares each running canary with its stable version over a sliding window of calls and rolls
 * back a canary that does clearly worse (rules in canary-guard.rules.ts), on a timer and on demand.
 */
@Injectable()
export class CanaryGuardService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CanaryGuardService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    @Inject(CanaryGuardRepository) private readonly guard: CanaryGuardRepository,
    @Inject(ExportCache) private readonly cache: ExportCache,
    @Inject(CANARY_GUARD_OPTIONS) private readonly options: CanaryGuardOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.intervalMs <= 0) return;
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
    // The guard must never be what keeps a process alive.
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Let a run in flight finish before the database is closed under it.
    await this.running;
  }

  /**
   * Evaluates every running canary (or one tool's) and rolls back those doing clearly worse.
   * Several replicas may run this at once: a rollback only applies to the release state it
   * judged, so one of them writes it and the others get `release_changed`. A tool whose
   * evaluation fails is logged and left out of the result.
   */
  async evaluate(toolId?: string): Promise<CanaryGuardEvaluation[]> {
    const canaries = await this.guard.canaryReleases(toolId);
    const results: CanaryGuardEvaluation[] = [];
    for (const { release, teamId } of canaries) {
      try {
        results.push(await this.evaluateRelease({ release, teamId, requestedBy: null }));
      } catch (error) {
        // One tool's failure (a busy database, say) must not leave the other canaries unguarded.
        this.logger.error(
          `evaluating the canary of tool ${release.toolId} failed: ${String(error)}`,
        );
      }
    }
    return results;
  }

  /** Judges one release and rolls its canary back when it is unhealthy. */
  async evaluateRelease(target: GuardTarget): Promise<CanaryGuardEvaluation> {
    const health = await this.assess(target.release.toolId, target.release);
    const action: CanaryGuardAction =
      health.verdict === 'unhealthy' ? await this.rollBack(target, health) : 'none';
    return { ...health, action };
  }

  /** The release's figures and verdict, without acting on them. */
  async assess(toolId: string, release: ReleaseRow | null): Promise<ReleaseHealth> {
    const to = new Date();
    // Calls from before the release's last change are left out: a canary restarted after a
    // rollback must not be judged again on the very calls that got it rolled back.
    const windowStart = to.getTime() - this.options.windowMs;
    const from = new Date(Math.max(windowStart, release?.updatedAt.getTime() ?? windowStart));
    const versions = [release?.stableVersion, release?.canaryVersion].filter(
      (version): version is string => typeof version === 'string',
    );
    const counts =
      versions.length === 0
        ? new Map<string, VersionCounts>()
        : await this.guard.versionCounts(toolId, versions, from);
    const statsFor = (version: string | null | undefined): VersionStats | null =>
      version == null ? null : statsOf(version, counts.get(version) ?? NO_CALLS);
    const stable = statsFor(release?.stableVersion);
    const canary = statsFor(release?.canaryVersion);
    const judgement: Judgement =
      stable === null || canary === null
        ? { verdict: 'no_canary', crossed: [] }
        : judgeCanary(stable, canary, this.options);
    return {
      tool_id: toolId,
      stable_version: release?.stableVersion ?? null,
      canary_version: release?.canaryVersion ?? null,
      canary_percent: release?.canaryPercent ?? 0,
      window: { from: from.toISOString(), to: to.toISOString() },
      stable: stable && statsToDto(stable),
      canary: canary && statsToDto(canary),
      verdict: judgement.verdict,
      crossed: judgement.crossed,
      thresholds: {
        window_ms: this.options.windowMs,
        min_calls: this.options.minCalls,
        max_success_rate_drop: this.options.maxSuccessRateDrop,
        max_p95_ratio: this.options.maxP95Ratio,
        p95_floor_ms: this.options.p95FloorMs,
        max_validation_failure_increase: this.options.maxValidationFailureIncrease,
      },
    };
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.evaluate()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error(`canary evaluation failed: ${String(error)}`);
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Clears the judged canary; the audit event carries both versions' figures and the limits. */
  private async rollBack(target: GuardTarget, health: ReleaseHealth): Promise<CanaryGuardAction> {
    const saved = await this.guard.clearCanary(target.release, {
      updatedBy: CANARY_GUARD_ACTOR,
      audit: (before, after) => ({
        actor: CANARY_GUARD_ACTOR,
        teamId: target.teamId,
        action: CANARY_AUTO_ROLLBACK_ACTION,
        entityType: 'tool',
        entityId: target.release.toolId,
        data: {
          before,
          after,
          reason: health.crossed.map((threshold) => threshold.detail).join('; '),
          requested_by: target.requestedBy,
          window: health.window,
          stable: health.stable,
          canary: health.canary,
          crossed: health.crossed,
          thresholds: health.thresholds,
        },
      }),
    });
    if (!saved) return 'release_changed';
    this.cache.invalidate();
    this.logger.warn(
      `rolled back canary ${String(target.release.canaryVersion)} of tool ${target.release.toolId}: ${health.crossed
        .map((threshold) => threshold.rule)
        .join(', ')}`,
    );
    return 'rolled_back';
  }
}
