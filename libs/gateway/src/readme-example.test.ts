import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// #region README example: imports
import { BuiltinExecutor, ExecutorRegistry } from '@toolgate/engine';
import { JobName } from '@toolgate/persistence';
import { TEST_CALLER, buildCall, buildTool } from '@toolgate/persistence/testing';
import {
  CallRunner,
  InMemoryCallRepository,
  createEngineContext,
  type CallFinishedMessage,
} from './index';
// #endregion

const README = new URL('../README.md', import.meta.url);
const SELF = new URL(import.meta.url);

/** The lines between `// #region <name>` and the next `// #endregion`, without their common indent. */
function region(source: string, name: string): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === '// #endregion');
  if (start < 0 || end < 0) throw new Error(`region "${name}" not found`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

/** The README's only `ts` code block. */
function readmeExample(): string {
  const blocks = [...readFileSync(README, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)];
  expect(blocks).toHaveLength(1);
  return (blocks[0]?.[1] ?? '').trimEnd();
}

describe('README example', () => {
  it('is the code this test runs, word for word', () => {
    const source = readFileSync(SELF, 'utf8');
    // Inside the lib, './index' is what the README imports as '@toolgate/gateway'.
    const imports = region(source, 'README example: imports').replace(
      "from './index';",
      "from '@toolgate/gateway';",
    );
    expect(readmeExample()).toBe(`${imports}\n\n${region(source, 'README example: code')}`);
  });

  it('runs one recorded call through the runner and stores its outcome', async () => {
    // #region README example: code
    // 1. The engine's ports: here only a builtin tool, registered in code.
    const executors = new ExecutorRegistry({
      builtin: new BuiltinExecutor().registerBuiltin('greet', (args) => ({
        greeting: `hello, ${String(args['tag'])}`,
      })),
    });

    // 2. A recorded call: the tool version it resolved to and who made it, stored as `queued`.
    const calls = new InMemoryCallRepository();
    const tool = buildTool({ name: 'greet', handler: 'greet' });
    const call = buildCall(tool, { tag: 'world' });
    await calls.create({ call, tool, caller: TEST_CALLER });

    // 3. The runner, as a host wires it: call records, a context per call, who runs the calls.
    const finished: CallFinishedMessage[] = [];
    const runner = new CallRunner({
      calls,
      createContext: (scope) => createEngineContext({ executors }, scope),
      workerId: 'worker-1',
      finished: (message) => finished.push(message),
    });

    // 4. One job, as a queue driver hands it over (its first start).
    const result = await runner.process({
      id: call.id,
      name: JobName.ExecuteToolCall,
      data: { call_id: call.id },
      attempt: 1,
    });
    // result -> { status: 'executed', call_state: 'succeeded', recovered: false, attempts: 1 }

    const record = await calls.getCall(call.id);
    // record.state -> 'succeeded'; record.run -> { worker_id: 'worker-1', attempt: 1, run_id, ... }
    // record.outcome.result -> { call_id: call.id, name: 'greet', ok: true,
    //                            data: { greeting: 'hello, world' } }
    // finished -> [{ type: 'finished', call_id: call.id, status: 'succeeded', ok: true, result, ... }]
    // #endregion

    expect(result).toEqual({
      status: 'executed',
      call_state: 'succeeded',
      recovered: false,
      attempts: 1,
    });
    expect(record).toMatchObject({
      state: 'succeeded',
      run: { worker_id: 'worker-1', attempt: 1 },
      outcome: {
        status: 'succeeded',
        attempts: 1,
        answered_by: 'greet',
        result: { call_id: call.id, name: 'greet', ok: true, data: { greeting: 'hello, world' } },
      },
    });
    expect(finished).toEqual([
      expect.objectContaining({
        type: 'finished',
        call_id: call.id,
        tool: 'greet',
        status: 'succeeded',
        ok: true,
        result: { call_id: call.id, name: 'greet', ok: true, data: { greeting: 'hello, world' } },
      }),
    ]);

    // A second delivery of the same job finds the call finished and does not run it again.
    await expect(
      runner.process({
        id: call.id,
        name: JobName.ExecuteToolCall,
        data: { call_id: call.id },
        attempt: 1,
      }),
    ).resolves.toEqual({ status: 'skipped', reason: 'already_finished', state: 'succeeded' });
    expect(finished).toHaveLength(1);
  });
});
