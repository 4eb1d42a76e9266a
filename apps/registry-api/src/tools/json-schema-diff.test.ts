import { describe, expect, it } from 'vitest';
import { diffInputSchemas, type SchemaChangeKind } from './json-schema-diff';

const base = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, maxLength: 100 },
    units: { type: 'string', enum: ['metric', 'imperial'] },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
};

function kinds(
  after: Record<string, unknown>,
  before: Record<string, unknown> = base,
): Array<[SchemaChangeKind, boolean]> {
  return diffInputSchemas(before, after).map((change) => [change.kind, change.breaking]);
}

function withProperty(name: string, schema: unknown): Record<string, unknown> {
  return { ...base, properties: { ...base.properties, [name]: schema } };
}

describe('diffInputSchemas', () => {
  it('finds nothing between equal schemas', () => {
    expect(diffInputSchemas(base, structuredClone(base))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, Array<[SchemaChangeKind, boolean]>]>([
    [
      'a removed property',
      {
        ...base,
        properties: {
          city: base.properties.city,
          units: base.properties.units,
          days: base.properties.days,
        },
      },
      [['property_removed', true]],
    ],
    [
      'an optional property added',
      withProperty('lang', { type: 'string' }),
      [['property_added', false]],
    ],
    [
      'a newly required property',
      { ...base, required: ['city', 'units'] },
      [['required_added', true]],
    ],
    ['a required property made optional', { ...base, required: [] }, [['required_removed', false]]],
    [
      'a type changed (integer to string)',
      withProperty('days', { type: 'string' }),
      [
        ['type_narrowed', true],
        ['type_widened', false],
        ['constraint_loosened', false],
        ['constraint_loosened', false],
      ],
    ],
    [
      'a type widened',
      withProperty('city', { type: ['string', 'null'], minLength: 1, maxLength: 100 }),
      [['type_widened', false]],
    ],
    [
      'an enum value removed',
      withProperty('units', { type: 'string', enum: ['metric'] }),
      [['enum_value_removed', true]],
    ],
    [
      'an enum value added',
      withProperty('units', { type: 'string', enum: ['metric', 'imperial', 'kelvin'] }),
      [['enum_value_added', false]],
    ],
    [
      'an enum introduced',
      withProperty('city', { type: 'string', minLength: 1, maxLength: 100, enum: ['Paris'] }),
      [['enum_added', true]],
    ],
    [
      'additionalProperties closed',
      { ...base, additionalProperties: false },
      [['additional_properties_closed', true]],
    ],
    [
      'a minimum raised',
      withProperty('days', { type: 'integer', minimum: 2, maximum: 14 }),
      [['constraint_tightened', true]],
    ],
    [
      'a maximum lowered',
      withProperty('days', { type: 'integer', minimum: 1, maximum: 7 }),
      [['constraint_tightened', true]],
    ],
    [
      'a maximum raised',
      withProperty('days', { type: 'integer', minimum: 1, maximum: 30 }),
      [['constraint_loosened', false]],
    ],
    [
      'a maxLength added to array items',
      withProperty('tags', { type: 'array', items: { type: 'string', maxLength: 5 } }),
      [['constraint_tightened', true]],
    ],
    [
      'a pattern added',
      withProperty('city', { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Z]' }),
      [['constraint_tightened', true]],
    ],
    [
      'uniqueItems required',
      withProperty('tags', { type: 'array', items: { type: 'string' }, uniqueItems: true }),
      [['constraint_tightened', true]],
    ],
  ])('classifies %s', (_label, after, expected) => {
    expect(kinds(after)).toEqual(expected);
  });

  it('reports paths as JSON Pointers into the new schema', () => {
    const [change] = diffInputSchemas(
      base,
      withProperty('units', { type: 'string', enum: ['metric'] }),
      '/parameters',
    );
    expect(change).toMatchObject({
      path: '/parameters/properties/units/enum',
      message: 'enum value "imperial" was removed',
    });
  });

  it('compares nested objects and anyOf variants', () => {
    const before = {
      type: 'object',
      properties: { filter: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    };
    const after = { type: 'object', properties: { filter: { anyOf: [{ type: 'string' }] } } };
    expect(diffInputSchemas(before, after)).toEqual([
      expect.objectContaining({
        kind: 'variant_removed',
        breaking: true,
        path: '/properties/filter/anyOf/1',
      }),
    ]);
  });

  it('treats a changed $ref as breaking, since references are not resolved', () => {
    const before = { type: 'object', properties: { item: { $ref: '#/$defs/a' } } };
    const after = { type: 'object', properties: { item: { $ref: '#/$defs/b' } } };
    expect(kinds(after, before)).toEqual([['reference_changed', true]]);
  });
});
