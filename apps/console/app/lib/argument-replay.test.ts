import type { PartialArgumentStates } from '@toolgate/contract';
import { describe, expect, it } from 'vitest';
import { replayFrames } from './argument-replay';

const FINAL = {
  city: 'Paris',
  days: [1, 2],
  options: { unit: 'celsius', hourly: false },
};

const GROWN: PartialArgumentStates = {
  entries: [
    { offset_ms: 12, pointers: ['/city'] },
    { offset_ms: 30, pointers: ['/days/0'] },
    { offset_ms: 41, pointers: ['/days/1', '/days', '/options/unit'] },
    { offset_ms: 55, pointers: ['/options/hourly', '/options', ''] },
  ],
  truncated: false,
};

describe('replayFrames', () => {
  it('rebuilds the arguments as they stood at each recorded moment', () => {
    expect(replayFrames(FINAL, GROWN)).toEqual([
      { offset_ms: 0, arguments: {}, completed: [] },
      { offset_ms: 12, arguments: { city: 'Paris' }, completed: ['/city'] },
      { offset_ms: 30, arguments: { city: 'Paris', days: [1] }, completed: ['/days/0'] },
      {
        offset_ms: 41,
        arguments: { city: 'Paris', days: [1, 2], options: { unit: 'celsius' } },
        completed: ['/days/1', '/days', '/options/unit'],
      },
      { offset_ms: 55, arguments: FINAL, completed: ['/options/hourly', '/options', ''] },
    ]);
  });

  it('shows an open container once a value inside it completed, and only that value', () => {
    const frames = replayFrames(
      { list: [{ a: 1, b: 2 }] },
      { entries: [{ offset_ms: 1, pointers: ['/list/0/a'] }], truncated: true },
    );
    expect(frames.at(-1)?.arguments).toEqual({ list: [{ a: 1 }] });
  });

  it('ignores pointers that name nothing in the final arguments and keeps escaped keys', () => {
    const frames = replayFrames(
      { 'a/b': 1, 'c~d': 2 },
      {
        entries: [
          { offset_ms: 1, pointers: ['/a~1b', '/dropped'] },
          { offset_ms: 2, pointers: ['/c~0d'] },
        ],
        truncated: false,
      },
    );
    expect(frames.map((frame) => frame.arguments)).toEqual([
      {},
      { 'a/b': 1 },
      { 'a/b': 1, 'c~d': 2 },
    ]);
  });

  it('keeps a `__proto__` argument as an own key', () => {
    const finalArguments = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const frames = replayFrames(finalArguments, {
      entries: [{ offset_ms: 3, pointers: ['/__proto__'] }],
      truncated: false,
    });
    expect(Object.keys(frames[1]?.arguments ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(frames[1]?.arguments)).toBe(Object.prototype);
  });
});
