import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, findJsonTextProblem, findValueTextProblem } from './strict-json';

describe('findJsonTextProblem', () => {
  it('accepts ordinary documents, escapes and surrogate pairs included', () => {
    expect(findJsonTextProblem('{"a":[1,{"b":"x\\"y"}],"c":"\\ud83d\\ude00 😀"}')).toBeUndefined();
    expect(findJsonTextProblem('[{"a":1},{"a":2}]')).toBeUndefined();
  });

  it('names a key that appears twice, escaped spellings included', () => {
    expect(findJsonTextProblem('{"visibility":"private","visibility":"public"}')).toEqual({
      pointer: '/visibility',
      message: 'this key appears twice in one object',
    });
    expect(findJsonTextProblem('{"x":{"a":1,"\\u0061":2}}')?.pointer).toBe('/x/a');
  });

  it('names a NUL or a lone surrogate in a value or a key', () => {
    expect(findJsonTextProblem('{"calls":[{"q":"a\\u0000"}]}')).toEqual({
      pointer: '/calls/0/q',
      message: 'contains a NUL character (\\u0000)',
    });
    expect(findJsonTextProblem('{"name":"\\ud800"}')?.message).toBe(
      'contains a lone UTF-16 surrogate',
    );
    expect(findJsonTextProblem('{"\\udc00":1}')?.pointer).toBe('/\udc00');
    expect(findJsonTextProblem('["ok","\\ud800x"]')?.pointer).toBe('/1');
  });

  it('refuses nesting deeper than the limit without recursion', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expect(findJsonTextProblem(deep)?.message).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    const fine = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(findJsonTextProblem(fine)).toBeUndefined();
  });

  it('escapes pointer tokens', () => {
    expect(findJsonTextProblem('{"a/b~":{"k":1,"k":2}}')?.pointer).toBe('/a~1b~0/k');
  });
});

describe('findValueTextProblem', () => {
  it('walks a parsed value for NUL, lone surrogates and depth', () => {
    expect(findValueTextProblem({ a: ['x', { b: 'y\u0000' }] }, '/arguments')).toEqual({
      pointer: '/arguments/a/1/b',
      message: 'contains a NUL character (\\u0000)',
    });
    let deep: unknown = 'leaf';
    for (let level = 0; level < 10_000; level += 1) deep = [deep];
    expect(findValueTextProblem(deep)?.message).toContain('nests deeper');
    expect(findValueTextProblem({ ok: ['fine', 1, null, true] })).toBeUndefined();
  });
});
