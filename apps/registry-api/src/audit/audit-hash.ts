import { createHash } from 'node:crypto';
import type { AuditChainBreak, AuditChainBreakReason } from '@toolgate/contract';
import { canonicalJson } from '@toolgate/toolir';

/** The hash the first event of the chain links to. */
export const GENESIS_HASH = '0'.repeat(64);

/** What one audit event says, as hashed: every column but the hashes themselves. */
export interface AuditEventContent {
  seq: bigint;
  id: string;
  occurredAt: Date;
  actor: string;
  teamId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  data: unknown;
}

/**
 * sha256(previous hash + canonical JSON of the content). Canonical JSON sorts keys, so the
 * hash survives the jsonb round trip (which reorders keys) and any re-serialization.
 */
export function hashAuditEvent(prevHash: string, content: AuditEventContent): string {
  const canonical = canonicalJson({
    seq: content.seq.toString(),
    id: content.id,
    occurred_at: content.occurredAt.toISOString(),
    actor: content.actor,
    team_id: content.teamId,
    action: content.action,
    entity_type: content.entityType,
    entity_id: content.entityId,
    data: content.data,
  });
  return createHash('sha256').update(`${prevHash}\n${canonical}`, 'utf8').digest('hex');
}

export interface StoredAuditEvent extends AuditEventContent {
  prevHash: string;
  hash: string;
}

/** A place in the chain: an event's seq and hash (seq 0 with GENESIS_HASH before the first). */
export interface ChainPosition {
  seq: bigint;
  hash: string;
}

/**
 * Checks a run of consecutive events against the hash before them, and the event at `checkpoint`
 * (when the run passes it) against the hash a verification recorded for it. Returns the first
 * broken link, or null and the hash of the last event so the caller can continue with the next
 * batch.
 */
export function verifyAuditBatch(
  events: readonly StoredAuditEvent[],
  start: ChainPosition,
  checkpoint: ChainPosition | null = null,
): { broken: AuditChainBreak | null; last: ChainPosition; checked: number } {
  let previous = start;
  let checked = 0;
  for (const event of events) {
    const link = { seq: event.seq.toString(), id: event.id };
    const fail = (reason: AuditChainBreakReason) => ({
      broken: { ...link, reason },
      last: previous,
      checked,
    });
    if (event.seq !== previous.seq + 1n) return fail('sequence_gap');
    if (event.prevHash !== previous.hash) return fail('prev_hash_mismatch');
    if (hashAuditEvent(previous.hash, event) !== event.hash) return fail('hash_mismatch');
    // A rewrite that recomputed every hash up to here still differs from what was verified.
    if (event.seq === checkpoint?.seq && event.hash !== checkpoint.hash) {
      return fail('checkpoint_mismatch');
    }
    previous = { seq: event.seq, hash: event.hash };
    checked += 1;
  }
  return { broken: null, last: previous, checked };
}
