import { Inject, Injectable } from '@nestjs/common';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';
import type { Prisma, Release } from '../generated/prisma/client';
import { withStable } from './release-state';

export type ReleaseRow = Release;

export interface ReleaseState {
  stableVersion: string | null;
  canaryVersion: string | null;
  canaryPercent: number;
  previousStableVersion: string | null;
}

/** The release's state as `withStable` and the audit trail see it. */
export function releaseStateOf(row: ReleaseRow | null): ReleaseState | null {
  return row === null
    ? null
    : {
        stableVersion: row.stableVersion,
        canaryVersion: row.canaryVersion,
        canaryPercent: row.canaryPercent,
        previousStableVersion: row.previousStableVersion,
      };
}

/**
 * Makes `version` stable inside a caller's transaction (a publish that releases what it writes);
 * the release row is locked first so a concurrent release change waits instead of being lost.
 */
export async function setStableInTransaction(
  tx: Prisma.TransactionClient,
  change: { toolId: string; version: string; updatedBy: string },
): Promise<{ before: ReleaseState | null; after: ReleaseState; row: ReleaseRow }> {
  await tx.$queryRaw`SELECT tool_id FROM releases WHERE tool_id = ${change.toolId}::uuid FOR UPDATE`;
  const before = releaseStateOf(await tx.release.findUnique({ where: { toolId: change.toolId } }));
  const after = withStable(before, change.version);
  const data = { ...after, updatedBy: change.updatedBy, updatedAt: new Date() };
  const row = await tx.release.upsert({
    where: { toolId: change.toolId },
    create: { toolId: change.toolId, ...data },
    update: data,
  });
  return { before, after, row };
}

@Injectable()
export class ReleasesRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  find(toolId: string): Promise<ReleaseRow | null> {
    return this.database.prisma.release.findUnique({ where: { toolId } });
  }

  releasesOf(toolIds: string[]): Promise<ReleaseRow[]> {
    return this.database.prisma.release.findMany({ where: { toolId: { in: toolIds } } });
  }

  /**
   * Writes the next release state computed from `expected`; the row is locked first, and a
   * state that changed since it was read is refused (null), so two operators cannot interleave.
   */
  async save(
    toolId: string,
    change: { expected: ReleaseState | null; next: ReleaseState; updatedBy: string },
    audit: AuditEntry,
  ): Promise<ReleaseRow | null> {
    return inTransaction(this.database.prisma, async (tx) => {
      const [current] = await tx.$queryRaw<
        Array<{
          stable_version: string | null;
          canary_version: string | null;
          canary_percent: number;
        }>
      >`
        SELECT stable_version, canary_version, canary_percent FROM releases WHERE tool_id = ${toolId}::uuid FOR UPDATE`;
      const expected = change.expected;
      const unchanged =
        (current === undefined && expected === null) ||
        (current !== undefined &&
          expected !== null &&
          current.stable_version === expected.stableVersion &&
          current.canary_version === expected.canaryVersion &&
          current.canary_percent === expected.canaryPercent);
      if (!unchanged) return null;
      const data = { ...change.next, updatedBy: change.updatedBy, updatedAt: new Date() };
      const saved = await tx.release.upsert({
        where: { toolId },
        create: { toolId, ...data },
        update: data,
      });
      await appendAuditEvent(tx, audit);
      return saved;
    });
  }
}
