import { Injectable, Inject } from '@nestjs/common';
import type {
  AuditChainBreak,
  AuditEvent,
  AuditPage,
  AuditQuery,
  AuditVerification,
} from '@toolgate/contract';
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { decodeCursor, encodeCursor } from '../common/pagination';
import { ToolException } from '../problem/tool.exception';
import { GENESIS_HASH, verifyAuditBatch, type StoredAuditEvent } from './audit-hash';
import { AuditRepository } from './audit.repository';

const AuditCursorSchema = z.strictObject({ seq: z.string().regex(/^\d{1,19}$/) });
const VERIFY_BATCH = 1000;

function toAuditEvent(event: StoredAuditEvent): AuditEvent {
  return {
    seq: event.seq.toString(),
    id: event.id,
    occurred_at: event.occurredAt.toISOString(),
    actor: event.actor,
    team_id: event.teamId,
    action: event.action,
    entity_type: event.entityType,
    entity_id: event.entityId,
    // appendAuditEvent stores an object for every event; the column type cannot say so.
    data: event.data as Record<string, unknown>,
    prev_hash: event.prevHash,
    hash: event.hash,
  };
}

@Injectable()
export class AuditService {
  constructor(@Inject(AuditRepository) private readonly audit: AuditRepository) {}

  async list(principal: Principal, query: AuditQuery): Promise<AuditPage> {
    const cursor =
      query.cursor === undefined ? undefined : decodeCursor(query.cursor, AuditCursorSchema);
    if (cursor === null) {
      throw new ToolException('invalid_request', 'The cursor is not valid.', {
        issues: [{ path: '/query/cursor', message: 'must be a cursor returned by this API' }],
      });
    }
    const events = await this.audit.list({
      actor: query.actor,
      // A team's admin key sees its own team's trail; the bootstrap key sees everything.
      teamId: principal.teamId ?? undefined,
      entityType: query.entity_type,
      entityId: query.entity_id,
      action: query.action,
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
      beforeSeq: cursor === undefined ? undefined : BigInt(cursor.seq),
      limit: query.limit + 1,
    });
    const page = events.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(toAuditEvent),
      next_cursor:
        events.length > query.limit && last ? encodeCursor({ seq: last.seq.toString() }) : null,
    };
  }

  /** Walks the whole chain in batches and names the first broken link, if any. */
  async verify(): Promise<AuditVerification> {
    const head = await this.audit.head();
    let position = { seq: 0n, hash: GENESIS_HASH };
    let checked = 0;
    for (;;) {
      const batch = await this.audit.batchAfter(position.seq, VERIFY_BATCH);
      const result = verifyAuditBatch(batch, position);
      checked += result.checked;
      if (result.broken) return this.report(head, checked, result.broken);
      position = result.last;
      if (batch.length < VERIFY_BATCH) break;
    }
    // The head row is the chain's anchor: rows deleted from the end show up here.
    const broken: AuditChainBreak | null =
      position.seq === head.seq && position.hash === head.hash
        ? null
        : { seq: head.seq.toString(), id: null, reason: 'head_mismatch' };
    return this.report(head, checked, broken);
  }

  private report(
    head: { seq: bigint; hash: string },
    checked: number,
    broken: AuditChainBreak | null,
  ): AuditVerification {
    return {
      ok: broken === null,
      checked,
      head: { seq: head.seq.toString(), hash: head.hash },
      first_broken_link: broken,
    };
  }
}
