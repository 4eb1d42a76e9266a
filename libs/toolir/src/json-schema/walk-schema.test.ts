import { describe, expect, it } from 'vitest';
import { mapSchema, walkSchema, type SubschemaLocation } from './walk-schema';

describe('walkSchema', () => {
  it('visits every schema object, root first, with its pointer', () => {
    const schema = {
      type: 'object',
      properties: { 'a/b': { type: 'array', items: { type: 'string' } }, c: true },
      anyOf: [{ required: ['a/b'] }],
      $defs: { d: { not: { const: 1 } } },
    };
    const seen: SubschemaLocation[] = [];
    walkSchema(schema, (_subschema, location) => {
      seen.push(location);
    });
    expect(seen.map((location) => location.pointer)).toEqual([
      '',
      '/properties/a~1b',
      '/properties/a~1b/items',
      '/anyOf/0',
      '/$defs/d',
      '/$defs/d/not',
    ]);
    expect(seen[1]).toEqual({ pointer: '/properties/a~1b', keyword: 'properties', key: 'a/b' });
    expect(seen[2]).toEqual({ pointer: '/properties/a~1b/items', keyword: 'items' });
  });

  it('skips the subschemas of a node when visit returns false', () => {
    const seen: string[] = [];
    walkSchema({ properties: { a: { properties: { b: {} } } } }, (_subschema, location) => {
      seen.push(location.pointer);
      return location.pointer !== '/properties/a';
    });
    expect(seen).toEqual(['', '/properties/a']);
  });

  it('does not treat enum or const values as schemas', () => {
    const seen: string[] = [];
    walkSchema(
      { enum: [{ type: 'x' }], const: { properties: {} }, default: { items: {} } },
      (_subschema, location) => {
        seen.push(location.pointer);
      },
    );
    expect(seen).toEqual(['']);
  });
});

describe('mapSchema', () => {
  it('rebuilds bottom-up without changing the input', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', format: 'email' }, b: { anyOf: [{ format: 'uri' }] } },
    };
    const before = structuredClone(schema);
    const stripped = mapSchema(schema, (subschema) => {
      const { format: _format, ...rest } = subschema;
      return rest;
    });
    expect(stripped).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { anyOf: [{}] } },
    });
    expect(schema).toEqual(before);
  });

  it('can replace a subschema by a boolean schema', () => {
    expect(
      mapSchema({ properties: { a: { not: {} } } }, (subschema, location) =>
        location.keyword === 'properties' ? false : subschema,
      ),
    ).toEqual({
      properties: { a: false },
    });
  });
});
