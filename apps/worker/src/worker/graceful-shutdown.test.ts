import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { CloseReport } from '@toolgate/persistence';
import { installGracefulShutdown } from './graceful-shutdown';

const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };

function setUp(report: CloseReport) {
  const target = new EventEmitter();
  const exits: number[] = [];
  const steps: string[] = [];
  let exited!: () => void;
  const done = new Promise<void>((resolve) => (exited = resolve));
  installGracefulShutdown({
    close: (options) => {
      steps.push(`close ${options.drainTimeoutMs}`);
      return Promise.resolve(report);
    },
    flush: () => {
      steps.push('flush');
      return Promise.resolve();
    },
    drainTimeoutMs: 5_000,
    logger,
    exit: (code) => {
      exits.push(code);
      exited();
    },
    target: target as unknown as NodeJS.Process,
  });
  return { target, exits, steps, done };
}

describe('installGracefulShutdown', () => {
  it('drains, flushes and exits 0 on SIGTERM', async () => {
    const { target, exits, steps, done } = setUp({ drained: true });
    target.emit('SIGTERM', 'SIGTERM');
    await done;
    expect(steps).toEqual(['close 5000', 'flush']);
    expect(exits).toEqual([0]);
  });

  it('exits 1 when calls were left to stalled-job recovery', async () => {
    const { target, exits, done } = setUp({ drained: false });
    target.emit('SIGINT', 'SIGINT');
    await done;
    expect(exits).toEqual([1]);
  });

  it('exits 1 at once on a second signal', () => {
    const { target, exits } = setUp({ drained: true });
    target.emit('SIGTERM', 'SIGTERM');
    target.emit('SIGINT', 'SIGINT');
    expect(exits[0]).toBe(1);
  });
});
