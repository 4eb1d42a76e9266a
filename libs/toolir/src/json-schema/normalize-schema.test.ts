import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ToolgateError } from '../errors/toolgate-error';
import tree from './__fixtures__/tree.schema.json';
import { normalizeSchema } from './normalize-schema';

function errorOf(run: () => unknown): ToolgateError<'invalid_schema' | 'unsupported_schema'> {
  try {
    run();
  } catch (error) {
    if (ToolgateError.isInstance(error))
      return error as ToolgateError<'invalid_schema' | 'unsupported_schema'>;
    throw error;
  }
  throw new Error('expected a ToolgateError');
}

// Schemas compiled here carry no `$id`, so one instance can hold them all.
const referenceAjv = new Ajv2020({ strict: false });

/** The normalized schema must accept and reject exactly what the original does. */
function expectSameVerdicts(original: object, normalized: object, samples: unknown[]): void {
  const before = referenceAjv.compile(structuredClone(original));
  const after = referenceAjv.compile(structuredClone(normalized));
  for (const sample of samples) expect([sample, after(sample)]).toEqual([sample, before(sample)]);
}

describe('normalizeSchema', () => {
  it('leaves a schema without refs as it is, minus $schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'string' } },
    };
    expect(normalizeSchema(schema)).toEqual({
      schema: { type: 'object', properties: { a: { type: 'string' } } },
      recursiveRefs: [],
      issues: [],
    });
  });

  it('inlines nested acyclic refs and drops the definitions they used', () => {
    const schema = {
      type: 'object',
      properties: { home: { $ref: '#/$defs/address' }, work: { $ref: '#/$defs/address' } },
      $defs: {
        address: { type: 'object', properties: { city: { $ref: '#/$defs/city' } } },
        city: { type: 'string', minLength: 1 },
      },
    };
    const address = { type: 'object', properties: { city: { type: 'string', minLength: 1 } } };
    const { schema: normalized, recursiveRefs } = normalizeSchema(schema);
    expect(normalized).toEqual({ type: 'object', properties: { home: address, work: address } });
    expect(recursiveRefs).toEqual([]);
    expect(normalized['properties']).not.toBe(schema.properties);
  });

  it('keeps a recursive tree as $ref with its definition, inlines the rest, and reports the cycle', () => {
    const result = normalizeSchema(tree);
    expect(result.recursiveRefs).toEqual(['#/$defs/node']);
    expect(result.schema).toMatchInlineSnapshot(`
      {
        "$defs": {
          "node": {
            "properties": {
              "children": {
                "items": {
                  "$ref": "#/$defs/node",
                },
                "type": "array",
              },
              "label": {
                "maxLength": 40,
                "type": "string",
              },
              "value": {
                "type": "number",
              },
            },
            "required": [
              "value",
            ],
            "type": "object",
          },
        },
        "properties": {
          "label": {
            "maxLength": 40,
            "type": "string",
          },
          "root": {
            "properties": {
              "children": {
                "items": {
                  "$ref": "#/$defs/node",
                },
                "type": "array",
              },
              "label": {
                "maxLength": 40,
                "type": "string",
              },
              "value": {
                "type": "number",
              },
            },
            "required": [
              "value",
            ],
            "type": "object",
          },
        },
        "required": [
          "root",
        ],
        "type": "object",
      }
    `);
    expect(result.issues.map((issue) => issue.path)).toContain(
      '/properties/root/properties/children/items/$ref',
    );
    expectSameVerdicts(tree, result.schema, [
      { root: { value: 1 } },
      { root: { value: 1, children: [{ value: 2, children: [{ value: 3, label: 'x' }] }] } },
      { root: { value: 1, children: [{ value: 'two' }] } },
      { root: { value: 1, children: [{ children: [] }] } },
      { root: { value: 1, label: 'y'.repeat(41) } },
      {},
    ]);
  });

  it('handles a linked list through a root $ref and anyOf', () => {
    const schema = {
      $ref: '#/$defs/list',
      $defs: {
        list: {
          type: 'object',
          properties: {
            value: { type: 'integer' },
            next: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/list' }] },
          },
          required: ['value'],
        },
      },
    };
    const result = normalizeSchema(schema);
    expect(result.schema['type']).toBe('object');
    expect(result.recursiveRefs).toEqual(['#/$defs/list']);
    expect(Object.keys(result.schema['$defs'] as object)).toEqual(['list']);
    expectSameVerdicts(schema, result.schema, [
      { value: 1, next: null },
      { value: 1, next: { value: 2, next: { value: 3, next: null } } },
      { value: 1, next: { value: 2, next: { value: 'x' } } },
      { next: null },
    ]);
  });

  it('handles mutual recursion, keeping only the definition the cycle needs', () => {
    const schema = {
      type: 'object',
      properties: { expression: { $ref: '#/$defs/expression' } },
      $defs: {
        expression: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/sum' }] },
        sum: {
          type: 'object',
          properties: { terms: { type: 'array', items: { $ref: '#/$defs/expression' } } },
          required: ['terms'],
        },
      },
    };
    const result = normalizeSchema(schema);
    expect(result.recursiveRefs).toEqual(['#/$defs/expression']);
    expect(Object.keys(result.schema['$defs'] as object)).toEqual(['expression']);
    expectSameVerdicts(schema, result.schema, [
      { expression: 1 },
      { expression: { terms: [1, { terms: [2, 3] }] } },
      { expression: { terms: [1, { terms: ['x'] }] } },
      { expression: 'x' },
    ]);
  });

  it('keeps a `#` self reference', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, parent: { $ref: '#' } },
    };
    const result = normalizeSchema(schema);
    expect(result.schema).toEqual(schema);
    expect(result.recursiveRefs).toEqual(['#']);
    expect(result.issues).toEqual([
      { path: '/properties/parent/$ref', message: expect.stringContaining('recursive $ref #') },
    ]);
  });

  it('merges sibling annotations over the target (the sibling wins)', () => {
    const schema = {
      type: 'object',
      properties: { from: { $ref: '#/$defs/date', description: 'First day' } },
      $defs: { date: { type: 'string', format: 'date', description: 'A date' } },
    };
    expect(normalizeSchema(schema).schema['properties']).toEqual({
      from: { type: 'string', format: 'date', description: 'First day' },
    });
  });

  it('keeps sibling keywords that would change meaning in a flat merge under allOf', () => {
    const schema = {
      type: 'object',
      properties: { point: { $ref: '#/$defs/closed', properties: { z: { type: 'number' } } } },
      $defs: {
        closed: {
          type: 'object',
          properties: { x: { type: 'number' } },
          additionalProperties: false,
        },
      },
    };
    const result = normalizeSchema(schema);
    expect(result.schema['properties']).toEqual({
      point: {
        properties: { z: { type: 'number' } },
        allOf: [
          { type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false },
        ],
      },
    });
    expectSameVerdicts(schema, result.schema, [
      { point: { x: 1 } },
      { point: { x: 1, z: 2 } },
      { point: { x: 'a' } },
    ]);
  });

  it('merges non-conflicting sibling constraints flat', () => {
    const schema = {
      type: 'object',
      properties: { n: { $ref: '#/$defs/int', maximum: 5 } },
      $defs: { int: { type: 'integer' } },
    };
    expect(normalizeSchema(schema).schema['properties']).toEqual({
      n: { type: 'integer', maximum: 5 },
    });
  });

  it('resolves the legacy `definitions` keyword', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/definitions/a' } },
      definitions: { a: { type: 'boolean' } },
    };
    expect(normalizeSchema(schema).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean' } },
    });
  });

  it('resolves escaped and percent-encoded pointers', () => {
    const schema = {
      type: 'object',
      properties: {
        slash: { $ref: '#/$defs/a~1b' },
        tilde: { $ref: '#/$defs/c~0d' },
        percent: { $ref: '#/$defs/e%25f' },
        space: { $ref: '#/$defs/with%20space' },
      },
      $defs: {
        'a/b': { const: 1 },
        'c~d': { const: 2 },
        'e%f': { const: 3 },
        'with space': { const: 4 },
      },
    };
    expect(normalizeSchema(schema).schema).toEqual({
      type: 'object',
      properties: {
        slash: { const: 1 },
        tilde: { const: 2 },
        percent: { const: 3 },
        space: { const: 4 },
      },
    });
  });

  it('keeps a recursive ref to an escaped name valid', () => {
    const schema = {
      type: 'object',
      properties: { x: { $ref: '#/$defs/a~1b' } },
      $defs: { 'a/b': { type: 'object', properties: { again: { $ref: '#/$defs/a~1b' } } } },
    };
    const result = normalizeSchema(schema);
    expect(result.recursiveRefs).toEqual(['#/$defs/a~1b']);
    expectSameVerdicts(schema, result.schema, [
      { x: { again: { again: {} } } },
      { x: { again: 1 } },
    ]);
  });

  it('resolves refs to other locations than definitions, and $anchor refs', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', maxLength: 3 },
        b: { $ref: '#/properties/a' },
        c: { $ref: '#short' },
      },
      $defs: { s: { $anchor: 'short', type: 'string', maxLength: 1 } },
    };
    expect(normalizeSchema(schema).schema['properties']).toEqual({
      a: { type: 'string', maxLength: 3 },
      b: { type: 'string', maxLength: 3 },
      c: { type: 'string', maxLength: 1 },
    });
  });

  it('treats a ref through the root $id as local', () => {
    const schema = {
      $id: 'https://example.com/s.json',
      type: 'object',
      properties: {
        a: { $ref: 'https://example.com/s.json#/$defs/a' },
        b: { $ref: 's.json#/$defs/a' },
      },
      $defs: { a: { type: 'null' } },
    };
    expect(normalizeSchema(schema).schema).toEqual({
      type: 'object',
      properties: { a: { type: 'null' }, b: { type: 'null' } },
    });
  });

  it('inlines a ref to a boolean schema', () => {
    const schema = {
      type: 'object',
      properties: { never: { $ref: '#/$defs/no' } },
      $defs: { no: false },
    };
    expect(normalizeSchema(schema).schema).toEqual({
      type: 'object',
      properties: { never: false },
    });
  });

  it('does not change its input', () => {
    const input = structuredClone(tree);
    normalizeSchema(input);
    expect(input).toEqual(tree);
  });

  it('rejects an unresolvable ref with the ref path', () => {
    const error = errorOf(() =>
      normalizeSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.details?.issues).toEqual([
      { path: '/properties/a/$ref', message: expect.stringContaining('does not resolve') },
    ]);
  });

  it('rejects a ref to something that is not a schema', () => {
    const error = errorOf(() =>
      normalizeSchema({
        type: 'object',
        required: ['a'],
        properties: { a: { $ref: '#/required' } },
      }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.details?.issues[0]?.message).toContain('does not point to a schema');
  });

  it('rejects remote refs', () => {
    const error = errorOf(() =>
      normalizeSchema({
        type: 'object',
        properties: { a: { $ref: 'https://example.com/other.json#/a' }, b: { $ref: 'other.json' } },
      }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.details?.issues.map((issue) => issue.path)).toEqual([
      '/properties/a/$ref',
      '/properties/b/$ref',
    ]);
  });

  it('rejects a schema that fails the meta-schema, with paths', () => {
    const error = errorOf(() =>
      normalizeSchema({ type: 'object', properties: { a: { type: 'strnig' } } }),
    );
    expect(error.code).toBe('invalid_schema');
    expect(error.details?.issues.map((issue) => issue.path)).toContain('/properties/a/type');
    expect(
      errorOf(() => normalizeSchema({ type: 'object', required: 'x' })).details?.issues[0]?.path,
    ).toBe('/required');
    expect(errorOf(() => normalizeSchema([])).code).toBe('invalid_schema');
  });

  it('rejects a $ref cycle that never descends into the instance', () => {
    for (const schema of [
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/a' } },
        $defs: { a: { $ref: '#/$defs/a' } },
      },
      {
        type: 'object',
        properties: { a: { $ref: '#/$defs/a' } },
        $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } },
      },
      { type: 'object', allOf: [{ $ref: '#' }] },
    ]) {
      const error = errorOf(() => normalizeSchema(schema));
      expect(error.code).toBe('invalid_schema');
      expect(error.details?.issues[0]?.message).toContain('without descending');
    }
  });

  it('refuses a schema whose refs fan out exponentially', () => {
    const defs: Record<string, unknown> = { d0: { type: 'string' } };
    for (let level = 1; level <= 20; level += 1) {
      defs[`d${level}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/d${level - 1}` }, b: { $ref: `#/$defs/d${level - 1}` } },
      };
    }
    const error = errorOf(() =>
      normalizeSchema({ type: 'object', properties: { x: { $ref: '#/$defs/d20' } }, $defs: defs }),
    );
    expect(error.code).toBe('unsupported_schema');
  });

  it('refuses a schema nested deeper than the stack with a ToolgateError', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 100_000; depth += 1)
      schema = { type: 'object', properties: { a: schema } };
    expect(errorOf(() => normalizeSchema(schema)).code).toBe('unsupported_schema');
  });

  it('reports a $dynamicRef it leaves alone', () => {
    const result = normalizeSchema({
      type: 'object',
      $dynamicAnchor: 'meta',
      properties: { a: { $dynamicRef: '#meta' } },
    });
    expect(result.issues).toEqual([
      { path: '/properties/a', message: expect.stringContaining('dynamic') },
    ]);
  });
});

