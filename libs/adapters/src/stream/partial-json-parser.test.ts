import { ToolgateError } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import {
  createRandom,
  randomJsonText,
  splitRandomly,
  toolArgumentDocument,
} from './__fixtures__/random-json-document';
import { JSON_NUMBER_FORMS } from './__fixtures__/json-number-forms';
import { IncompleteJsonError, InvalidJsonError } from './partial-json-errors';
import {
  createPartialJsonParser,
  type PartialJson,
  type PartialJsonParserOptions,
} from './partial-json-parser';

/** Feeds the chunks, returning every PartialJson (with completePaths read) and the end() value. */
function stream(
  chunks: readonly string[],
  options?: PartialJsonParserOptions,
): { steps: PartialJson[]; paths: string[][]; final: unknown } {
  const parser = createPartialJsonParser(options);
  const steps: PartialJson[] = [];
  const paths: string[][] = [];
  for (const chunk of chunks) {
    const step = parser.push(chunk);
    steps.push(step);
    paths.push([...step.completePaths]);
  }
  return { steps, paths, final: parser.end() };
}

/** Values seen after each chunk, deep-copied (the default mode mutates one value in place). */
function views(chunks: readonly string[], options?: PartialJsonParserOptions): unknown[] {
  const parser = createPartialJsonParser(options);
  return chunks.map((chunk) => structuredClone(parser.push(chunk).value));
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
}

/**
 * Checks that `partial` is a prefix-consistent view of `final`: every complete leaf equals the final
 * one, a partial string is a prefix, arrays are prefixes (the last element may be partial), objects
 * hold a subset of the keys (the last one may be partial).
 */
function expectConsistent(partial: unknown, final: unknown, path = ''): void {
  if (partial === undefined) return;
  if (typeof partial === 'string') {
    expect(typeof final, path).toBe('string');
    expect(
      (final as string).startsWith(partial),
      `${path}: ${JSON.stringify(partial)} is a prefix`,
    ).toBe(true);
    return;
  }
  if (Array.isArray(partial)) {
    expect(Array.isArray(final), path).toBe(true);
    const finalArray = final as unknown[];
    expect(partial.length, path).toBeLessThanOrEqual(finalArray.length);
    partial.forEach((item, index) => {
      if (index < partial.length - 1) expect(item, `${path}/${index}`).toEqual(finalArray[index]);
      else expectConsistent(item, finalArray[index], `${path}/${index}`);
    });
    return;
  }
  if (typeof partial === 'object' && partial !== null) {
    expect(typeof final === 'object' && final !== null && !Array.isArray(final), path).toBe(true);
    for (const [key, value] of Object.entries(partial)) {
      expect(Object.hasOwn(final as object, key), `${path}/${key} exists`).toBe(true);
      expectConsistent(value, (final as Record<string, unknown>)[key], `${path}/${key}`);
    }
    return;
  }
  expect(partial, path).toEqual(final);
}

function allTwoSplits(text: string): string[][] {
  const splits: string[][] = [];
  for (let cut = 0; cut <= text.length; cut++) splits.push([text.slice(0, cut), text.slice(cut)]);
  return splits;
}

const SAMPLE =
  '{"a": [1, -2.5e+3, 0, "x\\u00e9\\ud83d\\ude00\\n\\"y", true, false, null], "b": {"c~/d": "héllo 😀", "e": []}, "f": {}, "g": -0.001E-2}';

