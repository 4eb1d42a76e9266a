import { describe, expect, it } from 'vitest';
import minimalTool from '../ir/__fixtures__/minimal-tool.json';
import { parseToolIR } from '../ir/parse-tool-ir';
import type { ToolBehavior, ToolConstraints, ToolIR } from '../ir/tool-ir';
import { behaviorAllowsInline, runsInline } from './runs-inline';

const readonlyBehavior: ToolBehavior = {
  readonly: true,
  destructive: false,
  idempotent: true,
  open_world: true,
  requires_approval: 'if_destructive',
};

/** A parsed readonly tool with its behavior and execution changed afterwards, as a stored record might be. */
function storedTool(
  behavior: Partial<ToolBehavior>,
  execution: ToolConstraints['execution'],
): ToolIR {
  const tool = parseToolIR(minimalTool);
  return {
    ...tool,
    behavior: { ...readonlyBehavior, ...behavior },
    constraints: execution === undefined ? tool.constraints : { ...tool.constraints, execution },
  };
}

describe('runsInline', () => {
  it('is true for inline on a readonly, idempotent, non-destructive tool', () => {
    expect(runsInline(storedTool({}, 'inline'))).toBe(true);
  });

  it('is true for a parsed tool that asks for inline', () => {
    const tool = parseToolIR({
      ...minimalTool,
      constraints: { ...minimalTool.constraints, execution: 'inline' },
    });
    expect(runsInline(tool)).toBe(true);
  });

  it.each([
    ['queued', 'queued' as const],
    ['absent', undefined],
  ])('is false when execution is %s', (_name, execution) => {
    expect(runsInline(storedTool({}, execution))).toBe(false);
  });

  // A record stored before parseToolIR refused these must still go through the queue.
  it.each([
    ['not readonly', { readonly: false }],
    ['not idempotent', { idempotent: false }],
    ['destructive', { destructive: true }],
  ])('is false for inline on a tool that is %s', (_name, behavior) => {
    expect(runsInline(storedTool(behavior, 'inline'))).toBe(false);
  });
});

describe('behaviorAllowsInline', () => {
  it('allows exactly the readonly, idempotent, non-destructive combination', () => {
    const allowed: Array<Pick<ToolBehavior, 'readonly' | 'idempotent' | 'destructive'>> = [];
    for (const readonly of [false, true])
      for (const idempotent of [false, true])
        for (const destructive of [false, true])
          if (behaviorAllowsInline({ readonly, idempotent, destructive }))
            allowed.push({ readonly, idempotent, destructive });
    expect(allowed).toEqual([{ readonly: true, idempotent: true, destructive: false }]);
  });
});