describe('normalizeSchema under fuzzing', () => {
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 0x100000000;
    };
  }

  const refs = [
    '#',
    '#/$defs/a',
    '#/$defs/b',
    '#/$defs/c',
    '#/properties/p',
    '#/$defs/missing',
    '#/$defs/a/properties/x',
    'x.json',
  ];

  function randomSchema(next: () => number, depth: number): unknown {
    const choice = Math.floor(next() * (depth > 3 ? 4 : 9));
    switch (choice) {
      case 0:
        return { type: ['string', 'number', 'integer', 'boolean', 'null'][Math.floor(next() * 5)] };
      case 1:
        return { $ref: refs[Math.floor(next() * refs.length)] };
      case 2:
        return next() > 0.5;
      case 3:
        return { $ref: refs[Math.floor(next() * 5)], description: 'sibling', minProperties: 0 };
      case 4:
        return {
          type: 'object',
          properties: { x: randomSchema(next, depth + 1), y: randomSchema(next, depth + 1) },
        };
      case 5:
        return { anyOf: [randomSchema(next, depth + 1), randomSchema(next, depth + 1)] };
      case 6:
        return { type: 'array', items: randomSchema(next, depth + 1) };
      case 7:
        return { allOf: [randomSchema(next, depth + 1)], not: randomSchema(next, depth + 1) };
      default:
        return { if: randomSchema(next, depth + 1), then: randomSchema(next, depth + 1) };
    }
  }

  it('throws only ToolgateErrors, and what it returns compiles and decides like the original', () => {
    const next = random(7);
    let normalizedCount = 0;
    for (let round = 0; round < 150; round += 1) {
      const schema = {
        type: 'object',
        properties: { p: randomSchema(next, 0), q: randomSchema(next, 0) },
        $defs: { a: randomSchema(next, 1), b: randomSchema(next, 1), c: randomSchema(next, 1) },
      };
      let normalized: object;
      try {
        normalized = normalizeSchema(schema, { maxNodes: 2000 }).schema;
      } catch (error) {
        expect(ToolgateError.isInstance(error)).toBe(true);
        continue;
      }
      normalizedCount += 1;
      expectSameVerdicts(schema, normalized, [
        {},
        { p: 1 },
        { p: 'x', q: null },
        { p: { x: 1, y: [] } },
        { q: [1, 'a', { x: true }] },
        { p: { x: { x: { x: 'deep' } } } },
      ]);
    }
    expect(normalizedCount).toBeGreaterThan(20);
  });
});
