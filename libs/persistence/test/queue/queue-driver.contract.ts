import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueDriver, ReceivedJob } from '../../src/queue/queue-driver';
import { JobName, PermanentJobError } from '../../src/queue/queue-driver';

/** A fresh driver for one test, and how to remove everything it left behind. */
export interface DriverUnderTest {
  driver: QueueDriver;
  cleanup: () => Promise<void>;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function job(id = `call_${randomUUID()}`) {
  return { name: JobName.ExecuteToolCall, id, data: { call_id: id } };
}

/** The contract every QueueDriver honors; run against each implementation. */
export function describeQueueDriverContract(
  name: string,
  create: () => Promise<DriverUnderTest>,
): void {
  describe(`QueueDriver contract: ${name}`, () => {
    let subject: DriverUnderTest;
    let driver: QueueDriver;

    beforeEach(async () => {
      subject = await create();
      driver = subject.driver;
    });

    afterEach(async () => {
      await driver.close({ drainTimeoutMs: 2_000 });
      await subject.cleanup();
    });

    it('runs an enqueued job and reports its result', async () => {
      const seen: ReceivedJob[] = [];
      await driver.process(
        (received) => {
          seen.push(received);
          return Promise.resolve({
            handled: 'call_id' in received.data ? received.data.call_id : null,
          });
        },
        { concurrency: 2 },
      );
      const enqueued = await driver.enqueue(job('call_a'));
      expect(enqueued).toEqual({ id: 'call_a', duplicate: false });
      await expect(driver.waitForResult('call_a', { timeoutMs: 5_000 })).resolves.toEqual({
        state: 'completed',
        value: { handled: 'call_a' },
      });
      expect(seen).toEqual([
        { id: 'call_a', name: JobName.ExecuteToolCall, data: { call_id: 'call_a' }, attempt: 1 },
      ]);
    });

    it('keeps ids BullMQ would refuse (colons, integers) and dedupes them', async () => {
      await driver.process((received) => Promise.resolve(received.id), { concurrency: 1 });
      for (const id of ['tenant:call:1', '12345']) {
        await driver.enqueue(job(id));
        await expect(driver.enqueue(job(id))).resolves.toEqual({ id, duplicate: true });
        await expect(driver.waitForResult(id, { timeoutMs: 5_000 })).resolves.toEqual({
          state: 'completed',
          value: id,
        });
      }
    });

    it('runs a job enqueued twice with one id once', async () => {
      let runs = 0;
      await driver.process(
        () => {
          runs += 1;
          return Promise.resolve('done');
        },
        { concurrency: 4 },
      );
      const first = await driver.enqueue(job('call_dup'));
      const second = await driver.enqueue(job('call_dup'));
      expect([first.duplicate, second.duplicate]).toEqual([false, true]);
      await driver.waitForResult('call_dup', { timeoutMs: 5_000 });
      // A duplicate added after the first run finished must not run either.
      await driver.enqueue(job('call_dup'));
      await pause(300);
      expect(runs).toBe(1);
    });

    it('runs a job enqueued concurrently many times with one id once', async () => {
      let runs = 0;
      await driver.process(
        async () => {
          runs += 1;
          await pause(50);
          return 'done';
        },
        { concurrency: 4 },
      );
      await Promise.all(Array.from({ length: 8 }, () => driver.enqueue(job('call_race'))));
      await driver.waitForResult('call_race', { timeoutMs: 5_000 });
      await pause(300);
      expect(runs).toBe(1);
    });

    it('adds a turn of jobs in one bulk, each once, skipping ids it still holds', async () => {
      const runs = new Map<string, number>();
      await driver.process(
        (received) => {
          runs.set(received.id, (runs.get(received.id) ?? 0) + 1);
          return Promise.resolve(received.id);
        },
        { concurrency: 4 },
      );
      await driver.enqueue(job('call_bulk_held'));
      await driver.waitForResult('call_bulk_held', { timeoutMs: 5_000 });
      const ids = ['call_bulk_1', 'call_bulk_2', 'tenant:call:3', 'call_bulk_held'];
      await driver.enqueueBulk(ids.map((id) => job(id)));
      for (const id of ids.slice(0, 3)) {
        await expect(driver.waitForResult(id, { timeoutMs: 5_000 })).resolves.toEqual({
          state: 'completed',
          value: id,
        });
      }
      await pause(300);
      expect(Object.fromEntries(runs)).toEqual({
        call_bulk_held: 1,
        call_bulk_1: 1,
        call_bulk_2: 1,
        'tenant:call:3': 1,
      });
    });

    it('fails a malformed job at once, with a reason naming the field, without calling the handler', async () => {
      let runs = 0;
      await driver.process(
        () => {
          runs += 1;
          return Promise.resolve();
        },
        { concurrency: 1 },
      );
      await driver.enqueue(
        {
          name: JobName.ExecuteToolCall,
          id: 'call_bad',
          data: { call_id: 42 } as unknown as { call_id: string },
        },
        { attempts: 5, backoffMs: 10 },
      );
      const result = await driver.waitForResult('call_bad', { timeoutMs: 5_000 });
      expect(result.state).toBe('failed');
      expect(result.state === 'failed' ? result.reason : '').toMatch(
        /malformed execute-tool-call job call_bad: call_id: /,
      );
      await pause(200);
      expect(runs).toBe(0);
    });

    it('retries a transient failure with backoff', async () => {
      const attempts: number[] = [];
      await driver.process(
        (received) => {
          attempts.push(received.attempt);
          if (attempts.length < 3) return Promise.reject(new Error('redis hiccup'));
          return Promise.resolve('recovered');
        },
        { concurrency: 1 },
      );
      await driver.enqueue(job('call_flaky'), { attempts: 3, backoffMs: 20 });
      await expect(driver.waitForResult('call_flaky', { timeoutMs: 5_000 })).resolves.toEqual({
        state: 'completed',
        value: 'recovered',
      });
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('fails a job after its attempts run out', async () => {
      let runs = 0;
      await driver.process(
        () => {
          runs += 1;
          return Promise.reject(new Error('still down'));
        },
        { concurrency: 1 },
      );
      await driver.enqueue(job('call_down'), { attempts: 2, backoffMs: 10 });
      await expect(driver.waitForResult('call_down', { timeoutMs: 5_000 })).resolves.toEqual({
        state: 'failed',
        reason: 'still down',
      });
      expect(runs).toBe(2);
    });

    it('never retries a PermanentJobError', async () => {
      let runs = 0;
      await driver.process(
        () => {
          runs += 1;
          return Promise.reject(new PermanentJobError('cannot ever work'));
        },
        { concurrency: 1 },
      );
      await driver.enqueue(job('call_permanent'), { attempts: 5, backoffMs: 10 });
      await expect(driver.waitForResult('call_permanent', { timeoutMs: 5_000 })).resolves.toEqual({
        state: 'failed',
        reason: 'cannot ever work',
      });
      await pause(200);
      expect(runs).toBe(1);
    });

    it('runs at most `concurrency` jobs at once', async () => {
      let active = 0;
      let peak = 0;
      await driver.process(
        async () => {
          active += 1;
          peak = Math.max(peak, active);
          await pause(100);
          active -= 1;
          return 'ok';
        },
        { concurrency: 2 },
      );
      const ids = Array.from({ length: 6 }, (_, index) => `call_c${index}`);
      await Promise.all(ids.map((id) => driver.enqueue(job(id))));
      await Promise.all(ids.map((id) => driver.waitForResult(id, { timeoutMs: 10_000 })));
      expect(peak).toBe(2);
    });

    it('lets the job in flight finish on close', async () => {
      let finished = false;
      let started!: () => void;
      const isStarted = new Promise<void>((resolve) => (started = resolve));
      await driver.process(
        async () => {
          started();
          await pause(400);
          finished = true;
          return 'ok';
        },
        { concurrency: 1 },
      );
      await driver.enqueue(job('call_drain'));
      await isStarted;
      await expect(driver.close({ drainTimeoutMs: 5_000 })).resolves.toEqual({ drained: true });
      expect(finished).toBe(true);
    });

    it('reports an undrained close when the drain timeout passes first', async () => {
      let started!: () => void;
      const isStarted = new Promise<void>((resolve) => (started = resolve));
      await driver.process(
        async () => {
          started();
          await pause(800);
          return 'ok';
        },
        { concurrency: 1 },
      );
      await driver.enqueue(job('call_slow'));
      await isStarted;
      await expect(driver.close({ drainTimeoutMs: 100 })).resolves.toEqual({ drained: false });
    });
  });
}
