import { describe, expect, it } from 'vitest';
import { schemaKeywords } from './schema-keywords';

describe('schemaKeywords', () => {
  it('lists keywords from every kind of subschema, sorted, without property names', () => {
    const schema = {
      type: 'object',
      properties: {
        minimum: { type: 'string', format: 'email' },
        list: { type: 'array', prefixItems: [{ const: 1 }], items: { multipleOf: 2 } },
      },
      patternProperties: { '^x-': { pattern: '^a' } },
      additionalProperties: { maxLength: 3 },
      dependentSchemas: { a: { minProperties: 1 } },
      propertyNames: { minLength: 1 },
      allOf: [{ title: 't' }],
      anyOf: [{ description: 'd' }],
      oneOf: [{ examples: [] }],
      not: { enum: [1] },
      if: { required: ['a'] },
      then: { maxProperties: 5 },
      else: { deprecated: true },
      contains: { exclusiveMinimum: 0 },
      unevaluatedProperties: { readOnly: true },
      $defs: { x: { $comment: 'c', uniqueItems: true } },
    };
    expect(schemaKeywords(schema)).toEqual([
      '$comment',
      '$defs',
      'additionalProperties',
      'allOf',
      'anyOf',
      'const',
      'contains',
      'dependentSchemas',
      'deprecated',
      'description',
      'else',
      'enum',
      'examples',
      'exclusiveMinimum',
      'format',
      'if',
      'items',
      'maxLength',
      'maxProperties',
      'minLength',
      'minProperties',
      'multipleOf',
      'not',
      'oneOf',
      'pattern',
      'patternProperties',
      'prefixItems',
      'properties',
      'propertyNames',
      'readOnly',
      'required',
      'then',
      'title',
      'type',
      'unevaluatedProperties',
      'uniqueItems',
    ]);
  });

  it('walks draft-07 style array items and definitions, and skips boolean schemas', () => {
    expect(
      schemaKeywords({
        items: [{ type: 'string' }, true],
        definitions: { a: { maximum: 1 } },
        additionalProperties: false,
      }),
    ).toEqual(['additionalProperties', 'definitions', 'items', 'maximum', 'type']);
  });

  it('returns nothing for boolean schemas', () => {
    expect(schemaKeywords(true)).toEqual([]);
  });
});
