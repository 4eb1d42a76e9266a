import { describe, expect, it } from 'vitest';
import { JSON_NUMBER_FORMS } from './__fixtures__/json-number-forms';
import { createRandom, randomJsonText } from './__fixtures__/random-json-document';
import { createPartialJsonParser, type PartialJsonParserOptions } from './partial-json-parser';

/**
 * Differential checks against JSON.parse at every split point, for the paths the parser treats
 * specially: keys (cached and not, with escapes, colliding hashes, `__proto__`), every escape form,
 * surrogate pairs, every number form, nesting. Every partial view must be consistent with the
 * final value, and every JSON Pointer must be reported complete exactly once, holding its final value.
 */

const DOCUMENTS = [
  // Repeated schema keys (key cache hits), keys that are prefixes of one another.
  '{"name":"a","names":["b"],"nam":1,"nameX":{"name":"c","names":[]},"records":[{"id":1,"name":"x"},{"id":2,"name":"y"},{"id":3,"name":"z"}]}',
  // Keys whose hashes collide ("Aa" and "BB"), the empty key, a long key beyond the cache.
  `{"Aa":1,"BB":2,"":3,"AaBB":4,"BBAa":5,"${'k'.repeat(40)}":6,"${'k'.repeat(39)}":7,"list":[{"Aa":"x","BB":"y"},{"BB":"z","Aa":"w"}]}`,
  // `__proto__` plain, escaped and as a nested key, and keys with every escape form (all distinct:
  // with duplicates JSON.parse keeps the last value, which the consistency check does not model).
  '{"__proto__":{"x":1},"a\\"b":3,"a\\\\b":4,"a\\/b":5,"\\b\\f\\n\\r\\t":6,"\\u00e9t":7,"é":8,"\\ud83d\\ude00!":9,"😀":10,"n":{"\\u005f_proto__":[],"m":{"__proto__":2}}}',
  // Every escape in values, surrogate pairs escaped (both cases), raw astral characters, lone surrogates.
  '["\\"\\\\\\/\\b\\f\\n\\r\\t","\\u0041\\u00e9\\u4e2d\\uD83D\\uDE00\\ud834\\udd1e","a😀b𝄞c","\\ud800","\\udc00x","\\ud800\\ud83d\\ude00","x\\u0000y","\u2028\u2029", "日本語 テキスト"]',
  // Numbers of every form in arrays and objects, and as the last value before a bracket.
  `{"n":[${JSON_NUMBER_FORMS.join(',')}],"o":{${JSON_NUMBER_FORMS.map((number, index) => `"k${index}":${number}`).join(',')}},"last":-0.5e-3}`,
  // Nesting, empty containers, literals, whitespace between every token.
  ' { "a" : [ [ ] , { } , [ [ 1 , [ true , false , null ] ] ] , { "b" : { "c" : [ { } ] } } ] ,\n\t"d" : "" , "e" : [ "" ] } ',
];

/** Deep equality that tells -0 from 0, as JSON.parse does. */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null) return Object.is(actual, expected);
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => sameValue(actual[index], item))
    );
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  if (Object.getPrototypeOf(actual) !== Object.prototype) return false;
  const keys = Object.keys(expected);
  return (
    sameValue(Object.keys(actual), keys) &&
    keys.every((key) =>
      sameValue(
        (actual as Record<string, unknown>)[key],
        (expected as Record<string, unknown>)[key],
      ),
    )
  );
}

/**
 * The documented partial semantics: complete members equal the final ones, an open string is a
 * prefix of the final one, arrays are prefixes (the last element may be partial), objects hold a
 * prefix of the final keys in order (the last one may be partial), numbers appear only complete.
 */
function consistent(partial: unknown, final: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof partial === 'string') return typeof final === 'string' && final.startsWith(partial);
  if (typeof partial === 'number' || typeof partial !== 'object' || partial === null)
    return Object.is(partial, final);
  if (Array.isArray(partial)) {
    if (!Array.isArray(final) || partial.length > final.length) return false;
    return partial.every((item, index) =>
      index < partial.length - 1 ? sameValue(item, final[index]) : consistent(item, final[index]),
    );
  }
  if (typeof final !== 'object' || final === null || Array.isArray(final)) return false;
  const keys = Object.keys(partial);
  const finalKeys = Object.keys(final);
  if (!sameValue(keys, finalKeys.slice(0, keys.length))) return false;
  return keys.every((key, index) => {
    const value = (partial as Record<string, unknown>)[key];
    const expected = (final as Record<string, unknown>)[key];
    return index < keys.length - 1 ? sameValue(value, expected) : consistent(value, expected);
  });
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], root);
}

