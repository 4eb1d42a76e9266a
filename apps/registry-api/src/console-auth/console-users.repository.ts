import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type ConsoleSession, type ConsoleUser } from '../generated/prisma/client';
import type { ConsoleRole } from './console-roles';

export type ConsoleUserRow = ConsoleUser;
export type ConsoleSessionWithUser = ConsoleSession & { user: ConsoleUser };

export interface NewConsoleUserRow {
  id: string;
  email: string;
  name: string;
  role: ConsoleRole;
  passwordHash: string;
  createdBy: string;
}

/** Thrown by `update` when the change would leave no admin who can sign in. */
export class LastAdminError extends Error {
  override readonly name = 'LastAdminError';
}

/** Thrown by `create` when the email is taken (by an earlier or a concurrent insert). */
export class ConsoleEmailTakenError extends Error {
  override readonly name = 'ConsoleEmailTakenError';
}

@Injectable()
export class ConsoleUsersRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  findByEmail(email: string): Promise<ConsoleUserRow | null> {
    return this.database.prisma.consoleUser.findUnique({ where: { email } });
  }

  findById(id: string): Promise<ConsoleUserRow | null> {
    return this.database.prisma.consoleUser.findUnique({ where: { id } });
  }

  /** Console users by email, for answers that name their actors; disabled users too. */
  findNames(emails: readonly string[]): Promise<Array<{ email: string; name: string }>> {
    if (emails.length === 0) return Promise.resolve([]);
    return this.database.prisma.consoleUser.findMany({
      where: { email: { in: [...emails] } },
      select: { email: true, name: true },
    });
  }

  list(): Promise<ConsoleUserRow[]> {
    return this.database.prisma.consoleUser.findMany({ orderBy: { email: 'asc' }, take: 1000 });
  }

  async create(row: NewConsoleUserRow, audit: AuditEntry): Promise<ConsoleUserRow> {
    try {
      return await inTransaction(this.database.prisma, async (tx) => {
        const created = await tx.consoleUser.create({ data: row });
        await appendAuditEvent(tx, audit);
        return created;
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new ConsoleEmailTakenError(`A console user with email ${row.email} exists.`);
      }
      throw error;
    }
  }

  /**
   * Changes role and/or disabled state; disabling also ends every session of the user. Refuses
   * (rolls back, LastAdminError) a change that leaves no admin able to sign in. The audit append
   * comes first: it locks the chain head, which serializes concurrent changes, so two admins
   * demoting each other cannot both succeed.
   */
  async update(
    id: string,
    change: { role?: ConsoleRole | undefined; disabledAt?: Date | null | undefined },
    audit: AuditEntry,
  ): Promise<ConsoleUserRow> {
    return inTransaction(this.database.prisma, async (tx) => {
      await appendAuditEvent(tx, audit);
      const updated = await tx.consoleUser.update({
        where: { id },
        data: {
          ...(change.role === undefined ? {} : { role: change.role }),
          ...(change.disabledAt === undefined ? {} : { disabledAt: change.disabledAt }),
        },
      });
      if (updated.disabledAt !== null)
        await tx.consoleSession.deleteMany({ where: { userId: id } });
      const admins = await tx.consoleUser.count({ where: { role: 'admin', disabledAt: null } });
      if (admins === 0) throw new LastAdminError('The change would leave no active admin.');
      return updated;
    });
  }

  async createSession(row: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.database.prisma.$transaction([
      // Sign-in is the natural moment to forget expired sessions (an index on expires_at keeps it cheap).
      this.database.prisma.consoleSession.deleteMany({ where: { expiresAt: { lte: new Date() } } }),
      this.database.prisma.consoleSession.create({ data: row }),
    ]);
  }

  findSession(tokenHash: string): Promise<ConsoleSessionWithUser | null> {
    return this.database.prisma.consoleSession.findUnique({
      where: { tokenHash },
      include: { user: true },
    });
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.database.prisma.consoleSession.deleteMany({ where: { tokenHash } });
  }
}
