import { toArrayLiteral } from '@toolgate/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { CostGroupBy } from '@toolgate/contract';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { Prisma } from '../generated/prisma/client';
import { ANSWERED_STATUSES, REFUSED_BEFORE_RUN_CODES } from './answerable-calls';

/** Which calls an aggregate reads: a time range, optionally one team and one tool name. */
export interface CallScope {
  from: Date;
  to: Date;
  teamId: string | null;
  toolName?: string | undefined;
  toolVersion?: string | undefined;
}

/** Calls received in one bucket, by status, with the latency of those that recorded one. */
export interface CallBucketFigures {
  /** Bucket start in ms since the epoch. */
  start: number;
  byStatus: Partial<Record<string, number>>;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** One tool's calls and failures in one bucket. */
export interface ToolBucketCounts {
  start: number;
  toolId: string;
  tool: string;
  calls: number;
  failed: number;
}

export interface LatencyFigures {
  calls: number;
  succeeded: number;
  /** Calls the result cache answered: counted apart, never in `calls`. */
  cached: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface ApprovalFigures {
  destructiveRuns: number;
  destructiveApproved: number;
  approvalWaitP50Ms: number | null;
  approvalWaitP95Ms: number | null;
}

export interface BucketFigures extends LatencyFigures, ApprovalFigures {
  /** Bucket start in ms since the epoch. */
  start: number;
  /** Set when the figures are grouped by tool (and version). */
  toolId: string | null;
  tool: string | null;
  version: string | null;
}

/** How bucket figures are split: one series overall, one per tool, or one per tool version. */
export type SeriesGrouping = 'all' | 'tool' | 'version';

export interface ToolFigures extends LatencyFigures {
  toolId: string;
  tool: string;
  destructive: boolean;
  destructiveRuns: number;
  destructiveApproved: number;
  approvals: { required: number; approved: number; denied: number; expired: number };
  errorCodes: Record<string, number>;
}

export interface TotalFigures extends LatencyFigures {
  destructiveRuns: number;
  destructiveApproved: number;
}

// Calls the tool answers for: finished, executed (a cache answer says nothing of the tool's
// health or speed, so it would flatter both) and not refused before it ran (policy, approval,
// rate limit, cancellation) — the same rule the canary guard judges versions by.
// Arrays go as array literals: PGlite's Prisma adapter sends a JS array as `a,b`, which Postgres refuses.
const ANSWERABLE = Prisma.sql`(c.status = ANY(${toArrayLiteral([...ANSWERED_STATUSES])}::call_status[])
  AND (c.error_code IS NULL OR c.error_code <> ALL(${toArrayLiteral([...REFUSED_BEFORE_RUN_CODES])}::text[]))
  AND c.cache_age_ms IS NULL)`;

// A call counts as destructive when the version it ran declares `behavior.destructive`.
const DESTRUCTIVE = Prisma.sql`COALESCE((v.ir -> 'behavior' ->> 'destructive')::boolean, false)`;

const LATENCY = Prisma.sql`
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY c.latency_ms)
     FILTER (WHERE ${ANSWERABLE} AND c.latency_ms IS NOT NULL))::float8 AS p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY c.latency_ms)
     FILTER (WHERE ${ANSWERABLE} AND c.latency_ms IS NOT NULL))::float8 AS p95_ms,
  (count(*) FILTER (WHERE ${ANSWERABLE}))::int AS calls,
  (count(*) FILTER (WHERE ${ANSWERABLE} AND c.status = 'succeeded'))::int AS succeeded,
  (count(*) FILTER (WHERE c.cache_age_ms IS NOT NULL))::int AS cached`;

const DESTRUCTIVE_RUNS = Prisma.sql`
  (count(*) FILTER (WHERE ${ANSWERABLE} AND ${DESTRUCTIVE}))::int AS destructive_runs,
  (count(*) FILTER (WHERE ${ANSWERABLE} AND ${DESTRUCTIVE} AND a.status = 'approved'))::int
    AS destructive_approved`;

// How long an approval waited for its decision; only decided approvals (approved or denied) count.
const APPROVAL_WAIT_MS = Prisma.sql`(extract(epoch FROM (a.decided_at - a.created_at)) * 1000)`;
const APPROVAL_WAIT = Prisma.sql`
  (percentile_cont(0.5) WITHIN GROUP (ORDER BY ${APPROVAL_WAIT_MS})
     FILTER (WHERE a.decided_at IS NOT NULL))::float8 AS approval_wait_p50_ms,
  (percentile_cont(0.95) WITHIN GROUP (ORDER BY ${APPROVAL_WAIT_MS})
     FILTER (WHERE a.decided_at IS NOT NULL))::float8 AS approval_wait_p95_ms`;

const GROUP_COLUMNS: Record<SeriesGrouping, { select: Prisma.Sql; groupBy: Prisma.Sql }> = {
  all: {
    select: Prisma.sql`NULL::text AS tool_id, NULL::text AS tool_name, NULL::text AS tool_version`,
    groupBy: Prisma.sql`1`,
  },
  tool: {
    select: Prisma.sql`c.tool_id::text AS tool_id, c.tool_name, NULL::text AS tool_version`,
    groupBy: Prisma.sql`1, c.tool_id, c.tool_name`,
  },
  version: {
    select: Prisma.sql`c.tool_id::text AS tool_id, c.tool_name, c.tool_version`,
    groupBy: Prisma.sql`1, c.tool_id, c.tool_name, c.tool_version`,
  },
};

interface LatencyRow {
  calls: number;
  succeeded: number;
  cached: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

function latencyOf(row: LatencyRow): LatencyFigures {
  return {
    calls: Number(row.calls),
    succeeded: Number(row.succeeded),
    cached: Number(row.cached),
    p50Ms: row.p50_ms === null ? null : Number(row.p50_ms),
    p95Ms: row.p95_ms === null ? null : Number(row.p95_ms),
  };
}

/** Spend of one group in one bucket. */
export interface CostFigures {
  key: string;
  label: string;
  /** Bucket start in ms since the epoch. */
  start: number;
  toolUsd: number;
  tokensUsd: number;
  calls: number;
  cachedCalls: number;
}

/** What a cost report groups by, as SQL: the group's key and the name people read. */
const COST_GROUPS: Record<CostGroupBy, { key: Prisma.Sql; label: Prisma.Sql }> = {
  team: { key: Prisma.sql`c.team_id::text`, label: Prisma.sql`coalesce(t.name, c.team_id::text)` },
  key: {
    key: Prisma.sql`coalesce(c.key_id::text, c.actor)`,
    label: Prisma.sql`coalesce(k.name, c.actor)`,
  },
  tool: { key: Prisma.sql`c.tool_name`, label: Prisma.sql`c.tool_name` },
  version: {
    key: Prisma.sql`c.tool_name || '@' || c.tool_version`,
    label: Prisma.sql`c.tool_name || '@' || c.tool_version`,
  },
};

/** Aggregates over recorded calls for the SLO dashboard; one SQL aggregate per figure set. */
@Injectable()
export class MetricsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** Figures per time bucket, overall or split by tool or tool version (only non-empty buckets). */
  async buckets(
    scope: CallScope,
    bucketMs: number,
    grouping: SeriesGrouping = 'all',
  ): Promise<BucketFigures[]> {
    const group = GROUP_COLUMNS[grouping];
    const rows = await this.database.prisma.$queryRaw<
      Array<
        LatencyRow & {
          bucket: bigint;
          tool_id: string | null;
          tool_name: string | null;
          tool_version: string | null;
          destructive_runs: number;
          destructive_approved: number;
          approval_wait_p50_ms: number | null;
          approval_wait_p95_ms: number | null;
        }
      >
    >`
      SELECT floor(extract(epoch FROM c.created_at) * 1000 / ${bucketMs})::bigint AS bucket,
             ${group.select},
             ${LATENCY}, ${DESTRUCTIVE_RUNS}, ${APPROVAL_WAIT}
        FROM calls c
        LEFT JOIN tool_versions v ON v.tool_id = c.tool_id AND v.version = c.tool_version
        LEFT JOIN approvals a ON a.call_id = c.id
       WHERE ${this.where(scope)}
       GROUP BY ${group.groupBy}`;
    return rows.map((row) => ({
      start: Number(row.bucket) * bucketMs,
      toolId: row.tool_id,
      tool: row.tool_name,
      version: row.tool_version,
      ...latencyOf(row),
      destructiveRuns: Number(row.destructive_runs),
      destructiveApproved: Number(row.destructive_approved),
      approvalWaitP50Ms:
        row.approval_wait_p50_ms === null ? null : Number(row.approval_wait_p50_ms),
      approvalWaitP95Ms:
        row.approval_wait_p95_ms === null ? null : Number(row.approval_wait_p95_ms),
    }));
  }

