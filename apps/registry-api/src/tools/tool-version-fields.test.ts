import { getAdapter } from '@toolgate/adapters';
import type { ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import {
  completeWireDefinition,
  inheritanceSourceOf,
  predecessorOf,
  type StoredVersion,
} from './tool-version-fields';

const imported: ToolIR = getAdapter('openai-chat').toolFromWire({
  type: 'function',
  function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
});

const executor = { kind: 'builtin' as const, handler: 'lookup' };
const stored = (version: string, ir: Record<string, unknown> = {}): StoredVersion => ({
  version,
  ir: {
    behavior: { readonly: true, destructive: false, idempotent: true },
    constraints: { timeout_ms: 1500, max_retries: 2, execution: 'inline' },
    protocol_meta: { toolgate: { executor } },
    ...ir,
  },
});

describe('completeWireDefinition', () => {
  it('inherits behavior, constraints and executor from the version it succeeds, and says so', () => {
    const completed = completeWireDefinition({
      imported,
      overrides: {},
      source: stored('1.0.0'),
    });
    expect(completed.candidate).toMatchObject({
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 1500, max_retries: 2, execution: 'inline' },
      protocol_meta: { toolgate: { executor } },
    });
    expect(completed.fields).toEqual({
      inherited: [
        { field: 'behavior', from_version: '1.0.0' },
        { field: 'constraints', from_version: '1.0.0' },
        { field: 'executor', from_version: '1.0.0' },
      ],
      defaulted: [],
    });
  });

  it('defaults every field of a first version to the safe import defaults and reports the values', () => {
    const completed = completeWireDefinition({ imported, overrides: {}, source: undefined });
    expect(completed.candidate['behavior']).toMatchObject({
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'if_destructive',
    });
    expect(completed.candidate).not.toHaveProperty('protocol_meta');
    expect(completed.fields.inherited).toEqual([]);
    expect(completed.fields.defaulted.map((entry) => [entry.field, entry.value])).toEqual([
      ['behavior', imported.behavior],
      ['constraints', imported.constraints],
      ['executor', null],
    ]);
    for (const entry of completed.fields.defaulted)
      expect(entry.reason).toMatch(/^no earlier published version/);
  });

  it('takes what the request gives over the earlier version, and reports only the rest', () => {
    const behavior = {
      readonly: false,
      destructive: false,
      idempotent: true,
      open_world: false,
      requires_approval: 'never' as const,
    };
    const completed = completeWireDefinition({
      imported,
      overrides: { behavior },
      source: stored('1.0.0'),
    });
    expect(completed.candidate['behavior']).toEqual(behavior);
    expect(completed.fromRequest).toEqual(new Set(['behavior']));
    expect(completed.fields.inherited.map((entry) => entry.field)).toEqual([
      'constraints',
      'executor',
    ]);
  });

  it('defaults a field the earlier version lacks or holds invalid, naming that version', () => {
    const completed = completeWireDefinition({
      imported,
      overrides: {},
      source: stored('1.0.0', { protocol_meta: { toolgate: { executor: { kind: 'teleport' } } } }),
    });
    expect(completed.fields.defaulted).toEqual([
      expect.objectContaining({
        field: 'executor',
        value: null,
        reason: expect.stringMatching(/^version 1.0.0 has no valid executor/),
      }),
    ]);
  });
});

describe('the version a publish succeeds', () => {
  const published = [{ version: '1.0.0' }, { version: '2.0.0' }, { version: '1.2.0' }];
  it('is the highest published below it', () => {
    expect(predecessorOf('1.5.0', published)?.version).toBe('1.2.0');
    expect(inheritanceSourceOf('1.5.0', published)?.version).toBe('1.2.0');
  });
  it('is the latest published for a version below all of them, none for a first version', () => {
    expect(predecessorOf('0.9.0', published)).toBeUndefined();
    expect(inheritanceSourceOf('0.9.0', published)?.version).toBe('2.0.0');
    expect(inheritanceSourceOf('1.0.0', [])).toBeUndefined();
  });
});
