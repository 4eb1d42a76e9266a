import { Inject, Injectable } from '@nestjs/common';
import { ExecutorConfigSchema, secretReferencesOf } from '@toolgate/engine';
import type { SealedValue } from '@toolgate/persistence';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import { Prisma, type Secret } from '../generated/prisma/client';

/** A stored secret without its sealed value: what the routes may show. */
export type SecretRow = Omit<Secret, 'keyId' | 'nonce' | 'ciphertext' | 'authTag'>;

const SHOWN = {
  id: true,
  teamId: true,
  name: true,
  createdBy: true,
  createdAt: true,
  updatedAt: true,
  lastUsedAt: true,
} as const;

/** Where a tool version references a secret. */
export interface SecretUse {
  teamId: string;
  secret: string;
  toolId: string;
  toolName: string;
  version: string;
  status: 'draft' | 'published';
  release: 'stable' | 'canary' | null;
  /** JSON Pointer into the version's executor config. */
  pointer: string;
}

interface VersionExecutorRow {
  team_id: string;
  tool_id: string;
  tool_name: string;
  version: string;
  status: 'draft' | 'published';
  executor: unknown;
  stable_version: string | null;
  canary_version: string | null;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/**
 * The `secrets` table for the routes: every change in one transaction with its audit event, which
 * records the name and never the value. Call-time reads go through SecretStore (libs/persistence),
 * which the worker shares.
 */
@Injectable()
export class SecretsRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  find(teamId: string, name: string): Promise<SecretRow | null> {
    return this.database.prisma.secret.findUnique({
      where: { teamId_name: { teamId, name } },
      select: SHOWN,
    });
  }

  /** Every secret of a team, or of every team with null, by name. */
  list(teamId: string | null): Promise<SecretRow[]> {
    return this.database.prisma.secret.findMany({
      where: teamId === null ? {} : { teamId },
      select: SHOWN,
      orderBy: [{ teamId: 'asc' }, { name: 'asc' }],
      take: 1000,
    });
  }

  /** The names of every secret the team has. */
  async namesOf(teamId: string): Promise<Set<string>> {
    const rows = await this.database.prisma.secret.findMany({
      where: { teamId },
      select: { name: true },
    });
    return new Set(rows.map((row) => row.name));
  }

  /** Which of `names` the team has. */
  async existingNames(teamId: string, names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await this.database.prisma.secret.findMany({
      where: { teamId, name: { in: [...names] } },
      select: { name: true },
    });
    return new Set(rows.map((row) => row.name));
  }

  /** Creates a secret; null when the team already has one of that name. */
  async create(
    row: { id: string; teamId: string; name: string; createdBy: string; sealed: SealedValue },
    audit: AuditEntry,
  ): Promise<SecretRow | null> {
    try {
      return await inTransaction(this.database.prisma, async (tx) => {
        const created = await tx.secret.create({
          data: {
            id: row.id,
            teamId: row.teamId,
            name: row.name,
            createdBy: row.createdBy,
            ...row.sealed,
          },
          select: SHOWN,
        });
        await appendAuditEvent(tx, audit);
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Replaces a secret's value; null when it does not exist. */
  async rotate(
    key: { teamId: string; name: string },
    sealed: SealedValue,
    audit: AuditEntry,
  ): Promise<SecretRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.secret.updateMany({
        where: key,
        data: { ...sealed, updatedAt: new Date() },
      });
      if (count === 0) return null;
      await appendAuditEvent(tx, audit);
      return tx.secret.findUnique({ where: { teamId_name: key }, select: SHOWN });
    });
  }

  /** Deletes a secret; false when it does not exist. */
  async delete(key: { teamId: string; name: string }, audit: AuditEntry): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.secret.deleteMany({ where: key });
      if (count === 0) return false;
      await appendAuditEvent(tx, audit);
      return true;
    });
  }

  /**
   * Every reference to a secret from a team's tool versions (every team's with null). SQL narrows
   * to versions whose executor has headers; secretReferencesOf, the engine's own reading, decides.
   */
  async uses(teamId: string | null): Promise<SecretUse[]> {
    const rows = await this.database.prisma.$queryRaw<VersionExecutorRow[]>`
      SELECT t.team_id::text AS team_id, t.id::text AS tool_id, t.name AS tool_name, v.version,
             v.status::text AS status, v.ir #> '{protocol_meta,toolgate,executor}' AS executor,
             r.stable_version, r.canary_version
        FROM tools t
        JOIN tool_versions v ON v.tool_id = t.id
        LEFT JOIN releases r ON r.tool_id = t.id
       WHERE (${teamId}::uuid IS NULL OR t.team_id = ${teamId}::uuid)
         AND jsonb_typeof(v.ir #> '{protocol_meta,toolgate,executor,headers}') = 'object'
       ORDER BY t.name, v.created_at`;
    return rows.flatMap((row) => {
      const parsed = ExecutorConfigSchema.safeParse(row.executor);
      if (!parsed.success) return [];
      const release =
        row.stable_version === row.version
          ? 'stable'
          : row.canary_version === row.version
            ? 'canary'
            : null;
      return secretReferencesOf(parsed.data).map((reference) => ({
        teamId: row.team_id,
        secret: reference.name,
        toolId: row.tool_id,
        toolName: row.tool_name,
        version: row.version,
        status: row.status,
        release,
        pointer: reference.pointer,
      }));
    });
  }
}
