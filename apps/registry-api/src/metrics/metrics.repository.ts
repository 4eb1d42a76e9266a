import { toArrayLiteral } from '@toolgate/persistence';
import { Inject, Injectable } from '@nestjs/common';
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
}

export interface LatencyFigures {
  calls: number;
  succeeded: number;
  /** Calls the result cache answered: counted apart, never in `calls`. */
  cached: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface BucketFigures extends LatencyFigures {
  /** Bucket start in ms since the epoch. */
  start: number;
}

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

/** Aggregates over recorded calls for the SLO dashboard; one SQL aggregate per figure set. */
@Injectable()
export class MetricsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async buckets(scope: CallScope, bucketMs: number): Promise<BucketFigures[]> {
    const rows = await this.database.prisma.$queryRaw<Array<LatencyRow & { bucket: bigint }>>`
      SELECT floor(extract(epoch FROM c.created_at) * 1000 / ${bucketMs})::bigint AS bucket,
             ${LATENCY}
        FROM calls c
       WHERE ${this.where(scope)}
       GROUP BY 1`;
    return rows.map((row) => ({ start: Number(row.bucket) * bucketMs, ...latencyOf(row) }));
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

  private where(scope: CallScope): Prisma.Sql {
    const conditions = [
      Prisma.sql`c.created_at >= ${scope.from}`,
      Prisma.sql`c.created_at <= ${scope.to}`,
    ];
    if (scope.teamId !== null) conditions.push(Prisma.sql`c.team_id = ${scope.teamId}::uuid`);
    if (scope.toolName !== undefined) conditions.push(Prisma.sql`c.tool_name = ${scope.toolName}`);
    return Prisma.join(conditions, ' AND ');
  }
}
