import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type Team } from '../generated/prisma/client';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';

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
        throw new ToolException(
          ToolExceptionCode.Conflict,
          `A team with slug "${row.slug}" already exists.`,
          {
            issues: [{ path: '/body/slug', message: 'is already taken' }],
          },
        );
      }
      throw error;
    }
  }

  findById(id: string): Promise<TeamRow | null> {
    return this.database.prisma.team.findUnique({ where: { id } });
  }

  list(teamId: string | null): Promise<TeamRow[]> {
    return this.database.prisma.team.findMany({
      where: teamId === null ? {} : { id: teamId },
      orderBy: { slug: 'asc' },
      take: 1000,
    });
  }
}
