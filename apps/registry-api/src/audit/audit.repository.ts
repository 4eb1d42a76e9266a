import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import type { Prisma } from '../generated/prisma/client';
import { hashAuditEvent, type StoredAuditEvent } from './audit-hash';

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

  /** Events with seq > afterSeq in chain order, for verification in batches. */
  async batchAfter(afterSeq: bigint, limit: number): Promise<StoredAuditEvent[]> {
    return this.database.prisma.auditEvent.findMany({
      where: { seq: { gt: afterSeq } },
      orderBy: { seq: 'asc' },
      take: limit,
    });
  }

  async head(): Promise<{ seq: bigint; hash: string }> {
    const head = await this.database.prisma.auditChainHead.findUniqueOrThrow({ where: { id: 1 } });
    return { seq: head.lastSeq, hash: head.hash };
  }
}
