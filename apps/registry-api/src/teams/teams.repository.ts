import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type Team } from '../generated/prisma/client';
import { ToolException } from '../problem/tool.exception';

export type TeamRow = Team;

@Injectable()
export class TeamsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async create(
    row: { id: string; slug: string; name: string },
    audit: AuditEntry,
  ): Promise<TeamRow> {
    try {
      return await inTransaction(this.database.prisma, async (tx) => {
        const team = await tx.team.create({ data: row });
        await appendAuditEvent(tx, audit);
        return team;
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new ToolException('conflict', `A team with slug "${row.slug}" already exists.`, {
          issues: [{ path: '/body/slug', message: 'is already taken' }],
        });
      }
      throw error;
    }
  }

  findById(id: string): Promise<TeamRow | null> {
    return this.database.prisma.team.findUnique({ where: { id } });
  }

  /**
   * Changes a team's settings with its audit event, in one transaction; the event is built from
   * the row as it was, so it records before and after. Null when the team does not exist.
   */
  async updateSettings(
    id: string,
    settings: { allowSelfApproval?: boolean | undefined },
    audit: (before: TeamRow) => AuditEntry,
  ): Promise<TeamRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const before = await tx.team.findUnique({ where: { id } });
      if (before === null) return null;
      const team = await tx.team.update({
        where: { id },
        data: {
          ...(settings.allowSelfApproval === undefined
            ? {}
            : { allowSelfApproval: settings.allowSelfApproval }),
        },
      });
      await appendAuditEvent(tx, audit(before));
      return team;
    });
  }

  list(teamId: string | null): Promise<TeamRow[]> {
    return this.database.prisma.team.findMany({
      where: teamId === null ? {} : { id: teamId },
      orderBy: { slug: 'asc' },
      take: 1000,
    });
  }
}
