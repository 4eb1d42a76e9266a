import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { BudgetParams, BudgetPeriod, BudgetScope } from '@toolgate/contract';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { Budget } from '../generated/prisma/client';

/** A stored budget, its scope and period typed as the table's CHECK constraints hold them. */
export interface BudgetRow extends Omit<Budget, 'scope' | 'period'> {
  scope: BudgetScope;
  period: BudgetPeriod;
}

function rowOf(budget: Budget): BudgetRow {
  return {
    ...budget,
    scope: budget.scope === 'key' ? 'key' : 'team',
    period: budget.period === 'month' ? 'month' : 'day',
  };
}

function uniqueOf(target: BudgetParams) {
  return {
    scope_subjectId_period: {
      scope: target.scope,
      subjectId: target.subjectId,
      period: target.period,
    },
  };
}

/** The `budgets` table for the routes: every change in one transaction with its audit event. */
@Injectable()
export class BudgetsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async find(target: BudgetParams): Promise<BudgetRow | null> {
    const found = await this.database.prisma.budget.findUnique({ where: uniqueOf(target) });
    return found === null ? null : rowOf(found);
  }

  /** Every budget of a team (its own and its keys'), or of every team with null. */
  async list(teamId: string | null): Promise<BudgetRow[]> {
    const rows = await this.database.prisma.budget.findMany({
      where: teamId === null ? {} : { teamId },
      orderBy: [{ teamId: 'asc' }, { scope: 'desc' }, { subjectId: 'asc' }, { period: 'asc' }],
      take: 1000,
    });
    return rows.map(rowOf);
  }

  /** Creates or replaces a budget's limits; the audit entry gets the limits it replaced. */
  set(
    input: {
      target: BudgetParams;
      teamId: string;
      softUsd: number | null;
      hardUsd: number | null;
      actor: string;
    },
    audit: (previous: BudgetRow | null) => AuditEntry,
  ): Promise<BudgetRow> {
    const { target } = input;
    return inTransaction(this.database.prisma, async (tx) => {
      const found = await tx.budget.findUnique({ where: uniqueOf(target) });
      const limits = { softUsd: input.softUsd, hardUsd: input.hardUsd };
      const saved =
        found === null
          ? await tx.budget.create({
              data: {
                id: randomUUID(),
                teamId: input.teamId,
                ...target,
                ...limits,
                createdBy: input.actor,
              },
            })
          : await tx.budget.update({
              where: { id: found.id },
              data: { ...limits, updatedAt: new Date() },
            });
      await appendAuditEvent(tx, audit(found === null ? null : rowOf(found)));
      return rowOf(saved);
    });
  }

  /** Deletes a budget; false when there was none. */
  delete(target: BudgetParams, audit: (previous: BudgetRow) => AuditEntry): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const found = await tx.budget.findUnique({ where: uniqueOf(target) });
      if (found === null) return false;
      await tx.budget.delete({ where: { id: found.id } });
      await appendAuditEvent(tx, audit(rowOf(found)));
      return true;
    });
  }
}
