import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from './check-json-schema';
import { upgradeSchemaDraft, upgradeSchemaKeywords } from './upgrade-schema-draft';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function keywordsOf(schema: Record<string, unknown>): string[] {
  return upgradeSchemaDraft(schema).rewrites.map((rewrite) => `${rewrite.path} ${rewrite.keyword}`);
}

describe('upgradeSchemaDraft', () => {
  it('leaves a 2020-12 schema equal, with no rewrites', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'number' }], items: false } },
      $defs: { a: { type: 'string' } },
    };
    expect(upgradeSchemaDraft(schema)).toEqual({ schema, rewrites: [] });
  });

  it('drops an older $schema and reports it', () => {
    const result = upgradeSchemaDraft({ $schema: DRAFT_07, type: 'object' });
    expect(result.schema).toEqual({ type: 'object' });
    expect(result.rewrites).toEqual([
      { path: '/', keyword: '$schema', message: `${DRAFT_07} is read as draft 2020-12` },
    ]);
  });

  it('moves definitions to $defs and points the $refs there', () => {
    const result = upgradeSchemaDraft({
      $schema: DRAFT_07,
      type: 'object',
      properties: { home: { $ref: '#/definitions/address' } },
      definitions: {
        address: { type: 'object', properties: { city: { $ref: '#/definitions/city' } } },
        city: { type: 'string' },
      },
    });
    expect(result.schema).toEqual({
      type: 'object',
      properties: { home: { $ref: '#/$defs/address' } },
      $defs: {
        address: { type: 'object', properties: { city: { $ref: '#/$defs/city' } } },
        city: { type: 'string' },
      },
    });
    expect(result.rewrites.map((rewrite) => `${rewrite.path} ${rewrite.message}`)).toEqual([
      '/ http://json-schema.org/draft-07/schema# is read as draft 2020-12',
      '/ became "$defs"',
      '/definitions/address/properties/city #/definitions/city became #/$defs/city',
      '/properties/home #/definitions/address became #/$defs/address',
    ]);
    expect(checkJsonSchema(result.schema)).toEqual([]);
  });

  it('keeps definitions when a name is in $defs too, and a property named "definitions" is data', () => {
    const both = { $defs: { a: { type: 'string' } }, definitions: { a: { type: 'number' } } };
    expect(upgradeSchemaDraft(both)).toEqual({ schema: both, rewrites: [] });
    const property = {
      type: 'object',
      properties: { definitions: { type: 'string' } },
      $ref: '#/properties/definitions',
    };
    expect(upgradeSchemaDraft(property)).toEqual({ schema: property, rewrites: [] });
  });

  it('turns tuple items into prefixItems and additionalItems into the items after them', () => {
    const result = upgradeSchemaDraft({
      type: 'array',
      items: [{ type: 'number' }, { $ref: '#/items/0' }],
      additionalItems: false,
    });
    expect(result.schema).toEqual({
      type: 'array',
      prefixItems: [{ type: 'number' }, { $ref: '#/prefixItems/0' }],
      items: false,
    });
    expect(keywordsOf({ type: 'array', items: [{}], additionalItems: { type: 'string' } })).toEqual(
      ['/ items', '/ additionalItems'],
    );
    // Beside a single `items` schema, `additionalItems` never applied.
    expect(
      upgradeSchemaDraft({ items: { type: 'string' }, additionalItems: false }).schema,
    ).toEqual({ items: { type: 'string' } });
  });

  it('splits dependencies into dependentRequired and dependentSchemas', () => {
    const result = upgradeSchemaDraft({
      type: 'object',
      dependencies: { street: ['city'], card: { required: ['cvc'] } },
      dependentRequired: { zip: ['city'] },
    });
    expect(result.schema).toEqual({
      type: 'object',
      dependentRequired: { zip: ['city'], street: ['city'] },
      dependentSchemas: { card: { required: ['cvc'] } },
    });
    expect(result.rewrites).toEqual([
      {
        path: '/',
        keyword: 'dependencies',
        message: 'became "dependentRequired" / "dependentSchemas"',
      },
    ]);
  });

  it("turns draft-04's boolean exclusive bounds into numbers", () => {
    expect(
      upgradeSchemaDraft({
        type: 'object',
        properties: {
          low: { type: 'number', minimum: 0, exclusiveMinimum: true },
          high: { type: 'number', maximum: 10, exclusiveMaximum: false },
          odd: { type: 'number', exclusiveMaximum: true },
        },
      }).schema,
    ).toEqual({
      type: 'object',
      properties: {
        low: { type: 'number', exclusiveMinimum: 0 },
        high: { type: 'number', maximum: 10 },
        odd: { type: 'number' },
      },
    });
    expect(keywordsOf({ minimum: 1, exclusiveMinimum: true })).toEqual(['/ exclusiveMinimum']);
  });

  it('turns id into $id and fragment ids into $anchor', () => {
    expect(upgradeSchemaKeywords({ id: 'urn:point', type: 'object' }).schema).toEqual({
      $id: 'urn:point',
      type: 'object',
    });
    expect(upgradeSchemaKeywords({ $id: '#address' }).schema).toEqual({ $anchor: 'address' });
    expect(upgradeSchemaKeywords({ $id: 'https://example.com/s#' }).schema).toEqual({
      $id: 'https://example.com/s',
    });
    expect(upgradeSchemaKeywords({ $id: 'https://example.com/s' })).toEqual({
      schema: { $id: 'https://example.com/s' },
      rewrites: [],
    });
    // A property named "id" is data, not the draft-04 keyword.
    const property = { type: 'object', properties: { id: { type: 'string' } } };
    expect(upgradeSchemaDraft(property)).toEqual({ schema: property, rewrites: [] });
  });

  it("turns 2019-09's $recursiveRef into a $ref and drops $recursiveAnchor", () => {
    const tree = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $recursiveAnchor: true,
      type: 'object',
      properties: { children: { type: 'array', items: { $recursiveRef: '#' } } },
    };
    const result = upgradeSchemaDraft(tree);
    expect(result.schema).toEqual({
      type: 'object',
      properties: { children: { type: 'array', items: { $ref: '#' } } },
    });
    expect(result.rewrites.map((rewrite) => `${rewrite.path} ${rewrite.keyword}`)).toEqual([
      '/ $schema',
      '/ $recursiveAnchor',
      '/properties/children/items $recursiveRef',
    ]);
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(result.schema);
    expect(validate({ children: [{ children: [] }] })).toBe(true);
    expect(validate({ children: [1] })).toBe(false);
    // Beside a $ref, both must hold.
    expect(
      upgradeSchemaKeywords({ $ref: '#/$defs/a', $recursiveRef: '#', allOf: [{ type: 'object' }] })
        .schema,
    ).toEqual({ $ref: '#/$defs/a', allOf: [{ type: 'object' }, { $ref: '#' }] });
  });

  it('reads # fragments inside an embedded resource against that resource', () => {
    const result = upgradeSchemaDraft({
      type: 'object',
      properties: {
        inner: {
          $id: 'https://example.com/inner',
          definitions: { a: { type: 'string' } },
          properties: { x: { $ref: '#/definitions/a' } },
        },
      },
    });
    expect(result.schema).toEqual({
      type: 'object',
      properties: {
        inner: {
          $id: 'https://example.com/inner',
          $defs: { a: { type: 'string' } },
          properties: { x: { $ref: '#/$defs/a' } },
        },
      },
    });
  });

  it('does not change its input', () => {
    const schema = { $schema: DRAFT_07, definitions: { a: { items: [{}] } } };
    const copy = structuredClone(schema);
    upgradeSchemaDraft(schema);
    expect(schema).toEqual(copy);
  });
});
