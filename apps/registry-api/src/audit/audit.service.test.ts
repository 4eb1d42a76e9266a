import { describe, expect, it } from 'vitest';
import {
  GENESIS_HASH,
  hashAuditEvent,
  type ChainPosition,
  type StoredAuditEvent,
} from './audit-hash';
import type { ActorsService } from '../actors/actors.service';
import type { AuditCheckpointRow, AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The chain, its head and the checkpoint in memory, with the repository's rules for moving it. */
class InMemoryAuditRepository {
  events: StoredAuditEvent[] = [];
  chainHead: ChainPosition = { seq: 0n, hash: GENESIS_HASH };
  stored: AuditCheckpointRow | null = null;
  /** How many events verifications have read. */
  read = 0;

  append(count: number): void {
    for (let index = 0; index < count; index += 1) {
      const seq = this.chainHead.seq + 1n;
      const content = {
        seq,
        id: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
        occurredAt: new Date(Date.UTC(2026, 0, 1) + Number(seq) * 1000),
        actor: 'admin',
        teamId: null,
        action: 'tool.created',
        entityType: 'tool',
        entityId: `tool-${seq}`,
        data: { name: `tool-${seq}` },
      };
      const hash = hashAuditEvent(this.chainHead.hash, content);
      this.events.push({ ...content, prevHash: this.chainHead.hash, hash });
      this.chainHead = { seq, hash };
    }
  }

  event(seq: number): StoredAuditEvent {
    const event = this.events.find((candidate) => candidate.seq === BigInt(seq));
    if (event === undefined) throw new Error(`no event ${seq}`);
    return event;
  }

  /** Rewrites the data of `seq` and every hash after it, head included: a consistent forgery. */
  rewriteFrom(seq: number): void {
    let previous = seq === 1 ? GENESIS_HASH : this.event(seq - 1).hash;
    for (const event of this.events.filter((candidate) => candidate.seq >= BigInt(seq))) {
      if (event.seq === BigInt(seq)) event.data = { name: 'forged' };
      event.prevHash = previous;
      event.hash = hashAuditEvent(previous, event);
      previous = event.hash;
    }
    this.chainHead = { seq: this.chainHead.seq, hash: previous };
  }

  head(): Promise<ChainPosition> {
    return Promise.resolve({ ...this.chainHead });
  }

  batchAfter(afterSeq: bigint, limit: number, throughSeq?: bigint): Promise<StoredAuditEvent[]> {
    const batch = this.events
      .filter(
        (event) => event.seq > afterSeq && (throughSeq === undefined || event.seq <= throughSeq),
      )
      .slice(0, limit);
    this.read += batch.length;
    return Promise.resolve(batch.map((event) => ({ ...event })));
  }

  checkpoint(): Promise<AuditCheckpointRow | null> {
    return Promise.resolve(this.stored === null ? null : { ...this.stored });
  }

  advanceCheckpoint(next: AuditCheckpointRow, basisSeq: bigint): Promise<boolean> {
    const current = this.stored;
    const behind =
      current === null ||
      ((current.seq < next.seq ||
        (current.seq === next.seq && current.verifiedAt <= next.verifiedAt)) &&
        current.seq >= basisSeq);
    if (behind) this.stored = { ...next };
    return Promise.resolve(behind);
  }

  resetCheckpoint(to: AuditCheckpointRow): Promise<void> {
    this.stored = { ...to };
    return Promise.resolve();
  }
}

function newTestService() {
  const repository = new InMemoryAuditRepository();
  // verification never names actors; only list answers do
  const actors = { describe: () => Promise.resolve({}) };
  const sut = new AuditService(
    repository as unknown as AuditRepository,
    actors as unknown as ActorsService,
  );
  return { sut, repository };
}

const INCREMENTAL = { full: false };
const FULL = { full: true };

describe('AuditService.verify', () => {
  it('walks the whole chain the first time and checkpoints its head', async () => {
    const { sut, repository } = newTestService();
    repository.append(2500);
    const result = await sut.verify(INCREMENTAL);
    expect(result).toMatchObject({
      ok: true,
      mode: 'full',
      from_seq: '1',
      to_seq: '2500',
      checked: 2500,
      checkpoint: null,
      first_broken_link: null,
    });
    expect(repository.read).toBe(2500);
    expect(repository.stored).toMatchObject({ seq: 2500n, hash: repository.event(2500).hash });
    expect(repository.stored?.verifiedAt.toISOString()).toBe(result.verified_at);
  });

  it('then re-checks the checkpointed event and walks only what was appended after it', async () => {
    const { sut, repository } = newTestService();
    repository.append(2500);
    await sut.verify(INCREMENTAL);
    repository.append(30);
    repository.read = 0;
    const result = await sut.verify(INCREMENTAL);
    expect(result).toMatchObject({
      ok: true,
      mode: 'incremental',
      from_seq: '2500',
      to_seq: '2530',
      checked: 31,
      checkpoint: { seq: '2500', hash: repository.event(2500).hash },
    });
    // The new events, and the checkpointed one twice: to find where to start, then in the walk.
    expect(repository.read).toBe(32);
    expect(repository.stored?.seq).toBe(2530n);

    const unchanged = await sut.verify(INCREMENTAL);
    expect(unchanged).toMatchObject({ ok: true, from_seq: '2530', to_seq: '2530', checked: 1 });
  });

  it('walks the whole chain again on demand, still against the checkpoint', async () => {
    const { sut, repository } = newTestService();
    repository.append(40);
    await sut.verify(INCREMENTAL);
    repository.read = 0;
    const result = await sut.verify(FULL);
    expect(result).toMatchObject({ ok: true, mode: 'full', from_seq: '1', checked: 40 });
    expect(result.checkpoint).toMatchObject({ seq: '40' });
    expect(repository.read).toBe(40);
  });

  it('finds a row changed after the checkpoint, and does not move the checkpoint past it', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    repository.append(10);
    repository.event(15).actor = 'mallory';
    const result = await sut.verify(INCREMENTAL);
    expect(result).toMatchObject({
      ok: false,
      mode: 'incremental',
      to_seq: '14',
      checked: 5,
      first_broken_link: { seq: '15', reason: 'hash_mismatch' },
    });
    expect(repository.stored?.seq).toBe(14n);
    expect((await sut.verify(INCREMENTAL)).first_broken_link).toMatchObject({ seq: '15' });
  });

  it('finds rows deleted from the end at the head', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    repository.append(3);
    repository.events.pop();
    const result = await sut.verify(INCREMENTAL);
    expect(result).toMatchObject({
      ok: false,
      to_seq: '12',
      first_broken_link: { seq: '13', id: null, reason: 'head_mismatch' },
    });
  });

  it('finds events deleted back past the checkpoint, even with the head moved back too', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    repository.events.splice(7);
    repository.chainHead = { seq: 7n, hash: repository.event(7).hash };
    const result = await sut.verify(INCREMENTAL);
    // The checkpointed event is gone, so only a walk from the start can say what is left.
    expect(result).toMatchObject({
      ok: false,
      mode: 'full',
      to_seq: '7',
      first_broken_link: { seq: '10', id: null, reason: 'checkpoint_mismatch' },
    });
    expect(repository.stored?.seq).toBe(10n);
  });

  it.each([
    ['incremental', INCREMENTAL, '10', 0],
    ['full', FULL, '1', 9],
  ])(
    'finds history rewritten up to the checkpoint (%s): the checkpointed event has another hash',
    async (_mode, query, fromSeq, checked) => {
      const { sut, repository } = newTestService();
      repository.append(10);
      await sut.verify(INCREMENTAL);
      repository.append(5);
      repository.rewriteFrom(4);
      const result = await sut.verify(query);
      expect(result).toMatchObject({
        ok: false,
        from_seq: fromSeq,
        checked,
        first_broken_link: {
          seq: '10',
          id: repository.event(10).id,
          reason: 'checkpoint_mismatch',
        },
      });
      expect(repository.stored?.seq).toBe(10n);
    },
  );

  it('finds the checkpointed event itself edited', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    repository.event(10).data = { name: 'forged' };
    const result = await sut.verify(INCREMENTAL);
    expect(result).toMatchObject({
      ok: false,
      mode: 'incremental',
      checked: 0,
      first_broken_link: { seq: '10', reason: 'hash_mismatch' },
    });
  });

  it('trusts the past incrementally; a full walk that finds a break moves the checkpoint back to it', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    repository.event(3).actor = 'mallory';
    expect((await sut.verify(INCREMENTAL)).ok).toBe(true);

    const full = await sut.verify(FULL);
    expect(full).toMatchObject({
      ok: false,
      to_seq: '2',
      checked: 2,
      first_broken_link: { seq: '3', reason: 'hash_mismatch' },
    });
    expect(repository.stored).toMatchObject({ seq: 2n, hash: repository.event(2).hash });
    // From now on the incremental verification walks from there and reports the same link.
    expect(await sut.verify(INCREMENTAL)).toMatchObject({
      ok: false,
      mode: 'incremental',
      from_seq: '2',
      first_broken_link: { seq: '3', reason: 'hash_mismatch' },
    });
  });

  it('never moves the checkpoint back when verifications overlap', async () => {
    const { sut, repository } = newTestService();
    repository.append(10);
    await sut.verify(INCREMENTAL);
    // A slow full verification reads the head at 10; another one checkpoints 20 meanwhile.
    const slow = sut.verify(FULL);
    repository.append(10);
    await sut.verify(INCREMENTAL);
    expect((await slow).ok).toBe(true);
    expect(repository.stored?.seq).toBe(20n);
  });
});
