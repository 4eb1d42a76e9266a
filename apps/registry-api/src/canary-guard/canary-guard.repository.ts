import { toArrayLiteral } from '@toolgate/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { Prisma } from '../generated/prisma/client';
import { ANSWERED_STATUSES, REFUSED_BEFORE_RUN_CODES } from '../metrics/answerable-calls';
import {
  ReleasesRepository,
  type ReleaseRow,
  type ReleaseState,
} from '../releases/releases.repository';
import type { VersionCounts } from './canary-guard.rules';

/** A release with a canary, and the team that owns the tool (audit events are the team's). */
export interface CanaryRelease {
  release: ReleaseRow;
  teamId: string;
}

// The calls the guard judges a version by: finished, and not refused before the tool ran.
const ANSWERABLE = Prisma.sql`(status = ANY(${toArrayLiteral([...ANSWERED_STATUSES])}::call_status[])
  AND (error_code IS NULL OR error_code <> ALL(${toArrayLiteral([...REFUSED_BEFORE_RUN_CODES])}::text[])))`;

interface VersionAggregateRow {
  tool_version: string;
  calls: number;
  succeeded: number;
  validation_failures: number;
  p95_latency_ms: number | null;
}

/** One version's figures in one time bucket, counted as `versionCounts` counts them. */
export interface VersionBucketCounts extends VersionCounts {
  version: string;
  /** Bucket start in ms since the epoch. */
  start: number;
  /** Every call that resolved to the version, whatever its outcome. */
  served: number;
}

@Injectable()
export class CanaryGuardRepository {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(ReleasesRepository) private readonly releases: ReleasesRepository,
  ) {}

  /**
   * Clears the canary of `release` with its audit event, through the releases' own locked
   * compare-and-write: null when the release changed since it was read (nothing is written).
   */
  clearCanary(
    release: ReleaseRow,
    change: { updatedBy: string; audit: (before: ReleaseState, after: ReleaseState) => AuditEntry },
  ): Promise<ReleaseRow | null> {
    const before: ReleaseState = {
      stableVersion: release.stableVersion,
      canaryVersion: release.canaryVersion,
      canaryPercent: release.canaryPercent,
      previousStableVersion: release.previousStableVersion,
    };
    const after: ReleaseState = { ...before, canaryVersion: null, canaryPercent: 0 };
    return this.releases.save(
      release.toolId,
      { expected: before, next: after, updatedBy: change.updatedBy },
      change.audit(before, after),
    );
  }

  /** Releases with a canary set, optionally of one tool. */
  async canaryReleases(toolId?: string): Promise<CanaryRelease[]> {
    const rows = await this.database.prisma.release.findMany({
      where: { canaryVersion: { not: null }, ...(toolId === undefined ? {} : { toolId }) },
      include: { tool: { select: { teamId: true } } },
      orderBy: { toolId: 'asc' },
    });
    return rows.map(({ tool, ...release }) => ({ release, teamId: tool.teamId }));
  }

  /**
   * One aggregate over the tool's calls since `since`, grouped by version. Only finished calls
   * the version is answerable for count: queued, running, waiting and cancelled calls have no
   * outcome yet or none of the version's making, and policy, approval and rate-limit refusals
   * are decided before the tool runs. Latency is taken over calls that passed validation, as a
   * refused call returns before doing any work.
   */
  async versionCounts(
    toolId: string,
    versions: readonly string[],
    since: Date,
  ): Promise<Map<string, VersionCounts>> {
    // Arrays go as array literals: PGlite's Prisma adapter sends a JS array as `a,b`, which Postgres refuses.
    const rows = await this.database.prisma.$queryRaw<VersionAggregateRow[]>`
      SELECT tool_version,
             count(*)::int AS calls,
             (count(*) FILTER (WHERE status = 'succeeded'))::int AS succeeded,
             (count(*) FILTER (WHERE error_code = 'invalid_arguments'))::int AS validation_failures,
             (percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)
                FILTER (WHERE latency_ms IS NOT NULL
                          AND error_code IS DISTINCT FROM 'invalid_arguments'))::float8 AS p95_latency_ms
        FROM calls
       WHERE tool_id = ${toolId}::uuid
         AND tool_version = ANY(${toArrayLiteral([...versions])}::text[])
         AND created_at >= ${since}
         AND status = ANY(${toArrayLiteral([...ANSWERED_STATUSES])}::call_status[])
         AND (error_code IS NULL OR error_code <> ALL(${toArrayLiteral([...REFUSED_BEFORE_RUN_CODES])}::text[]))
         AND cache_age_ms IS NULL
       GROUP BY tool_version`;
    return new Map(
      rows.map((row) => [
        row.tool_version,
        {
          calls: Number(row.calls),
          succeeded: Number(row.succeeded),
          validationFailures: Number(row.validation_failures),
          p95LatencyMs: row.p95_latency_ms === null ? null : Number(row.p95_latency_ms),
        },
      ]),
    );
  }

  /**
   * The tool's calls per version and time bucket over [from, to]: every call served, and the
   * guard's figures over the calls `versionCounts` would count (only non-empty buckets).
   */
  async versionHistory(
    toolId: string,
    range: { from: Date; to: Date; bucketMs: number },
  ): Promise<VersionBucketCounts[]> {
    const rows = await this.database.prisma.$queryRaw<
      Array<VersionAggregateRow & { bucket: bigint; served: number }>
    >`
      SELECT floor(extract(epoch FROM created_at) * 1000 / ${range.bucketMs})::bigint AS bucket,
             tool_version,
             count(*)::int AS served,
             (count(*) FILTER (WHERE ${ANSWERABLE}))::int AS calls,
             (count(*) FILTER (WHERE ${ANSWERABLE} AND status = 'succeeded'))::int AS succeeded,
             (count(*) FILTER (WHERE ${ANSWERABLE} AND error_code = 'invalid_arguments'))::int
               AS validation_failures,
             (percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms)
                FILTER (WHERE ${ANSWERABLE} AND latency_ms IS NOT NULL
                          AND error_code IS DISTINCT FROM 'invalid_arguments'))::float8 AS p95_latency_ms
        FROM calls
       WHERE tool_id = ${toolId}::uuid
         AND created_at >= ${range.from}
         AND created_at <= ${range.to}
       GROUP BY 1, 2`;
    return rows.map((row) => ({
      version: row.tool_version,
      start: Number(row.bucket) * range.bucketMs,
      served: Number(row.served),
      calls: Number(row.calls),
      succeeded: Number(row.succeeded),
      validationFailures: Number(row.validation_failures),
      p95LatencyMs: row.p95_latency_ms === null ? null : Number(row.p95_latency_ms),
    }));
  }
}
