import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { Policy } from '../generated/prisma/client';

export type PolicyRow = Policy;

/** The scope key of a team's policies, or of the installation-wide ones. */
export function policyScope(teamId: string | null): string {
  return teamId ?? 'global';
}

@Injectable()
export class PoliciesRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  /** The policy that decides a team's calls: the team's active revision, else the global one. */
  async findEffective(teamId: string): Promise<PolicyRow | null> {
    const rows = await this.database.prisma.policy.findMany({
      where: { active: true, scope: { in: [policyScope(teamId), policyScope(null)] } },
    });
    return rows.find((row) => row.scope === teamId) ?? rows[0] ?? null;
  }

  list(scope: string): Promise<PolicyRow[]> {
    return this.database.prisma.policy.findMany({
      where: { scope },
      orderBy: { revision: 'desc' },
    });
  }

  /** Appends the next revision of a scope; revisions are numbered under the scope's row lock. */
  create(
    row: { id: string; scope: string; teamId: string | null; text: string; createdBy: string },
    audit: (revision: number) => AuditEntry,
  ): Promise<PolicyRow> {
    return inTransaction(this.database.prisma, async (tx) => {
      // Serializes concurrent revisions of one scope without a counter table.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`policies:${row.scope}`}))`;
      const last = await tx.policy.findFirst({
        where: { scope: row.scope },
        orderBy: { revision: 'desc' },
      });
      const revision = (last?.revision ?? 0) + 1;
      const created = await tx.policy.create({ data: { ...row, revision, active: false } });
      await appendAuditEvent(tx, audit(revision));
      return created;
    });
  }

  /** Makes one revision the scope's active one (the previous one is deactivated in the same transaction). */
  activate(scope: string, revision: number, audit: AuditEntry): Promise<PolicyRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const target = await tx.policy.findUnique({ where: { scope_revision: { scope, revision } } });
      if (target === null) return null;
      await tx.policy.updateMany({ where: { scope, active: true }, data: { active: false } });
      const activated = await tx.policy.update({
        where: { id: target.id },
        data: { active: true },
      });
      await appendAuditEvent(tx, audit);
      return activated;
    });
  }
}