describe('createPartialJsonParser', () => {
  it('parses a whole document in one chunk and reports it done', () => {
    const parser = createPartialJsonParser();
    const step = parser.push(SAMPLE);
    expect(step.done).toBe(true);
    expect(step.value).toEqual(JSON.parse(SAMPLE));
    expect(parser.end()).toEqual(JSON.parse(SAMPLE));
  });

  it('shows finished members, open containers and open string prefixes', () => {
    expect(views(['{"city": "Par', 'is", "days": [1, 2', ', 3], "unit"', ': "c"}'])).toEqual([
      { city: 'Par' },
      { city: 'Paris', days: [1] },
      { city: 'Paris', days: [1, 2, 3] },
      { city: 'Paris', days: [1, 2, 3], unit: 'c' },
    ]);
  });

  it('withholds a number until it cannot grow', () => {
    expect(views(['[12', '3', ', 4', '5]'])).toEqual([[], [], [123], [123, 45]]);
    const parser = createPartialJsonParser();
    expect(parser.push('-12.5e3').value).toBeUndefined();
    expect(parser.end()).toBe(-12500);
  });

  it('gives the JSON.parse double for every number form, whole or split at any point', () => {
    for (const number of JSON_NUMBER_FORMS) {
      const expected = JSON.parse(`[${number}]`) as unknown;
      for (const split of allTwoSplits(`[${number}]`)) {
        const value = stream(split).final as number[];
        expect(
          Object.is(value[0], (expected as number[])[0]),
          `${number} split ${split.join('|')}`,
        ).toBe(true);
      }
      const topLevel = stream([number]).final;
      expect(Object.is(topLevel, JSON.parse(number)), number).toBe(true);
    }
  });

  it('gives the JSON.parse double for 20 000 random numbers split at a random point', () => {
    const random = createRandom(424242);
    const digits = (count: number): string => {
      let out = String(1 + Math.floor(random() * 9));
      for (let index = 1; index < count; index++) out += String(Math.floor(random() * 10));
      return out;
    };
    for (let round = 0; round < 20_000; round++) {
      let number = random() < 0.3 ? '-' : '';
      number += random() < 0.15 ? '0' : digits(1 + Math.floor(random() * 18));
      if (random() < 0.6)
        number += `.${'0'.repeat(random() < 0.3 ? Math.floor(random() * 5) : 0)}${digits(1 + Math.floor(random() * 17))}`;
      if (random() < 0.3)
        number += `${random() < 0.5 ? 'e' : 'E'}${['', '+', '-'][Math.floor(random() * 3)] as string}${Math.floor(random() * (random() < 0.1 ? 400 : 30))}`;
      const text = `[${number},1]`;
      const cut = Math.floor(random() * text.length);
      const value = stream([text.slice(0, cut), text.slice(cut)]).final as number[];
      expect(Object.is(value[0], JSON.parse(number)), `${number} split at ${cut}`).toBe(true);
    }
  });

  it('does not show a key until it is complete, nor a member before its value starts', () => {
    expect(views(['{"ab', 'c"', ':', ' "', 'v"}'])).toEqual([
      {},
      {},
      {},
      { abc: '' },
      { abc: 'v' },
    ]);
  });

  it('leaves open strings out with partialStrings: false', () => {
    expect(views(['{"a": "xy', 'z", "b": "q', '"}'], { partialStrings: false })).toEqual([
      {},
      { a: 'xyz' },
      { a: 'xyz', b: 'q' },
    ]);
  });

  it('handles literals, escapes and \\u escapes split across chunks', () => {
    expect(stream(['[tr', 'ue, f', 'als', 'e, n', 'ull]']).final).toEqual([true, false, null]);
    expect(stream(['"a\\', 'nb\\u', '00', 'e9\\', '""']).final).toBe('a\nbé"');
    expect(views(['"a\\', 'nb\\u00', 'e9"'])).toEqual(['a', 'a\nb', 'a\nbé']);
  });

  it('holds back half a surrogate pair, escaped or raw, until its other half arrives', () => {
    expect(views(['"x\\ud83d', '\\ude00"'])).toEqual(['x', 'x😀']);
    expect(views(['"x\\ud8', '3d\\u', 'de00y"'])).toEqual(['x', 'x', 'x😀y']);
    const raw = '"x😀y"';
    expect(views([raw.slice(0, 3), raw.slice(3)])).toEqual(['x', 'x😀y']);
    // A lone surrogate is still valid JSON and kept, as JSON.parse keeps it.
    expect(stream(['"\\ud800', 'a"']).final).toBe(JSON.parse('"\\ud800a"'));
    expect(stream(['"\\ud800\\ud83d\\ude00"']).final).toBe(JSON.parse('"\\ud800\\ud83d\\ude00"'));
  });

  it('keeps __proto__ as an own key, as JSON.parse does', () => {
    const value = stream(['{"__proto__": {"x": 1}, "a": 2}']).final as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(value).toEqual(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'));
  });

  it('reports the JSON Pointers completed by each push, innermost first', () => {
    const { paths } = stream(['{"a": [1, {"b~/": "x"', '}], "c": tru', 'e}']);
    expect(paths).toEqual([
      ['/a/0', '/a/1/b~0~1'],
      ['/a/1', '/a'],
      ['/c', ''],
    ]);
  });

  it('parses scalars at the top level', () => {
    expect(stream(['"ab', 'c"']).final).toBe('abc');
    expect(stream(['4', '2', ' ']).final).toBe(42);
    expect(stream(['nu', 'll']).final).toBeNull();
  });

  it('gives the JSON.parse value for every 2-split of a small document', () => {
    const expected = JSON.parse(SAMPLE) as unknown;
    for (const split of allTwoSplits(SAMPLE)) {
      const { steps, final } = stream(split, { snapshots: true });
      expect(final).toEqual(expected);
      for (const step of steps) expectConsistent(step.value, expected);
    }
  });

  it('gives the JSON.parse value for a sample of 3-splits', () => {
    const expected = JSON.parse(SAMPLE) as unknown;
    const random = createRandom(3);
    for (let sample = 0; sample < 400; sample++) {
      const [first, second] = [
        Math.floor(random() * (SAMPLE.length + 1)),
        Math.floor(random() * (SAMPLE.length + 1)),
      ].sort((a, b) => a - b) as [number, number];
      const split = [SAMPLE.slice(0, first), SAMPLE.slice(first, second), SAMPLE.slice(second)];
      const { steps, final } = stream(split, { snapshots: true });
      expect(final).toEqual(expected);
      for (const step of steps) expectConsistent(step.value, expected);
    }
  });

  it('matches JSON.parse on random documents split at random points (fuzz)', () => {
    const random = createRandom(20261129);
    for (let round = 0; round < 300; round++) {
      const text = randomJsonText(random, { depth: 5, whitespace: true });
      const expected = JSON.parse(text) as unknown;
      const chunks = splitRandomly(text, random, { min: 1, max: 1 + Math.floor(random() * 12) });
      const { steps, paths, final } = stream(chunks, { snapshots: true });
      expect(final, text).toEqual(expected);
      steps.forEach((step) => expectConsistent(step.value, expected));
      // Every reported path is complete: its value already equals the final one.
      steps.forEach((step, index) => {
        for (const pointer of paths[index] as string[])
          expect(valueAt(step.value, pointer), `${text} ${pointer}`).toEqual(
            valueAt(expected, pointer),
          );
      });
      // Each value completes exactly once (a top-level number only at end()).
      const reported = paths.flat();
      if (steps.at(-1)?.done !== true) reported.push('');
      expect(reported.sort()).toEqual(allPointers(expected).sort());
      // The in-place mode builds the same value.
      expect(stream(chunks).final).toEqual(expected);
    }
  });

  it('streams the benchmark tool-argument documents to the JSON.parse value, every view consistent', () => {
    const random = createRandom(20261130);
    for (const size of [2 * 1024, 16 * 1024]) {
      const text = toolArgumentDocument(size, size);
      const expected = JSON.parse(text) as unknown;
      const chunks = splitRandomly(text, random, { min: 4, max: 16 });
      const parser = createPartialJsonParser();
      for (const chunk of chunks) expectConsistent(parser.push(chunk).value, expected);
      expect(parser.end()).toEqual(expected);
    }
  });

  it('in place mode returns the same live object on every push', () => {
    const parser = createPartialJsonParser();
    const first = parser.push('{"a": {"b": 1,').value;
    const second = parser.push(' "c": [2]}, "d": "x"').value;
    expect(second).toBe(first);
    expect(first).toEqual({ a: { b: 1, c: [2] }, d: 'x' });
  });

  it('in place mode updates one PartialJson; snapshots give each push its own', () => {
    const parser = createPartialJsonParser();
    const first = parser.push('{"a": 1, "b": [true');
    expect(first.completePaths).toEqual(['/a', '/b/0']);
    const second = parser.push(', 2]}');
    expect(second).toBe(first);
    expect([second.completePaths, second.done]).toEqual([['/b/1', '/b', ''], true]);

    const snapshots = createPartialJsonParser({ snapshots: true });
    const before = snapshots.push('{"a": 1, "b": [true');
    const after = snapshots.push(', 2]}');
    expect(after).not.toBe(before);
    expect([before.completePaths, before.done]).toEqual([['/a', '/b/0'], false]);
    expect([after.completePaths, after.done]).toEqual([['/b/1', '/b', ''], true]);
  });

  it('snapshots: untouched subtrees keep their identity, the changed path gets new objects', () => {
    const parser = createPartialJsonParser({ snapshots: true });
    const one = parser.push('{"done": {"x": [1, 2]}, "list": [{"a": 1}, {"b": "te').value;
    const frozenCopy = structuredClone(one);
    const two = parser.push('xt"}], "more": 1').value;
    expect(two).not.toBe(one);
    expect(valueAt(two, '/done')).toBe(valueAt(one, '/done'));
    expect(valueAt(two, '/list')).not.toBe(valueAt(one, '/list'));
    expect(valueAt(two, '/list/0')).toBe(valueAt(one, '/list/0'));
    expect(valueAt(two, '/list/1')).not.toBe(valueAt(one, '/list/1'));
    expect(two).toEqual({ done: { x: [1, 2] }, list: [{ a: 1 }, { b: 'text' }] });
    // The earlier snapshot was not mutated.
    expect(one).toEqual(frozenCopy);
    const three = parser.push(', "tail": "z"}').value;
    expect(valueAt(three, '/list')).toBe(valueAt(two, '/list'));
    expect(valueAt(three, '/done')).toBe(valueAt(one, '/done'));
    expect(three).toEqual({
      done: { x: [1, 2] },
      list: [{ a: 1 }, { b: 'text' }],
      more: 1,
      tail: 'z',
    });
    expect(two).toEqual({ done: { x: [1, 2] }, list: [{ a: 1 }, { b: 'text' }] });
  });

  it('snapshots: a push that changes nothing returns the same value', () => {
    const parser = createPartialJsonParser({ snapshots: true });
    const one = parser.push('{"a": "x').value;
    expect(parser.push('').value).toBe(one);
  });

  describe('invalid JSON', () => {
    const cases: Array<[string, number, string]> = [
      ['{"a":1,}', 7, '}'],
      ['[1 2]', 3, '2'],
      ['{"a" 1}', 5, '1'],
      ['"ab\u0001"', 3, '\u0001'],
      ['1 2', 2, '2'],
      ['{} x', 3, 'x'],
      ['[01]', 2, '1'],
      ['{"a":-}', 6, '}'],
      ['[1.]', 3, ']'],
      ['[1e]', 3, ']'],
      ['"\\x"', 2, 'x'],
      ['"\\u12g4"', 5, 'g'],
      ['{"k\\n\\u00e9\\q":1}', 12, 'q'],
      ['"a\\n\\u00e9\\uD83D\\u12x4"', 20, 'x'],
      ['"\\t\\u0041\u0002"', 9, '\u0002'],
      ['[tru e]', 4, ' '],
      ['{"a":1]', 6, ']'],
      ['[1}', 2, '}'],
      ['{1:2}', 1, '1'],
      ['[,1]', 1, ','],
      ['nul', -1, ''],
    ];
    it.each(cases.filter((entry) => entry[1] >= 0))(
      '%j fails at %i on %j, at the chunk where it breaks',
      (text, position, found) => {
        expect(() => {
          JSON.parse(text);
        }).toThrow();
        // Fed one character at a time, only the offending character's push throws.
        const parser = createPartialJsonParser();
        for (let index = 0; index < position; index++) parser.push(text.charAt(index));
        let error: unknown;
        try {
          parser.push(text.charAt(position));
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(InvalidJsonError);
        expect(ToolgateError.isInstance(error)).toBe(true);
        const details = (error as InvalidJsonError).details;
        expect((error as InvalidJsonError).code).toBe('invalid_json');
        expect(details).toMatchObject({ position, found });
        expect(details?.expected.length).toBeGreaterThan(0);
        // The error is sticky.
        expect(() => parser.push('1')).toThrow(InvalidJsonError);
      },
    );

    it.each(cases.filter((entry) => entry[1] >= 0))(
      '%j fails at %i on %j also whole and split at any point',
      (text, position, found) => {
        // Whole-chunk paths (escapes decoded in one go, compact punctuation) report the same place.
        for (let split = 0; split <= text.length; split++) {
          const parser = createPartialJsonParser();
          let error: unknown;
          try {
            parser.push(text.slice(0, split));
            parser.push(text.slice(split));
          } catch (caught) {
            error = caught;
          }
          expect(error, `split at ${split}`).toBeInstanceOf(InvalidJsonError);
          expect((error as InvalidJsonError).details, `split at ${split}`).toMatchObject({
            position,
            found,
          });
        }
      },
    );

    it('reports the offset in the whole document across chunks', () => {
      const parser = createPartialJsonParser();
      parser.push('{"items": [1, 2, ');
      parser.push('3, 4');
      expect(() => parser.push(' 5]}')).toThrow(
        expect.objectContaining({
          details: { position: 22, found: '5', expected: [',', ']'] },
        }) as Error,
      );
    });

    it('has a readable message', () => {
      expect(() => createPartialJsonParser().push('{"a" 1}')).toThrow(
        'Invalid JSON at position 5: found "1", expected ":"',
      );
    });
  });

  describe('end()', () => {
    it('throws incomplete_arguments on an unfinished document', () => {
      for (const text of ['', '{', '{"a"', '{"a":', '{"a": "x', '[1,', 'tr', '-', '1.', '"\\u12']) {
        const parser = createPartialJsonParser();
        parser.push(text);
        expect(() => parser.end(), text).toThrow(IncompleteJsonError);
        try {
          parser.end();
        } catch (error) {
          expect((error as IncompleteJsonError).code).toBe('incomplete_arguments');
          expect((error as IncompleteJsonError).details?.position).toBe(text.length);
        }
      }
    });

    it("describes where an unfinished document stopped with incomplete: 'partial'", () => {
      const cutOf = (text: string, chunks = 1): unknown => {
        const parser = createPartialJsonParser({ incomplete: 'partial' });
        const size = Math.ceil(text.length / chunks);
        for (let start = 0; start < text.length; start += size)
          parser.push(text.slice(start, start + size));
        expect(parser.cut()).toBeUndefined();
        parser.end();
        return parser.cut();
      };
      const root = { kind: 'object', slot: undefined, complete: 0 };
      expect(cutOf('{"a": 1')).toEqual({ open: [root], at: { kind: 'number', slot: 'a' } });
      expect(cutOf('{"a": 1 ')).toEqual({ open: [root], at: { kind: 'between' } });
      expect(cutOf('{"a": "x', 3)).toEqual({ open: [root], at: { kind: 'string', slot: 'a' } });
      expect(cutOf('{"a": tr')).toEqual({
        open: [root],
        at: { kind: 'literal', slot: 'a', literal: 'true' },
      });
      expect(cutOf('{"a": 1, "b')).toEqual({ open: [root], at: { kind: 'member_name' } });
      expect(cutOf('{"a": 1, "b"')).toEqual({
        open: [root],
        at: { kind: 'member_name', key: 'b' },
      });
      expect(cutOf('{"a": ')).toEqual({ open: [root], at: { kind: 'value_start', slot: 'a' } });
      expect(cutOf('{"a": [1, {"b": [')).toEqual({
        open: [
          root,
          { kind: 'array', slot: 'a', complete: 1 },
          { kind: 'object', slot: 1, complete: 0 },
          { kind: 'array', slot: 'b', complete: 0 },
        ],
        at: { kind: 'value_start', slot: 0 },
      });
      expect(cutOf('{"a": 1}')).toBeUndefined();
      expect(cutOf('')).toEqual({ open: [], at: { kind: 'nothing' } });
    });

    it("returns the partial value with incomplete: 'partial'", () => {
      const parser = createPartialJsonParser({ incomplete: 'partial' });
      parser.push('{"a": [1, 2], "b": "hal');
      expect(parser.end()).toEqual({ a: [1, 2], b: 'hal' });
      const numbers = createPartialJsonParser({ incomplete: 'partial' });
      numbers.push('[1, 23');
      expect(numbers.end()).toEqual([1, 23]);
    });

    it('accepts trailing whitespace and finishes a top-level number', () => {
      const parser = createPartialJsonParser();
      parser.push('{"a": 1} \n\t ');
      parser.push('  \r\n');
      expect(parser.end()).toEqual({ a: 1 });
      const number = createPartialJsonParser();
      number.push('-0.5e-3');
      expect(number.end()).toBe(-0.0005);
    });

    it('refuses input after end()', () => {
      const parser = createPartialJsonParser();
      parser.push('{}');
      parser.end();
      expect(() => parser.push(' ')).toThrow(InvalidJsonError);
    });
  });
});

function allPointers(value: unknown, pointer = ''): string[] {
  const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
  if (Array.isArray(value))
    return [...value.flatMap((item, index) => allPointers(item, `${pointer}/${index}`)), pointer];
  if (typeof value === 'object' && value !== null) {
    return [
      ...Object.entries(value).flatMap(([key, item]) =>
        allPointers(item, `${pointer}/${escape(key)}`),
      ),
      pointer,
    ];
  }
  return [pointer];
}

describe('deep documents', () => {
  it('parses 20 000 nested arrays in snapshot mode and reports deep pointers without recursion limits', () => {
    const depth = 20_000;
    const text = `${'['.repeat(depth)}"x"${']'.repeat(depth)}`;
    const parser = createPartialJsonParser({ snapshots: true });
    parser.push(text.slice(0, depth + 2));
    const step = parser.push(text.slice(depth + 2, depth + 5));
    expect(step.completePaths[0]).toBe('/0'.repeat(depth));
    parser.push(text.slice(depth + 5));
    let value = parser.end();
    for (let level = 0; level < depth; level++) value = (value as unknown[])[0];
    expect(value).toBe('x');
  });

  it('keeps the last of duplicate keys, in the first key position, as JSON.parse does', () => {
    const text = '{"a": 1, "b": 2, "a": {"c": 3}}';
    const parser = createPartialJsonParser();
    parser.push(text);
    const value = parser.end();
    expect(value).toEqual(JSON.parse(text));
    expect(Object.keys(value as object)).toEqual(['a', 'b']);
  });
});
