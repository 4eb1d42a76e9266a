import { describe, expect, it } from 'vitest';
import { relaxSchemaForZod } from './relax-schema-for-zod';

describe('relaxSchemaForZod', () => {
  it('keeps what zod reads faithfully and leaves nothing to the validator', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string', minLength: 1, default: 'x' } },
      required: ['q'],
    };
    expect(relaxSchemaForZod(schema)).toEqual({ schema, checkedByValidator: [] });
  });

  it('drops the keywords zod reads differently and says where they were', () => {
    const relaxed = relaxSchemaForZod({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, n: { type: 'integer' } },
    });
    expect(relaxed.schema).toEqual({
      type: 'object',
      properties: { email: { type: 'string' }, n: { type: 'number' } },
    });
    expect(
      relaxed.checkedByValidator.map(({ pointer, keyword }) => `${pointer} ${keyword}`),
    ).toEqual(['/properties/email format', '/properties/n type']);
  });

  it('turns a oneOf with a widened branch into anyOf, beside an anyOf already there', () => {
    const relaxed = relaxSchemaForZod({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      oneOf: [
        { type: 'string', format: 'uuid' },
        { type: 'string', maxLength: 3 },
      ],
    });
    expect(relaxed.schema).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }],
      allOf: [{ anyOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] }],
    });
  });

  it('drops the defaults Ajv never applies: under anyOf, at the root, in definitions', () => {
    const relaxed = relaxSchemaForZod({
      type: 'object',
      default: {},
      properties: { a: { anyOf: [{ type: 'string', default: 'x' }] }, b: { $ref: '#/$defs/b' } },
      $defs: { b: { type: 'string', default: 'y' } },
    });
    expect(JSON.stringify(relaxed.schema)).not.toContain('"default":"');
  });
});
