import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Prisma } from '../generated/prisma/client';
import { hashAuditEvent, type ChainPosition, type StoredAuditEvent } from './audit-hash';

/** What a mutation records about itself; written in the mutation's own transaction. */
export interface AuditEntry {
  actor: string;
  teamId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  data: Record<string, unknown>;
}

interface ChainHeadRow {
  last_seq: bigint;
  hash: string;
}

/**
 * Appends one event to the hash chain inside `tx`. Locking the head row serializes appends
 * across connections and replicas; the lock is released when `tx` commits or rolls back, so a
 * failed mutation leaves neither its change nor its event.
 */
export async function appendAuditEvent(
  tx: Prisma.TransactionClient,
  entry: AuditEntry,
): Promise<bigint> {
  const [head] = await tx.$queryRaw<
    ChainHeadRow[]
  >`SELECT last_seq, hash FROM audit_chain_head WHERE id = 1 FOR UPDATE`;
  if (!head) throw new Error('audit_chain_head is missing: the database was not migrated');
  const seq = BigInt(head.last_seq) + 1n;
  // Millisecond precision: the column is timestamptz(3) and the hash must see what is stored.
  const occurredAt = new Date();
  const id = randomUUID();
  // JSON round trip drops undefined members, as jsonb will; the hash must see the stored data.
  const data = JSON.parse(JSON.stringify(entry.data)) as Prisma.InputJsonObject;
  const hash = hashAuditEvent(head.hash, { ...entry, data, seq, id, occurredAt });
  await tx.auditEvent.create({
    data: { ...entry, data, seq, id, occurredAt, prevHash: head.hash, hash },
  });
  await tx.auditChainHead.update({ where: { id: 1 }, data: { lastSeq: seq, hash } });
  return seq;
}

export interface AuditQuery {
  actor?: string | undefined;
  teamId?: string | undefined;
  entityType?: string | undefined;
  entityId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Return events older than this sequence number (cursor). */
  beforeSeq?: bigint | undefined;
  limit: number;
}

/** Where a verification found the chain intact, and when it started. */
export interface AuditCheckpointRow extends ChainPosition {
  verifiedAt: Date;
}

@Injectable()
export class AuditRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async list(query: AuditQuery): Promise<StoredAuditEvent[]> {
    const rows = await this.database.prisma.auditEvent.findMany({
      where: {
        ...(query.actor === undefined ? {} : { actor: query.actor }),
        ...(query.teamId === undefined ? {} : { teamId: query.teamId }),
        ...(query.entityType === undefined ? {} : { entityType: query.entityType }),
        ...(query.entityId === undefined ? {} : { entityId: query.entityId }),
        ...(query.action === undefined ? {} : { action: query.action }),
        ...(query.from === undefined && query.to === undefined
          ? {}
          : {
              occurredAt: {
                ...(query.from ? { gte: query.from } : {}),
                ...(query.to ? { lt: query.to } : {}),
              },
            }),
        ...(query.beforeSeq === undefined ? {} : { seq: { lt: query.beforeSeq } }),
      },
      orderBy: { seq: 'desc' },
      take: query.limit,
    });
    return rows;
  }

  /** Events with seq > afterSeq in chain order (up to throughSeq when given), for reading in batches. */
  async batchAfter(
    afterSeq: bigint,
    limit: number,
    throughSeq?: bigint,
  ): Promise<StoredAuditEvent[]> {
    return this.database.prisma.auditEvent.findMany({
      where: { seq: { gt: afterSeq, ...(throughSeq === undefined ? {} : { lte: throughSeq }) } },
      orderBy: { seq: 'asc' },
      take: limit,
    });
  }

  async head(): Promise<ChainPosition> {
    const head = await this.database.prisma.auditChainHead.findUniqueOrThrow({ where: { id: 1 } });
    return { seq: head.lastSeq, hash: head.hash };
  }

  async checkpoint(): Promise<AuditCheckpointRow | null> {
    const row = await this.database.prisma.auditCheckpoint.findUnique({ where: { id: 1 } });
    return row === null ? null : { seq: row.seq, hash: row.hash, verifiedAt: row.verifiedAt };
  }

  /**
   * Moves the checkpoint forward to `next`, in one statement so concurrent verifications
   * serialize on the row: nothing changes when the stored one is further along (a later
   * verification got there first), or when it was moved back below `basisSeq`, the checkpoint
   * the verification continued from (0 for a walk from the start), since a break was found at or
   * before it. Returns whether the checkpoint moved.
   */
  async advanceCheckpoint(next: AuditCheckpointRow, basisSeq: bigint): Promise<boolean> {
    const moved = await this.database.prisma.$executeRaw`
      INSERT INTO audit_checkpoint (id, seq, hash, verified_at)
      VALUES (1, ${next.seq}, ${next.hash}, ${next.verifiedAt})
      ON CONFLICT (id) DO UPDATE
        SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, verified_at = EXCLUDED.verified_at
        WHERE (audit_checkpoint.seq, audit_checkpoint.verified_at)
            <= (EXCLUDED.seq, EXCLUDED.verified_at)
          AND audit_checkpoint.seq >= ${basisSeq}`;
    return moved > 0;
  }

  /**
   * Puts the checkpoint at `to` wherever it was: the last event a walk from the start found intact
   * before a broken link, so later verifications report that link again instead of trusting it.
   */
  async resetCheckpoint(to: AuditCheckpointRow): Promise<void> {
    await this.database.prisma.$executeRaw`
      INSERT INTO audit_checkpoint (id, seq, hash, verified_at)
      VALUES (1, ${to.seq}, ${to.hash}, ${to.verifiedAt})
      ON CONFLICT (id) DO UPDATE
        SET seq = EXCLUDED.seq, hash = EXCLUDED.hash, verified_at = EXCLUDED.verified_at`;
  }
}
