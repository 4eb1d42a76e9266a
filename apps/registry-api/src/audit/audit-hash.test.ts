import { describe, expect, it } from 'vitest';
import {
  GENESIS_HASH,
  hashAuditEvent,
  verifyAuditBatch,
  type StoredAuditEvent,
} from './audit-hash';

function chain(length: number): StoredAuditEvent[] {
  const events: StoredAuditEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let index = 1; index <= length; index += 1) {
    const content = {
      seq: BigInt(index),
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
      actor: 'admin',
      teamId: null,
      action: 'tool.created',
      entityType: 'tool',
      entityId: `tool-${index}`,
      data: { b: 2, a: [1, { y: true, x: null }] },
    };
    const hash = hashAuditEvent(prevHash, content);
    events.push({ ...content, prevHash, hash });
    prevHash = hash;
  }
  return events;
}

describe('audit hash chain', () => {
  it('hashes canonically: key order in data does not matter', () => {
    const [event] = chain(1);
    const reordered = { ...event!, data: { a: [1, { x: null, y: true }], b: 2 } };
    expect(hashAuditEvent(GENESIS_HASH, reordered)).toBe(event!.hash);
  });

  it('verifies an intact chain', () => {
    const events = chain(5);
    expect(verifyAuditBatch(events, { seq: 0n, hash: GENESIS_HASH })).toEqual({
      broken: null,
      last: { seq: 5n, hash: events[4]!.hash },
      checked: 5,
    });
  });

  it.each<[string, (events: StoredAuditEvent[]) => void, { seq: string; reason: string }]>([
    [
      'an edited row',
      (events) => void (events[2]!.actor = 'mallory'),
      { seq: '3', reason: 'hash_mismatch' },
    ],
    ['a deleted row', (events) => void events.splice(2, 1), { seq: '4', reason: 'sequence_gap' }],
    [
      'a relinked row',
      (events) => void (events[3]!.prevHash = GENESIS_HASH),
      { seq: '4', reason: 'prev_hash_mismatch' },
    ],
  ])('names the first broken link after %s', (_label, tamper, expected) => {
    const events = chain(5);
    tamper(events);
    expect(verifyAuditBatch(events, { seq: 0n, hash: GENESIS_HASH }).broken).toMatchObject(
      expected,
    );
  });

  it('names the checkpointed event when its hash is not the one checkpointed', () => {
    const events = chain(5);
    const start = { seq: 0n, hash: GENESIS_HASH };
    const checkpoint = { seq: 4n, hash: events[3]!.hash };
    expect(verifyAuditBatch(events, start, checkpoint).broken).toBeNull();
    expect(verifyAuditBatch(events, start, { ...checkpoint, hash: GENESIS_HASH })).toMatchObject({
      broken: { seq: '4', reason: 'checkpoint_mismatch' },
      last: { seq: 3n, hash: events[2]!.hash },
      checked: 3,
    });
  });
});
