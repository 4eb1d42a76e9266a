import { describe, expect, it } from 'vitest';
import type { CallOutcome, CallRepository, NewCall } from '../index';
import { ABANDONED_RUN_ATTEMPTS, isClaimed } from '../index';
import { buildCall, buildTool, TEST_CALLER } from './tool.factory';

/** A repository that can also record new calls (what the API does before enqueueing). */
export type SeedableCallRepository = CallRepository & { create(input: NewCall): Promise<boolean> };

const run = (id: string, worker = 'w1') => ({
  worker_id: worker,
  attempt: 1,
  run_id: id,
  started_at: 100,
});

function outcome(callId: string): CallOutcome {
  return {
    status: 'succeeded',
    result: { call_id: callId, name: 'sleepy', ok: true, data: { slept_ms: 1 } },
    attempts: 1,
    latency_ms: 3,
    answered_by: 'sleepy',
    finished_at: 200,
  };
}

/** The compare-and-set contract every CallRepository honors; run against each implementation. */
export function describeCallRepositoryContract(
  name: string,
  repository: () => SeedableCallRepository,
): void {
  describe(`CallRepository contract: ${name}`, () => {
    async function seed(calls: SeedableCallRepository) {
      const tool = buildTool();
      const call = buildCall(tool, { ms: 1 });
      expect(
        await calls.create({ call, tool, caller: TEST_CALLER, conversation_id: 'conv_1' }),
      ).toBe(true);
      return { tool, call };
    }

    it('stores a call as queued and reads it back whole', async () => {
      const calls = repository();
      const { tool, call } = await seed(calls);
      expect(await calls.create({ call, tool, caller: TEST_CALLER })).toBe(false);
      // A store may add what it knows beside (the actor), but never a run or outcome before a start.
      const stored = await calls.getCall(call.id);
      expect(stored).toMatchObject({
        call,
        tool,
        caller: TEST_CALLER,
        conversation_id: 'conv_1',
        state: 'queued',
      });
      expect(stored?.run).toBeUndefined();
      expect(stored?.outcome).toBeUndefined();
      expect(await calls.getCall('call_missing')).toBeUndefined();
    });

    it('lets exactly one of many concurrent runs start a call', async () => {
      const calls = repository();
      const { call } = await seed(calls);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          calls.claim(call.id, run(`r${index}`)).then(isClaimed),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await calls.getCall(call.id)).toMatchObject({ state: 'running' });
      expect(await calls.claim('call_missing', run('x')).then(isClaimed)).toBe(false);
    });

    it('hands a running call over only from the run that holds it', async () => {
      const calls = repository();
      const { call } = await seed(calls);
      expect(await calls.takeOver(call.id, { previousRunId: 'r1', run: run('r2', 'w2') })).toBe(
        false,
      );
      await calls.claim(call.id, run('r1')).then(isClaimed);
      expect(await calls.takeOver(call.id, { previousRunId: 'other', run: run('r2', 'w2') })).toBe(
        false,
      );
      const takeovers = await Promise.all([
        calls.takeOver(call.id, { previousRunId: 'r1', run: run('r2', 'w2') }),
        calls.takeOver(call.id, { previousRunId: 'r1', run: run('r3', 'w3') }),
      ]);
      expect(takeovers.filter(Boolean)).toHaveLength(1);
    });

    it('records an outcome only for the run that holds the call, once', async () => {
      const calls = repository();
      const { call } = await seed(calls);
      expect(await calls.recordOutcome(call.id, { runId: 'r1', outcome: outcome(call.id) })).toBe(
        false,
      );
      await calls.claim(call.id, run('r1')).then(isClaimed);
      await calls.takeOver(call.id, { previousRunId: 'r1', run: run('r2', 'w2') });
      expect(await calls.recordOutcome(call.id, { runId: 'r1', outcome: outcome(call.id) })).toBe(
        false,
      );
      expect(await calls.recordOutcome(call.id, { runId: 'r2', outcome: outcome(call.id) })).toBe(
        true,
      );
      expect(await calls.recordOutcome(call.id, { runId: 'r2', outcome: outcome(call.id) })).toBe(
        false,
      );
      expect(await calls.claim(call.id, run('r4')).then(isClaimed)).toBe(false);
      expect(await calls.getCall(call.id)).toMatchObject({
        state: 'succeeded',
        run: { run_id: 'r2', worker_id: 'w2' },
        outcome: { ...outcome(call.id), attempts: 1 + ABANDONED_RUN_ATTEMPTS },
      });
    });

    it('keeps every pickup in the history and counts attempts across them', async () => {
      const calls = repository();
      const { call } = await seed(calls);
      await calls.claim(call.id, run('r1'));
      // The first pickup's worker died mid-call; another takes the call over later.
      const second = { ...run('r2', 'w2'), attempt: 2, started_at: 150 };
      expect(await calls.takeOver(call.id, { previousRunId: 'r1', run: second })).toBe(true);
      expect(await calls.getCall(call.id)).toMatchObject({
        state: 'running',
        run: second,
        runs: [
          { ...run('r1'), ended: { state: 'abandoned', attempts: ABANDONED_RUN_ATTEMPTS } },
          second,
        ],
      });
      const finished = { ...outcome(call.id), attempts: 2 };
      await calls.recordOutcome(call.id, { runId: 'r2', outcome: finished });
      const stored = await calls.getCall(call.id);
      expect(stored?.outcome?.attempts).toBe(2 + ABANDONED_RUN_ATTEMPTS);
      // A takeover ends the pickup it replaces when it happens (the store's clock or the new run's start).
      expect(
        stored?.runs?.map(({ ended, ...pickup }) => ({ pickup, ended: ended?.state })),
      ).toEqual([
        { pickup: run('r1'), ended: 'abandoned' },
        { pickup: second, ended: 'succeeded' },
      ]);
      expect(stored?.runs?.map((pickup) => pickup.ended?.attempts)).toEqual([
        ABANDONED_RUN_ATTEMPTS,
        2,
      ]);
      expect(stored?.runs?.[1]?.ended?.at).toBe(200);
    });
  });
}