  async totals(scope: CallScope): Promise<TotalFigures> {
    const [row] = await this.database.prisma.$queryRaw<
      Array<LatencyRow & { destructive_runs: number; destructive_approved: number }>
    >`
      SELECT ${LATENCY}, ${DESTRUCTIVE_RUNS}
        FROM calls c
        LEFT JOIN tool_versions v ON v.tool_id = c.tool_id AND v.version = c.tool_version
        LEFT JOIN approvals a ON a.call_id = c.id
       WHERE ${this.where(scope)}`;
    return {
      ...latencyOf(row ?? { calls: 0, succeeded: 0, cached: 0, p50_ms: null, p95_ms: null }),
      destructiveRuns: Number(row?.destructive_runs ?? 0),
      destructiveApproved: Number(row?.destructive_approved ?? 0),
    };
  }

  async tools(scope: CallScope, now: Date): Promise<ToolFigures[]> {
    const [rows, codes] = await Promise.all([
      this.database.prisma.$queryRaw<
        Array<
          LatencyRow & {
            tool_id: string;
            tool_name: string;
            destructive: boolean;
            destructive_runs: number;
            destructive_approved: number;
            required: number;
            approved: number;
            denied: number;
            expired: number;
          }
        >
      >`
        SELECT c.tool_id::text AS tool_id, c.tool_name,
               ${LATENCY}, ${DESTRUCTIVE_RUNS},
               bool_or(${DESTRUCTIVE}) AS destructive,
               count(a.id)::int AS required,
               (count(*) FILTER (WHERE a.status = 'approved'))::int AS approved,
               (count(*) FILTER (WHERE a.status = 'denied'))::int AS denied,
               (count(*) FILTER (WHERE a.status = 'expired'
                  OR (a.status = 'pending' AND a.expires_at <= ${now})))::int AS expired
          FROM calls c
          LEFT JOIN tool_versions v ON v.tool_id = c.tool_id AND v.version = c.tool_version
          LEFT JOIN approvals a ON a.call_id = c.id
         WHERE ${this.where(scope)}
         GROUP BY c.tool_id, c.tool_name
         ORDER BY c.tool_name, c.tool_id`,
      this.database.prisma.$queryRaw<Array<{ tool_id: string; error_code: string; count: number }>>`
        SELECT c.tool_id::text AS tool_id, c.error_code, count(*)::int AS count
          FROM calls c
         WHERE ${this.where(scope)} AND c.error_code IS NOT NULL
         GROUP BY c.tool_id, c.error_code`,
    ]);
    const codesByTool = new Map<string, Record<string, number>>();
    for (const row of codes) {
      const tool = codesByTool.get(row.tool_id) ?? {};
      tool[row.error_code] = Number(row.count);
      codesByTool.set(row.tool_id, tool);
    }
    return rows.map((row) => ({
      toolId: row.tool_id,
      tool: row.tool_name,
      ...latencyOf(row),
      destructive: row.destructive,
      destructiveRuns: Number(row.destructive_runs),
      destructiveApproved: Number(row.destructive_approved),
      approvals: {
        required: Number(row.required),
        approved: Number(row.approved),
        denied: Number(row.denied),
        expired: Number(row.expired),
      },
      errorCodes: codesByTool.get(row.tool_id) ?? {},
    }));
  }

