import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { Prisma, Call, Release, Tool, ToolVersion } from '../generated/prisma/client';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';

export type CallRow = Call;
export type CallStatusValue = Call['status'];
export type ToolWithVersions = Tool & { release: Release | null; versions: ToolVersion[] };

/** Statuses after which a call never changes again. */
export const FINAL_CALL_STATUSES: readonly CallStatusValue[] = [
  'succeeded',
  'failed',
  'cancelled',
  'outcome_unknown',
];

export interface NewCallRow {
  id: string;
  teamId: string;
  keyId: string | null;
  actor: string;
  conversationId: string | null;
  provider: string;
  providerCallId: string;
  toolId: string;
  toolName: string;
  toolVersion: string;
  arguments: Record<string, unknown>;
  argumentsHash: string;
  idempotencyKey: string;
}

export interface CallOutcome {
  status: 'succeeded' | 'failed' | 'awaiting_approval';
  result: Record<string, unknown>;
  errorCode: string | null;
  attempts: number;
  answeredBy: string | null;
  latencyMs: number;
  decisionEffect: string | null;
  decisionRule: string | null;
  policyRevision: string | null;
}

export interface ListCallsFilter {
  teamId: string | null;
  status?: CallStatusValue | undefined;
  toolName?: string | undefined;
  before?: { createdAt: Date; id: string } | undefined;
  limit: number;
}

function json(value: Record<string, unknown>): Prisma.InputJsonObject {
  return value as Prisma.InputJsonObject;
}

@Injectable()
export class CallsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** Tools with these names the team may call: its own and every team's public ones. */
  findCallableTools(names: readonly string[], teamId: string): Promise<ToolWithVersions[]> {
    return this.database.prisma.tool.findMany({
      where: { name: { in: [...names] }, OR: [{ teamId }, { visibility: 'public' }] },
      include: { release: true, versions: true },
    });
  }

  findVersion(toolId: string, version: string): Promise<ToolVersion | null> {
    return this.database.prisma.toolVersion.findUnique({
      where: { toolId_version: { toolId, version } },
    });
  }

  /**
   * Records every call of one request in one transaction. A call whose idempotency key is taken
   * (by an earlier or a concurrent request) is not inserted: the existing row is returned instead,
   * so it runs once. `isSame` refuses a key reused for a different call (the whole request rolls back).
   */
  async record(
    rows: readonly NewCallRow[],
    isSame: (existing: CallRow, wanted: NewCallRow) => boolean,
  ): Promise<{ rows: CallRow[]; inserted: Set<string> }> {
    return inTransaction(this.database.prisma, async (tx) => {
      // ON CONFLICT DO NOTHING waits for a concurrent inserter of the same key to commit, then skips.
      await tx.call.createMany({
        data: rows.map((row) => ({ ...row, arguments: json(row.arguments) })),
        skipDuplicates: true,
      });
      const teamId = rows[0]?.teamId ?? '';
      const stored = await tx.call.findMany({
        where: { teamId, idempotencyKey: { in: rows.map((row) => row.idempotencyKey) } },
      });
      const byKey = new Map(stored.map((row) => [row.idempotencyKey, row]));
      const inserted = new Set<string>();
      const result = rows.map((wanted, index) => {
        const existing = byKey.get(wanted.idempotencyKey);
        if (existing === undefined)
          throw new Error(`call ${wanted.id} was neither inserted nor found`);
        if (existing.id === wanted.id) inserted.add(existing.id);
        else if (!isSame(existing, wanted)) {
          throw new ToolException(
            ToolExceptionCode.Conflict,
            'The idempotency key was already used for a different call.',
            {
              issues: [
                {
                  path: `/calls/${index}`,
                  message: `idempotency key already names call ${existing.id} (${existing.toolName}) with other arguments`,
                },
              ],
            },
          );
        }
        return existing;
      });
      return { rows: result, inserted };
    });
  }

  findById(id: string, teamId: string | null): Promise<CallRow | null> {
    return this.database.prisma.call.findFirst({
      where: { id, ...(teamId === null ? {} : { teamId }) },
    });
  }

  findMany(ids: readonly string[]): Promise<CallRow[]> {
    return this.database.prisma.call.findMany({ where: { id: { in: [...ids] } } });
  }

  list(filter: ListCallsFilter): Promise<CallRow[]> {
    const before = filter.before;
    return this.database.prisma.call.findMany({
      where: {
        ...(filter.teamId === null ? {} : { teamId: filter.teamId }),
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.toolName === undefined ? {} : { toolName: filter.toolName }),
        ...(before === undefined
          ? {}
          : {
              OR: [
                { createdAt: { lt: before.createdAt } },
                { createdAt: before.createdAt, id: { lt: before.id } },
              ],
            }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
    });
  }

  /** Moves queued calls to running; only the rows returned may be executed (a second claim gets none). */
  claim(ids: readonly string[]): Promise<CallRow[]> {
    return this.database.prisma.call.updateManyAndReturn({
      where: { id: { in: [...ids] }, status: 'queued' },
      data: { status: 'running', startedAt: new Date() },
    });
  }

  /** Stores a call's outcome unless it was cancelled meanwhile. */
  async finish(id: string, outcome: CallOutcome): Promise<boolean> {
    const updated = await this.database.prisma.call.updateMany({
      where: { id, status: 'running' },
      data: {
        status: outcome.status,
        result: json(outcome.result),
        errorCode: outcome.errorCode,
        attempts: { increment: outcome.attempts },
        answeredBy: outcome.answeredBy,
        latencyMs: outcome.latencyMs,
        decisionEffect: outcome.decisionEffect,
        decisionRule: outcome.decisionRule,
        policyRevision: outcome.policyRevision,
        finishedAt: outcome.status === 'awaiting_approval' ? null : new Date(),
      },
    });
    return updated.count === 1;
  }

  /** Cancels a call that has not finished; false when it had already finished. */
  async cancel(id: string, result: Record<string, unknown>): Promise<boolean> {
    const updated = await this.database.prisma.call.updateMany({
      where: { id, status: { in: ['queued', 'running', 'awaiting_approval'] } },
      data: {
        status: 'cancelled',
        result: json(result),
        errorCode: 'cancelled',
        finishedAt: new Date(),
      },
    });
    return updated.count === 1;
  }
}
