import { BuiltinExecutor, realSleep } from '@toolgate/engine';
import type { BuiltinHandler } from '@toolgate/engine';

/** The longest `toolgate.sleep` may wait, so an example tool cannot hold a worker slot for long. */
export const MAX_SLEEP_MS = 60_000;

/** `toolgate.echo`: returns its arguments unchanged (smoke tests, examples). */
export const echoHandler: BuiltinHandler = (args) => ({ echoed: args });

/** `toolgate.sleep`: waits `ms` milliseconds (stopping early when the call is aborted), then reports how long it slept. */
export const sleepHandler: BuiltinHandler = async (args, { signal }) => {
  const ms = typeof args['ms'] === 'number' ? Math.min(Math.max(0, args['ms']), MAX_SLEEP_MS) : 0;
  await realSleep(ms, signal);
  return { slept_ms: ms };
};

/** A builtin executor with the example tools registered (`toolgate.echo`, `toolgate.sleep`); add your own with `registerBuiltin`. */
export function createExampleBuiltins(): BuiltinExecutor {
  return new BuiltinExecutor()
    .registerBuiltin('toolgate.echo', echoHandler)
    .registerBuiltin('toolgate.sleep', sleepHandler);
}
