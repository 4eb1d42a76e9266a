import { Injectable, Inject } from '@nestjs/common';
import type {
  AuditChainBreak,
  AuditEvent,
  AuditPage,
  AuditQuery,
  AuditVerification,
  AuditVerifyQuery,
} from '@toolgate/contract';
import { z } from 'zod';
import { ActorsService } from '../actors/actors.service';
import type { Principal } from '../auth/principal';
import { decodeCursor, encodeCursor } from '../common/pagination';
import { ToolException } from '../problem/tool.exception';
import {
  GENESIS_HASH,
  verifyAuditBatch,
  type ChainPosition,
  type StoredAuditEvent,
} from './audit-hash';
import { AuditRepository, type AuditCheckpointRow } from './audit.repository';

const AuditCursorSchema = z.strictObject({ seq: z.string().regex(/^\d{1,19}$/) });
const VERIFY_BATCH = 1000;
const GENESIS: ChainPosition = { seq: 0n, hash: GENESIS_HASH };

/** What one walk along the chain found. */
interface Walk {
  /** Where the walk started: the position before its first event. */
  start: ChainPosition;
  /** The last event that linked and hashed as it should (`start` when none did). */
  last: ChainPosition;
  checked: number;
  broken: AuditChainBreak | null;
}

/** Breaks of a link between two events; the others (checkpoint, head) say nothing of the events before. */
const LINK_BREAKS: ReadonlySet<AuditChainBreak['reason']> = new Set([
  'sequence_gap',
  'prev_hash_mismatch',
  'hash_mismatch',
]);

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
  constructor(
    @Inject(AuditRepository) private readonly audit: AuditRepository,
    @Inject(ActorsService) private readonly actors: ActorsService,
  ) {}

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
      actors: await this.actors.describe(page.map((event) => event.actor)),
      next_cursor:
        events.length > query.limit && last ? encodeCursor({ seq: last.seq.toString() }) : null,
    };
  }

  /**
   * Verifies the events appended since the checkpoint (re-checking the checkpointed event itself),
   * or, with `full` or before any checkpoint, the whole chain, which must then agree with the
   * checkpoint too; then the head. Names the first broken link and moves the checkpoint: forward
   * to what was found intact, or, after a walk from the start found a broken link, back to the
   * event before it, so incremental verifications go on reporting it.
   */
  async verify(query: AuditVerifyQuery): Promise<AuditVerification> {
    const startedAt = performance.now();
    const verifiedAt = new Date();
    // The head first: events appended while this runs lie past it, for the next verification.
    const head = await this.audit.head();
    const checkpoint = await this.audit.checkpoint();
    const resumeAt = query.full ? null : await this.resumePoint(checkpoint);
    const walk = await this.walk(resumeAt ?? GENESIS, head, checkpoint);
    const basisSeq = resumeAt === null ? 0n : resumeAt.seq + 1n;
    await this.moveCheckpoint(walk, { verifiedAt, basisSeq, fromStart: resumeAt === null });
    return {
      ok: walk.broken === null,
      mode: resumeAt === null ? 'full' : 'incremental',
      from_seq: (walk.start.seq + 1n).toString(),
      to_seq: walk.last.seq.toString(),
      checked: walk.checked,
      head: { seq: head.seq.toString(), hash: head.hash },
      checkpoint:
        checkpoint === null
          ? null
          : {
              seq: checkpoint.seq.toString(),
              hash: checkpoint.hash,
              verified_at: checkpoint.verifiedAt.toISOString(),
            },
      first_broken_link: walk.broken,
      verified_at: verifiedAt.toISOString(),
      duration_ms: Math.round(performance.now() - startedAt),
    };
  }

  /**
   * Where an incremental walk starts: just before the checkpointed event, whose own link back is
   * taken on trust (the walk re-hashes the event and compares it with the checkpoint). Null when
   * there is nothing to continue from, or the checkpointed event is gone: then only a walk from
   * the start can say where the chain breaks.
   */
  private async resumePoint(checkpoint: AuditCheckpointRow | null): Promise<ChainPosition | null> {
    if (checkpoint === null || checkpoint.seq === 0n) return null;
    const [event] = await this.audit.batchAfter(checkpoint.seq - 1n, 1, checkpoint.seq);
    return event === undefined ? null : { seq: event.seq - 1n, hash: event.prevHash };
  }

  /** Walks from `start` through the head in batches, then checks the walk reached both anchors. */
  private async walk(
    start: ChainPosition,
    head: ChainPosition,
    checkpoint: ChainPosition | null,
  ): Promise<Walk> {
    let last = start;
    let checked = 0;
    while (last.seq < head.seq) {
      const batch = await this.audit.batchAfter(last.seq, VERIFY_BATCH, head.seq);
      const result = verifyAuditBatch(batch, last, checkpoint);
      checked += result.checked;
      last = result.last;
      if (result.broken) return { start, last, checked, broken: result.broken };
      if (batch.length < VERIFY_BATCH) break;
    }
    let broken: AuditChainBreak | null = null;
    if (checkpoint !== null && last.seq < checkpoint.seq) {
      // The chain, or its head, ends before an event that was verified.
      broken = { seq: checkpoint.seq.toString(), id: null, reason: 'checkpoint_mismatch' };
    } else if (last.seq !== head.seq || last.hash !== head.hash) {
      // The head row is the chain's anchor: rows deleted from the end show up here.
      broken = { seq: head.seq.toString(), id: null, reason: 'head_mismatch' };
    }
    return { start, last, checked, broken };
  }

  private async moveCheckpoint(
    walk: Walk,
    options: { verifiedAt: Date; basisSeq: bigint; fromStart: boolean },
  ): Promise<void> {
    const next = { ...walk.last, verifiedAt: options.verifiedAt };
    if (walk.broken === null) {
      await this.audit.advanceCheckpoint(next, options.basisSeq);
    } else if (LINK_BREAKS.has(walk.broken.reason)) {
      // What precedes a broken link is intact: from the start, whatever the checkpoint said.
      if (options.fromStart) await this.audit.resetCheckpoint(next);
      else if (walk.last.seq > walk.start.seq) {
        await this.audit.advanceCheckpoint(next, options.basisSeq);
      }
    }
    // A checkpoint or head mismatch leaves the checkpoint as it is, to be reported again.
  }
}
