import { describe, expect, it } from 'vitest';
import { findUnguardedCycles } from './find-unguarded-cycles';

describe('findUnguardedCycles', () => {
  it.each([
    ['a root self-reference', { $ref: '#' }, '/$ref'],
    [
      'a definition referring to itself',
      { properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/a' } } },
      '/$defs/a/$ref',
    ],
    [
      'a cycle through allOf',
      { $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } } },
      '/$defs/a/allOf/0/$ref',
    ],
    [
      'a cycle through anyOf',
      { allOf: [{ anyOf: [{ type: 'string' }, { $ref: '#' }] }] },
      '/allOf/0/anyOf/1/$ref',
    ],
    [
      'mutual refs',
      { $defs: { a: { $ref: '#/$defs/b' }, b: { not: { $ref: '#/$defs/a' } } } },
      '/$defs/b/not/$ref',
    ],
    ['a cycle through then', { if: true, then: { $ref: '#' } }, '/then/$ref'],
  ])('reports %s', (_name, schema, path) => {
    expect(findUnguardedCycles(schema).map((issue) => issue.path)).toEqual([path]);
  });

  it.each([
    [
      'a tree through items',
      { $defs: { n: { properties: { c: { type: 'array', items: { $ref: '#/$defs/n' } } } } } },
    ],
    ['a self-reference under properties', { properties: { parent: { $ref: '#' } } }],
    [
      'a list through anyOf under properties',
      { properties: { next: { anyOf: [{ type: 'null' }, { $ref: '#' }] } } },
    ],
    [
      'a chain of aliases',
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/c' }, c: { type: 'string' } } },
    ],
    [
      'an unused definition pointing at the root',
      { properties: {}, $defs: { a: { properties: { x: { $ref: '#' } } } } },
    ],
    ['an unresolvable ref (reported elsewhere)', { $ref: '#/$defs/missing' }],
  ])('accepts %s', (_name, schema) => {
    expect(findUnguardedCycles(schema)).toEqual([]);
  });

  it('prefixes paths with basePath', () => {
    expect(findUnguardedCycles({ $ref: '#' }, '/parameters')).toEqual([
      { path: '/parameters/$ref', message: expect.stringContaining('never descends') },
    ]);
  });
});