  /**
   * Tool and token spend per group and bucket, from the cost columns each call carries (an
   * unknown part counts as nothing); cache hits are the calls the result cache answered.
   */
  async costs(
    scope: CallScope,
    input: { bucketMs: number; groupBy: CostGroupBy },
  ): Promise<CostFigures[]> {
    const group = COST_GROUPS[input.groupBy];
    const rows = await this.database.prisma.$queryRaw<
      Array<{
        key: string;
        label: string;
        bucket: bigint;
        tool_usd: number;
        tokens_usd: number;
        calls: number;
        cached_calls: number;
      }>
    >`
      SELECT ${group.key} AS key, ${group.label} AS label,
             floor(extract(epoch FROM c.created_at) * 1000 / ${input.bucketMs})::bigint AS bucket,
             coalesce(sum(c.tool_cost_usd), 0)::float8 AS tool_usd,
             coalesce(sum(c.tokens_usd), 0)::float8 AS tokens_usd,
             count(*)::int AS calls,
             (count(*) FILTER (WHERE c.cache_age_ms IS NOT NULL))::int AS cached_calls
        FROM calls c
        LEFT JOIN teams t ON t.id = c.team_id
        LEFT JOIN api_keys k ON k.id = c.key_id
       WHERE ${this.where(scope)}
       GROUP BY 1, 2, 3`;
    return rows.map((row) => ({
      key: row.key,
      label: row.label,
      start: Number(row.bucket) * input.bucketMs,
      toolUsd: Number(row.tool_usd),
      tokensUsd: Number(row.tokens_usd),
      calls: Number(row.calls),
      cachedCalls: Number(row.cached_calls),
    }));
  }

