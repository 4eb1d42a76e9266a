import { describe, expect, it } from 'vitest';
import { ToolReporter } from '../downgrade-report';
import { acceptsNull } from './accepts-null';
import { dropStrictNulls } from './drop-strict-nulls';
import { inlineRefs } from './inline-refs';

const schema = {
  type: 'object',
  properties: {
    a: { type: 'string' },
    b: { type: ['string', 'null'] },
    c: { type: 'object', properties: { d: { type: 'integer' } } },
    e: { type: 'array', items: { $ref: '#/$defs/Item' } },
    r: { type: 'string' },
  },
  required: ['r'],
  $defs: { Item: { type: 'object', properties: { f: { enum: ['x', 'y'] } } } },
};

describe('dropStrictNulls', () => {
  it('removes nulls only where the property is optional and does not accept null, at any depth', () => {
    const args = {
      a: null,
      b: null,
      c: { d: null },
      e: [{ f: null }, { f: 'x' }],
      r: null,
      extra: null,
    };
    expect(dropStrictNulls(args, schema, schema)).toEqual({
      b: null,
      c: {},
      e: [{}, { f: 'x' }],
      r: null,
      extra: null,
    });
  });

  it('acceptsNull follows types, enums, const, anyOf and $ref', () => {
    expect(acceptsNull({ anyOf: [{ type: 'string' }, { type: 'null' }] }, {})).toBe(true);
    expect(acceptsNull({ enum: ['a', null] }, {})).toBe(true);
    expect(acceptsNull({ type: ['string', 'null'], enum: ['a'] }, {})).toBe(false);
    expect(acceptsNull({ const: 'a' }, {})).toBe(false);
    expect(acceptsNull({ $ref: '#/$defs/Item' }, schema)).toBe(false);
    expect(acceptsNull({}, {})).toBe(true);
  });
});

describe('inlineRefs', () => {
  it('inlines definitions, lets sibling keys override, and reports unresolvable refs', () => {
    const reporter = new ToolReporter('t');
    const result = inlineRefs(
      {
        type: 'object',
        properties: {
          a: { $ref: '#/$defs/A', description: 'mine' },
          b: { $ref: 'https://example.com/x.json' },
        },
        $defs: { A: { type: 'string', description: 'theirs' } },
      },
      reporter,
      { maxRecursion: 1 },
    );
    expect(result).toEqual({
      type: 'object',
      properties: { a: { type: 'string', description: 'mine' }, b: {} },
    });
    expect(
      reporter.entries.map((entry) => `${entry.path} ${entry.keyword} ${entry.action}`),
    ).toEqual(['/properties/b $ref dropped', '/$defs $defs rewritten']);
  });
});
