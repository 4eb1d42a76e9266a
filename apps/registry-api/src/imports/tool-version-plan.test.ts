import { describe, expect, it } from 'vitest';
import {
  candidateToIR,
  planToolVersion,
  type ExistingTool,
  type ToolCandidate,
} from './tool-version-plan';
import { behaviorOfAnnotations } from './upstream-mcp-tools';

const TOOL_ID = '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10';

function candidate(patch: Partial<ToolCandidate> = {}): ToolCandidate {
  return {
    name: 'search',
    description: 'Searches.',
    parameters: {
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'integer' } },
      required: ['q'],
    },
    behavior: {
      readonly: true,
      destructive: false,
      idempotent: true,
      open_world: true,
      requires_approval: 'if_destructive',
    },
    tags: [],
    protocolMeta: { toolgate: { executor: { kind: 'builtin', handler: 'search' } } },
    warnings: [],
    ...patch,
  };
}

const build = (source: ToolCandidate) => (id: string, version: string) =>
  candidateToIR(source, { id, version, timeoutMs: 1000 });

function existingAt(version: string, source: ToolCandidate = candidate()): ExistingTool {
  return {
    id: TOOL_ID,
    name: 'search',
    tags: [],
    versions: [{ version, ir: build(source)(TOOL_ID, version) }],
  };
}

describe('planToolVersion', () => {
  it('creates a new tool at 1.0.0', () => {
    const plan = planToolVersion(null, build(candidate()), () => TOOL_ID);
    expect(plan).toMatchObject({ action: 'created', toolId: TOOL_ID, previousVersion: null });
    expect(plan.ir.version).toBe('1.0.0');
  });

  it('leaves a tool alone when the newest version says the same', () => {
    const plan = planToolVersion(existingAt('1.4.2'), build(candidate()), () => 'unused');
    expect(plan).toMatchObject({ action: 'unchanged', previousVersion: '1.4.2', bump: null });
  });

  it('brings a retired tool back with a patch version even when it did not change', () => {
    const plan = planToolVersion(
      { ...existingAt('1.4.2'), retired: true },
      build(candidate()),
      () => 'unused',
    );
    expect(plan).toMatchObject({ action: 'new_version', bump: 'patch', changes: [] });
    expect(plan.ir.version).toBe('1.4.3');
  });

  it.each([
    [
      'a new required argument is breaking: major',
      candidate({
        parameters: {
          type: 'object',
          properties: { q: { type: 'string' }, limit: { type: 'integer' } },
          required: ['q', 'limit'],
        },
      }),
      'major',
      '2.0.0',
    ],
    [
      'a new optional argument: minor',
      candidate({
        parameters: {
          type: 'object',
          properties: {
            q: { type: 'string' },
            limit: { type: 'integer' },
            page: { type: 'integer' },
          },
          required: ['q'],
        },
      }),
      'minor',
      '1.5.0',
    ],
    ['only the description: patch', candidate({ description: 'Searches well.' }), 'patch', '1.4.3'],
  ])('%s', (_name, source, bump, version) => {
    const plan = planToolVersion(existingAt('1.4.2'), build(source), () => 'unused');
    expect(plan).toMatchObject({ action: 'new_version', bump, previousVersion: '1.4.2' });
    expect(plan.ir.version).toBe(version);
  });
});

describe('behaviorOfAnnotations', () => {
  it("applies MCP's defaults: a tool without hints may destroy and is not idempotent", () => {
    expect(behaviorOfAnnotations(undefined)).toMatchObject({
      readonly: false,
      destructive: true,
      idempotent: false,
      open_world: true,
    });
  });

  it('keeps read-only tools consistent whatever the other hints say', () => {
    expect(behaviorOfAnnotations({ readOnlyHint: true, destructiveHint: true })).toMatchObject({
      readonly: true,
      destructive: false,
      idempotent: true,
    });
  });
});