  /** Every call received in the scope, by bucket and status (only non-empty buckets). */
  async callBuckets(scope: CallScope, bucketMs: number): Promise<CallBucketFigures[]> {
    const [statuses, latencies] = await Promise.all([
      this.database.prisma.$queryRaw<Array<{ bucket: bigint; status: string; count: number }>>`
        SELECT floor(extract(epoch FROM c.created_at) * 1000 / ${bucketMs})::bigint AS bucket,
               c.status::text AS status, count(*)::int AS count
          FROM calls c
         WHERE ${this.where(scope)}
         GROUP BY 1, 2`,
      this.database.prisma.$queryRaw<
        Array<{ bucket: bigint; p50_ms: number | null; p95_ms: number | null }>
      >`
        SELECT floor(extract(epoch FROM c.created_at) * 1000 / ${bucketMs})::bigint AS bucket,
               (percentile_cont(0.5) WITHIN GROUP (ORDER BY c.latency_ms))::float8 AS p50_ms,
               (percentile_cont(0.95) WITHIN GROUP (ORDER BY c.latency_ms))::float8 AS p95_ms
          FROM calls c
         WHERE ${this.where(scope)} AND c.latency_ms IS NOT NULL
         GROUP BY 1`,
    ]);
    const buckets = new Map<number, CallBucketFigures>();
    const bucketAt = (bucket: bigint) => {
      const start = Number(bucket) * bucketMs;
      const figures = buckets.get(start) ?? { start, byStatus: {}, p50Ms: null, p95Ms: null };
      buckets.set(start, figures);
      return figures;
    };
    for (const row of statuses) bucketAt(row.bucket).byStatus[row.status] = Number(row.count);
    for (const row of latencies) {
      const figures = bucketAt(row.bucket);
      figures.p50Ms = row.p50_ms === null ? null : Number(row.p50_ms);
      figures.p95Ms = row.p95_ms === null ? null : Number(row.p95_ms);
    }
    return [...buckets.values()];
  }

  /** Calls and failures per tool and bucket (only non-empty ones), for per-tool sparklines. */
  async toolBuckets(scope: CallScope, bucketMs: number): Promise<ToolBucketCounts[]> {
    const rows = await this.database.prisma.$queryRaw<
      Array<{ bucket: bigint; tool_id: string; tool_name: string; calls: number; failed: number }>
    >`
      SELECT floor(extract(epoch FROM c.created_at) * 1000 / ${bucketMs})::bigint AS bucket,
             c.tool_id::text AS tool_id, c.tool_name, count(*)::int AS calls,
             (count(*) FILTER (WHERE c.status = 'failed'))::int AS failed
        FROM calls c
       WHERE ${this.where(scope)}
       GROUP BY 1, c.tool_id, c.tool_name`;
    return rows.map((row) => ({
      start: Number(row.bucket) * bucketMs,
      toolId: row.tool_id,
      tool: row.tool_name,
      calls: Number(row.calls),
      failed: Number(row.failed),
    }));
  }

  private where(scope: CallScope): Prisma.Sql {
    const conditions = [
      Prisma.sql`c.created_at >= ${scope.from}`,
      Prisma.sql`c.created_at <= ${scope.to}`,
    ];
    if (scope.teamId !== null) conditions.push(Prisma.sql`c.team_id = ${scope.teamId}::uuid`);
    if (scope.toolName !== undefined) conditions.push(Prisma.sql`c.tool_name = ${scope.toolName}`);
    if (scope.toolVersion !== undefined)
      conditions.push(Prisma.sql`c.tool_version = ${scope.toolVersion}`);
    return Prisma.join(conditions, ' AND ');
  }
}
