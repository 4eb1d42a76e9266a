import { describe, expect, it } from 'vitest';
import {
  cappedJson,
  DefinitionsWritten,
  redactSensitive,
  REDACTED,
  tracesContent,
} from './trace-content';

const optingIn = { protocol_meta: { toolgate: { trace: { content: true } } } };
const optingOut = { protocol_meta: { toolgate: { trace: { content: false } } } };
const silent = { protocol_meta: { toolgate: { executor: { kind: 'builtin' } } } };

describe('tracesContent', () => {
  it('writes content only where the deployment and the tool version agree', () => {
    const settings = (mode: 'off' | 'per_tool' | 'all') => ({ mode, maxBytes: 100 });
    expect([optingIn, optingOut, silent].map((tool) => tracesContent(tool, undefined))).toEqual([
      false,
      false,
      false,
    ]);
    expect(
      [optingIn, optingOut, silent].map((tool) => tracesContent(tool, settings('off'))),
    ).toEqual([false, false, false]);
    expect(
      [optingIn, optingOut, silent].map((tool) => tracesContent(tool, settings('per_tool'))),
    ).toEqual([true, false, false]);
    expect(
      [optingIn, optingOut, silent].map((tool) => tracesContent(tool, settings('all'))),
    ).toEqual([true, false, true]);
  });
});

describe('redactSensitive', () => {
  it('replaces what the schema marks writeOnly, in nested objects, arrays and extra properties', () => {
    const schema = {
      type: 'object',
      properties: {
        user: { type: 'string' },
        password: { type: 'string', writeOnly: true },
        cards: {
          type: 'array',
          items: { type: 'object', properties: { number: { type: 'string', writeOnly: true } } },
        },
      },
      additionalProperties: { type: 'string', writeOnly: true },
    };
    expect(
      redactSensitive(
        {
          user: 'ada',
          password: 'hunter2',
          cards: [{ number: '4111', label: 'work' }],
          pin: '1234',
        },
        schema,
      ),
    ).toEqual({
      user: 'ada',
      password: REDACTED,
      cards: [{ number: REDACTED, label: 'work' }],
      pin: REDACTED,
    });
  });
});

describe('cappedJson', () => {
  it('keeps short values whole and cuts long ones to the byte cap, marked', () => {
    expect(cappedJson({ a: 1 }, 100)).toBe('{"a":1}');
    const cut = cappedJson({ text: 'é'.repeat(100) }, 40);
    expect(Buffer.byteLength(cut, 'utf8')).toBeLessThanOrEqual(40);
    expect(cut.endsWith('…[truncated]')).toBe(true);
    expect(cut).not.toContain('\uFFFD');
  });
});

describe('DefinitionsWritten', () => {
  it('answers true once per trace and tool version', () => {
    const written = new DefinitionsWritten();
    const tool = { id: 'tool-1', version: '1.0.0' };
    expect(written.firstIn('trace-a', tool)).toBe(true);
    expect(written.firstIn('trace-a', tool)).toBe(false);
    expect(written.firstIn('trace-a', { ...tool, version: '1.1.0' })).toBe(true);
    expect(written.firstIn('trace-b', tool)).toBe(true);
  });
});
