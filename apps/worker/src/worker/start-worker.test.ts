import { silentLogger } from '@toolgate/engine';
import { describe, expect, it } from 'vitest';
import { buildCall, buildTool, TEST_CALLER } from '@toolgate/persistence/testing';
import { loadWorkerConfig } from '../config/worker.config';
import { JobName } from '@toolgate/persistence';
import type { InMemoryCallRepository } from '@toolgate/gateway';
import { redactUrl, startWorker } from './start-worker';

describe('startWorker without REDIS_URL (embedded mode)', () => {
  it('runs a recorded call through the in-process queue and the engine', async () => {
    const worker = await startWorker({
      config: loadWorkerConfig({ WORKER_ID: 'embedded' }),
      logger: silentLogger,
    });
    try {
      expect(worker.driver.kind).toBe('in-process');
      expect(worker.description).toBe(
        'queue toolgate:tool-calls (in-process queue; calls in memory), concurrency 8',
      );
      const calls = worker.calls as InMemoryCallRepository;
      const tool = buildTool({ name: 'echo', handler: 'toolgate.echo' });
      const call = buildCall(tool, { tag: 'hello' });
      await calls.create({ call, tool, caller: TEST_CALLER });
      await worker.driver.enqueue({
        name: JobName.ExecuteToolCall,
        id: call.id,
        data: { call_id: call.id },
      });

      await expect(worker.driver.waitForResult(call.id, { timeoutMs: 5_000 })).resolves.toEqual({
        state: 'completed',
        value: { status: 'executed', call_state: 'succeeded', recovered: false, attempts: 1 },
      });
      expect(await calls.getCall(call.id)).toMatchObject({
        state: 'succeeded',
        run: { worker_id: 'embedded' },
        outcome: { result: { ok: true, data: { echoed: { tag: 'hello' } } } },
      });
    } finally {
      await worker.close({ drainTimeoutMs: 1_000 });
    }
  });

  it('hides a Redis password in what it prints', () => {
    expect(redactUrl('redis://user:hunter2@cache:6379/0')).toBe('redis://user:***@cache:6379/0');
  });
});
