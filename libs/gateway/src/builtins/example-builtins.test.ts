import { describe, expect, it } from 'vitest';
import { realSleep } from '@toolgate/engine';
import { echoHandler, sleepHandler } from './example-builtins';
import { buildCall, buildTool } from '@toolgate/persistence/testing';

const tool = buildTool();
const context = (signal: AbortSignal) => ({
  signal,
  reportProgress: () => undefined,
  call: buildCall(tool),
  tool,
});

describe('example builtins', () => {
  it('toolgate.echo returns its arguments', async () => {
    expect(await echoHandler({ a: 1 }, context(new AbortController().signal))).toEqual({
      echoed: { a: 1 },
    });
  });

  it('toolgate.sleep waits and reports how long', async () => {
    expect(await sleepHandler({ ms: 5 }, context(new AbortController().signal))).toEqual({
      slept_ms: 5,
    });
  });

  it('stops sleeping when the call is aborted', async () => {
    const controller = new AbortController();
    const sleeping = realSleep(10_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toThrow('aborted');
  });
});