function allPointers(value: unknown, pointer = ''): string[] {
  const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
  if (Array.isArray(value))
    return [...value.flatMap((item, index) => allPointers(item, `${pointer}/${index}`)), pointer];
  if (typeof value === 'object' && value !== null)
    return [
      ...Object.entries(value).flatMap(([key, item]) =>
        allPointers(item, `${pointer}/${escape(key)}`),
      ),
      pointer,
    ];
  return [pointer];
}

/** Streams the chunks and returns a description of the first discrepancy, or null. */
function check(
  text: string,
  chunks: readonly string[],
  options: PartialJsonParserOptions,
): string | null {
  const expected = JSON.parse(text) as unknown;
  const parser = createPartialJsonParser(options);
  const reported: string[] = [];
  let done = false;
  for (const [index, chunk] of chunks.entries()) {
    const step = parser.push(chunk);
    if (!consistent(step.value, expected))
      return `partial value after chunk ${index}: ${JSON.stringify(step.value)}`;
    for (const pointer of step.completePaths) {
      if (!sameValue(valueAt(step.value, pointer), valueAt(expected, pointer)))
        return `${pointer} reported complete after chunk ${index} but differs`;
      reported.push(pointer);
    }
    done = step.done;
  }
  const final = parser.end();
  if (!sameValue(final, expected)) return `final value ${JSON.stringify(final)}`;
  // A top-level value that only end() can finish (a number) is never reported by a push.
  if (!done) reported.push('');
  const sorted = (list: string[]): string[] => [...list].sort();
  if (!sameValue(sorted(reported), sorted(allPointers(expected))))
    return `reported pointers ${JSON.stringify(sorted(reported))}`;
  return null;
}

function splits2(text: string): string[][] {
  return Array.from({ length: text.length + 1 }, (_, cut) => [text.slice(0, cut), text.slice(cut)]);
}

const MODES: PartialJsonParserOptions[] = [{}, { snapshots: true }];

describe('createPartialJsonParser against JSON.parse', () => {
  it.each(DOCUMENTS.map((text) => [text.slice(0, 40), text]))(
    'every 2-split of %j, in place and with snapshots',
    (_, text) => {
      for (const options of MODES)
        for (const chunks of splits2(text))
          expect(check(text, chunks, options), `${chunks.join(' | ')}`).toBeNull();
    },
  );

  it('every number form, alone at the top level and split at every point', () => {
    for (const number of JSON_NUMBER_FORMS) {
      for (const chunks of splits2(number)) expect(check(number, chunks, {}), number).toBeNull();
      for (const chunks of splits2(`{"v":${number}}`))
        expect(check(`{"v":${number}}`, chunks, {}), number).toBeNull();
    }
  });

  it('sampled 3-splits and one-character chunks of every document', () => {
    const random = createRandom(77);
    for (const text of DOCUMENTS) {
      expect(check(text, [...text], {})).toBeNull();
      for (let sample = 0; sample < 300; sample++) {
        const [first, second] = [
          Math.floor(random() * (text.length + 1)),
          Math.floor(random() * (text.length + 1)),
        ].sort((a, b) => a - b) as [number, number];
        const chunks = [text.slice(0, first), text.slice(first, second), text.slice(second)];
        for (const options of MODES)
          expect(check(text, chunks, options), chunks.join(' | ')).toBeNull();
      }
    }
  });

  it('keys stay exact across parsers that share the key cache, beyond its size', () => {
    // 26 * 26 two-letter keys (more than the cache's slots) in several orders and documents,
    // interleaved with keys of the same hash: a wrong cache hit would show as a wrong key.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const keys = [...letters].flatMap((first) => [...letters].map((second) => first + second));
    const random = createRandom(5);
    for (let round = 0; round < 4; round++) {
      const order = [...keys].sort(() => random() - 0.5);
      const members = order.map((key, index) => `"${key}":${index},"Aa":${index},"BB":"${key}"`);
      // Duplicate keys: JSON.parse keeps the last value in the first position; so must the parser.
      const text = `{${members.join(',')}}`;
      const chunks: string[] = [];
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(random() * 12);
        chunks.push(text.slice(at, at + size));
        at += size;
      }
      const parser = createPartialJsonParser();
      for (const chunk of chunks) parser.push(chunk);
      expect(sameValue(parser.end(), JSON.parse(text))).toBe(true);
    }
  });

  it('random documents with every escape form, in chunks of 1 to 6 characters', () => {
    const random = createRandom(31337);
    for (let round = 0; round < 400; round++) {
      const text = randomJsonText(random, { depth: 4, whitespace: round % 2 === 0 });
      const chunks: string[] = [];
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(random() * 6);
        chunks.push(text.slice(at, at + size));
        at += size;
      }
      expect(check(text, chunks, round % 3 === 0 ? { snapshots: true } : {}), text).toBeNull();
    }
  });
});
