import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from './check-json-schema';

describe('checkJsonSchema', () => {
  it('accepts valid schemas, boolean schemas included', () => {
    expect(
      checkJsonSchema({ type: 'object', properties: { a: { type: ['string', 'null'] } } }),
    ).toEqual([]);
    expect(checkJsonSchema(true)).toEqual([]);
  });

  it('reports a misspelt type once, naming the allowed types', () => {
    expect(
      checkJsonSchema({ type: 'object', properties: { a: { type: 'strnig' } } }, '/parameters'),
    ).toEqual([
      {
        path: '/parameters/properties/a/type',
        message:
          'must be one of: array, boolean, integer, null, number, object, string, or must be array',
      },
    ]);
  });

  it('reports a non-array required', () => {
    expect(checkJsonSchema({ type: 'object', required: 'x' })).toEqual([
      { path: '/required', message: 'must be array' },
    ]);
  });

  it('refuses other dialects and non-objects', () => {
    expect(checkJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#' })[0]?.path).toBe(
      '/$schema',
    );
    expect(checkJsonSchema('x', '/p')).toEqual([
      { path: '/p', message: 'must be a JSON Schema object' },
    ]);
    expect(checkJsonSchema(null)).toEqual([{ path: '/', message: 'must be a JSON Schema object' }]);
  });
});
