import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { ApiKey } from '../generated/prisma/client';

export type ApiKeyRow = ApiKey;

/** A key as authentication reads it: with its team's name, which the request's trace shows. */
export type AuthenticatingKeyRow = ApiKey & { team: { name: string } };

/** A key's name and its team's name, which people read instead of its id. */
export interface KeyNameRow {
  id: string;
  name: string;
  team: { name: string };
}

export interface CreateApiKeyRow {
  id: string;
  teamId: string;
  name: string;
  secretHash: string;
  scopes: string[];
  createdBy: string;
}

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  findById(id: string): Promise<ApiKeyRow | null> {
    return this.database.prisma.apiKey.findUnique({ where: { id } });
  }

  findForAuthentication(id: string): Promise<AuthenticatingKeyRow | null> {
    return this.database.prisma.apiKey.findUnique({
      where: { id },
      include: { team: { select: { name: true } } },
    });
  }

  /** Keys by id with their team's name, for answers that name their actors; revoked keys too. */
  findNames(ids: readonly string[]): Promise<KeyNameRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.prisma.apiKey.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, name: true, team: { select: { name: true } } },
    });
  }

  async create(row: CreateApiKeyRow, audit: AuditEntry): Promise<ApiKeyRow> {
    return inTransaction(this.database.prisma, async (tx) => {
      const created = await tx.apiKey.create({ data: row });
      await appendAuditEvent(tx, audit);
      return created;
    });
  }

  listByTeam(teamId: string | null): Promise<ApiKeyRow[]> {
    return this.database.prisma.apiKey.findMany({
      where: teamId === null ? {} : { teamId },
      orderBy: { createdAt: 'desc' },
      take: 1000,
    });
  }

  /** Revokes once; returns null when the key does not exist or is already revoked. */
  async revoke(id: string, audit: AuditEntry): Promise<ApiKeyRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.apiKey.updateMany({
        where: { id, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (count === 0) return null;
      await appendAuditEvent(tx, audit);
      return tx.apiKey.findUnique({ where: { id } });
    });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.database.prisma.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
  }
}
