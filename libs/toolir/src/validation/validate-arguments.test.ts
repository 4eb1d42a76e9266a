import { beforeEach, describe, expect, it } from 'vitest';
import { ToolgateError } from '../errors/toolgate-error';
import {
  describeArgumentErrors,
  toInvalidArgumentsError,
  type ArgumentError,
} from './argument-error';
import {
  clearValidatorCache,
  compileValidator,
  setValidatorCacheCapacity,
  VALIDATOR_CACHE_CAPACITY,
  type ValidatableTool,
} from './compile-validator';
import { validateArguments } from './validate-arguments';

let toolCounter = 0;

/** A tool with a fresh id per call, so tests never share a cached validator by accident. */
function toolWith(
  properties: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): ValidatableTool {
  toolCounter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(toolCounter).padStart(12, '0')}`,
    version: '1.0.0',
    parameters: { type: 'object', properties, ...extra },
  };
}

function errorsOf(tool: ValidatableTool, args: unknown): ArgumentError[] {
  const result = validateArguments(tool, args);
  if (result.ok) throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
  return result.errors;
}

function messagesOf(tool: ValidatableTool, args: unknown): string[] {
  return errorsOf(tool, args).map((error) => error.message);
}

beforeEach(() => {
  clearValidatorCache();
});

describe('validateArguments messages', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    [
      'type',
      { count: { type: 'integer' } },
      { count: 'five' },
      '/count must be of type integer, got string',
    ],
    [
      'type (several)',
      { id: { type: ['string', 'integer'] } },
      { id: null },
      '/id must be of type string or integer, got null',
    ],
    [
      'type (array)',
      { tags: { type: 'array' } },
      { tags: {} },
      '/tags must be of type array, got object',
    ],
    [
      'enum',
      { unit: { enum: ['celsius', 'fahrenheit'] } },
      { unit: 'kelvin' },
      '/unit must be one of: celsius, fahrenheit',
    ],
    [
      'enum (non-strings)',
      { level: { enum: [1, 2, null] } },
      { level: 3 },
      '/level must be one of: 1, 2, null',
    ],
    ['const', { kind: { const: 'point' } }, { kind: 'line' }, '/kind must be exactly "point"'],
    ['minimum', { count: { type: 'integer', minimum: 1 } }, { count: 0 }, '/count must be >= 1'],
    ['maximum', { count: { type: 'integer', maximum: 10 } }, { count: 11 }, '/count must be <= 10'],
    ['exclusiveMinimum', { ratio: { exclusiveMinimum: 0 } }, { ratio: 0 }, '/ratio must be > 0'],
    ['exclusiveMaximum', { ratio: { exclusiveMaximum: 1 } }, { ratio: 1 }, '/ratio must be < 1'],
    ['multipleOf', { step: { multipleOf: 5 } }, { step: 7 }, '/step must be a multiple of 5'],
    [
      'minLength',
      { name: { type: 'string', minLength: 3 } },
      { name: 'ab' },
      '/name must have at least 3 characters',
    ],
    [
      'maxLength',
      { code: { type: 'string', maxLength: 1 } },
      { code: 'ab' },
      '/code must have at most 1 character',
    ],
    [
      'pattern',
      { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
      { code: 'usd' },
      '/code must match the pattern ^[A-Z]{3}$',
    ],
    [
      'format email',
      { email: { type: 'string', format: 'email' } },
      { email: 'not-an-email' },
      '/email must be a valid email',
    ],
    [
      'format uri',
      { link: { type: 'string', format: 'uri' } },
      { link: 'example.com' },
      '/link must be a valid uri (absolute, with a scheme, e.g. https://example.com/a)',
    ],
    [
      'format date-time',
      { at: { type: 'string', format: 'date-time' } },
      { at: 'tomorrow' },
      '/at must be a valid date-time (RFC 3339, e.g. 2024-01-31T09:30:00Z)',
    ],
    [
      'format date',
      { on: { type: 'string', format: 'date' } },
      { on: '2024-02-30' },
      '/on must be a valid date (YYYY-MM-DD)',
    ],
    [
      'format uuid',
      { id: { type: 'string', format: 'uuid' } },
      { id: '1234' },
      '/id must be a valid uuid (e.g. 123e4567-e89b-12d3-a456-426614174000)',
    ],
    [
      'minItems',
      { tags: { type: 'array', minItems: 1 } },
      { tags: [] },
      '/tags must have at least 1 item',
    ],
    [
      'maxItems',
      { tags: { type: 'array', maxItems: 2 } },
      { tags: [1, 2, 3] },
      '/tags must have at most 2 items',
    ],
    [
      'uniqueItems',
      { tags: { type: 'array', uniqueItems: true } },
      { tags: ['a', 'b', 'a'] },
      '/tags must not contain duplicate items (items 0 and 2 are equal)',
    ],
    [
      'minProperties',
      { meta: { type: 'object', minProperties: 1 } },
      { meta: {} },
      '/meta must have at least 1 property',
    ],
    [
      'maxProperties',
      { meta: { type: 'object', maxProperties: 1 } },
      { meta: { a: 1, b: 2 } },
      '/meta must have at most 1 property',
    ],
    [
      'contains',
      { list: { type: 'array', contains: { const: 'x' } } },
      { list: ['y'] },
      '/list must contain at least 1 item matching the "contains" schema',
    ],
    [
      'not',
      { word: { not: { const: 'drop' } } },
      { word: 'drop' },
      '/word must not match the schema in "not"',
    ],
    ['false schema', { legacy: false }, { legacy: 1 }, '/legacy is not allowed'],
    [
      'nested paths',
      { filter: { type: 'object', properties: { limit: { type: 'integer', maximum: 100 } } } },
      { filter: { limit: 500 } },
      '/filter/limit must be <= 100',
    ],
    [
      'array item paths',
      { ids: { type: 'array', items: { type: 'integer' } } },
      { ids: [1, 'two'] },
      '/ids/1 must be of type integer, got string',
    ],
  ];

  it.each(cases)('%s', (_keyword, properties, args, message) => {
    expect(messagesOf(toolWith(properties), args)).toEqual([message]);
  });

  it('names the missing required property by its path', () => {
    const tool = toolWith({ city: { type: 'string' } }, { required: ['city'] });
    expect(errorsOf(tool, {})).toEqual([
      {
        path: '/city',
        keyword: 'required',
        message: 'missing required property /city',
        params: { missingProperty: 'city' },
      },
    ]);
  });

  it('never takes a property inherited from Object.prototype for an argument', () => {
    const tool = toolWith(
      { constructor: { type: 'string' }, toString: { type: 'string' } },
      { required: ['constructor', 'toString'] },
    );
    expect(messagesOf(tool, {})).toEqual([
      'missing required property /constructor',
      'missing required property /toString',
    ]);
    expect(validateArguments(tool, { constructor: 'a', toString: 'b' }).ok).toBe(true);
  });

  it('escapes property names in paths', () => {
    const tool = toolWith({}, { required: ['a/b'] });
    expect(messagesOf(tool, {})).toEqual(['missing required property /a~1b']);
  });

  it('names an unexpected property and lists the allowed ones', () => {
    const tool = toolWith(
      { city: { type: 'string' }, unit: { type: 'string' } },
      { additionalProperties: false },
    );
    const [error] = errorsOf(tool, { city: 'Oslo', extra: true });
    expect(error).toMatchObject({ path: '/extra', keyword: 'additionalProperties' });
    expect(error?.message).toBe(
      '/extra is not allowed (additionalProperties); allowed properties: city, unit',
    );
  });

  it('reports unevaluatedProperties like additionalProperties', () => {
    const tool = toolWith({ a: {} }, { unevaluatedProperties: false });
    expect(messagesOf(tool, { a: 1, b: 2 })).toEqual([
      '/b is not allowed (unevaluatedProperties); allowed properties: a',
    ]);
  });

  it('reports dependentRequired with both properties', () => {
    const tool = toolWith({ card: {}, cvc: {} }, { dependentRequired: { card: ['cvc'] } });
    expect(messagesOf(tool, { card: '4111' })).toEqual([
      'missing property /cvc, required when /card is present',
    ]);
  });

  it('summarises a failed anyOf in one error with each option', () => {
    const tool = toolWith({
      target: {
        anyOf: [
          { type: 'string', minLength: 1 },
          { type: 'object', required: ['lat', 'lon'] },
        ],
      },
    });
    expect(errorsOf(tool, { target: 5 })).toEqual([
      {
        path: '/target',
        keyword: 'anyOf',
        params: {},
        message:
          '/target must match at least one of the allowed schemas (anyOf) — option 1: must be of type string, got number; option 2: must be of type object, got number',
      },
    ]);
  });

  it('summarises a failed oneOf, with nested paths kept', () => {
    const tool = toolWith({
      shape: {
        oneOf: [
          { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
          { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
        ],
      },
    });
    expect(messagesOf(tool, { shape: { radius: 'big' } })).toEqual([
      '/shape must match exactly one of the allowed schemas (oneOf) — option 1: /shape/radius must be of type number, got string; option 2: missing required property /shape/side',
    ]);
  });

  it('says which options matched when oneOf matches more than one', () => {
    const tool = toolWith({ value: { oneOf: [{ type: 'integer' }, { type: 'number' }] } });
    expect(messagesOf(tool, { value: 1 })).toEqual([
      '/value must match exactly one of the allowed schemas (oneOf), but matched option 1 and option 2',
    ]);
  });

  it('reports the failing then-branch of an if without the if noise', () => {
    const tool = toolWith(
      { country: { type: 'string' }, postcode: { type: 'string' } },
      {
        if: { properties: { country: { const: 'US' } }, required: ['country'] },
        then: { required: ['postcode'] },
      },
    );
    expect(messagesOf(tool, { country: 'US' })).toEqual(['missing required property /postcode']);
  });

  it('reports every error at once (allErrors)', () => {
    const tool = toolWith(
      {
        city: { type: 'string' },
        days: { type: 'integer', maximum: 10 },
        unit: { enum: ['c', 'f'] },
      },
      { required: ['city'] },
    );
    expect(messagesOf(tool, { days: 11, unit: 'k' })).toEqual([
      'missing required property /city',
      '/days must be <= 10',
      '/unit must be one of: c, f',
    ]);
  });

  it('rejects non-object arguments at the root', () => {
    const tool = toolWith({});
    for (const args of [null, [], 'x', 1, undefined]) {
      expect(errorsOf(tool, args)[0]).toMatchObject({ path: '/', keyword: 'type' });
    }
    expect(messagesOf(tool, 'x')).toEqual(['the arguments must be of type object, got string']);
  });

  it('joins errors into one line for a model', () => {
    const tool = toolWith({ a: { type: 'string' } }, { required: ['a', 'b'] });
    expect(describeArgumentErrors(errorsOf(tool, {}))).toBe(
      'missing required property /a; missing required property /b',
    );
  });

  it('builds the invalid_arguments result error the engine returns to the model', () => {
    const tool = toolWith({ n: { type: 'integer', maximum: 10 } });
    const errors = errorsOf(tool, { n: 11 });
    expect(toInvalidArgumentsError(errors)).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments: /n must be <= 10',
      retryable: false,
      details: { errors },
    });
  });
});

describe('validateArguments values', () => {
  it('accepts valid arguments, including formats', () => {
    const tool = toolWith({
      email: { type: 'string', format: 'email' },
      at: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      link: { type: 'string', format: 'uri' },
    });
    const args = {
      email: 'a@example.com',
      at: '2024-01-31T09:30:00Z',
      id: '123e4567-e89b-12d3-a456-426614174000',
      link: 'https://x.dev/a',
    };
    expect(validateArguments(tool, args)).toEqual({ ok: true, value: args });
  });

  it('applies defaults on a copy and never changes the caller’s arguments', () => {
    const tool = toolWith({
      unit: { enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      options: {
        type: 'object',
        properties: { verbose: { type: 'boolean', default: false } },
        default: {},
      },
      list: { type: 'array', items: { type: 'object', properties: { n: { default: 1 } } } },
    });
    const args = { list: [{}] };
    const frozen = structuredClone(args);
    const result = validateArguments(tool, args);
    expect(result).toEqual({
      ok: true,
      value: { unit: 'celsius', options: { verbose: false }, list: [{ n: 1 }] },
    });
    expect(args).toEqual(frozen);
    if (result.ok) expect(result.value['list']).not.toBe(args.list);
  });

  it('gives every call its own copy of object defaults', () => {
    const tool = toolWith({ options: { type: 'object', default: { retries: 1 } } });
    const first = validateArguments(tool, {});
    if (!first.ok) throw new Error('expected valid arguments');
    (first.value['options'] as Record<string, unknown>)['retries'] = 99;
    expect(validateArguments(tool, {})).toEqual({ ok: true, value: { options: { retries: 1 } } });
  });

  it('does not fill a default over a value the model gave', () => {
    const tool = toolWith({ unit: { enum: ['c', 'f'], default: 'c' } });
    expect(validateArguments(tool, { unit: 'f' })).toEqual({ ok: true, value: { unit: 'f' } });
  });

  it('never coerces types', () => {
    const tool = toolWith({
      count: { type: 'integer' },
      flag: { type: 'boolean' },
      name: { type: 'string' },
      list: { type: 'array' },
    });
    expect(messagesOf(tool, { count: '5' })).toEqual([
      '/count must be of type integer, got string',
    ]);
    expect(messagesOf(tool, { flag: 'true' })).toEqual([
      '/flag must be of type boolean, got string',
    ]);
    expect(messagesOf(tool, { name: 5 })).toEqual(['/name must be of type string, got number']);
    expect(messagesOf(tool, { list: 'a' })).toEqual(['/list must be of type array, got string']);
    expect(messagesOf(tool, { count: 1.5 })).toEqual([
      '/count must be of type integer, got number',
    ]);
  });

  it('keeps a __proto__ key as plain data', () => {
    const tool = toolWith({}, { additionalProperties: false });
    const args = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    expect(errorsOf(tool, args)[0]?.path).toBe('/__proto__');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('validates recursive schemas', () => {
    const tool = toolWith(
      { tree: { $ref: '#/$defs/node' } },
      {
        $defs: {
          node: {
            type: 'object',
            properties: {
              children: { type: 'array', items: { $ref: '#/$defs/node' } },
              v: { type: 'integer' },
            },
          },
        },
      },
    );
    expect(validateArguments(tool, { tree: { children: [{ v: 1, children: [] }] } }).ok).toBe(true);
    expect(messagesOf(tool, { tree: { children: [{ v: 'x' }] } })).toEqual([
      '/tree/children/0/v must be of type integer, got string',
    ]);
  });
});

describe('compileValidator', () => {
  it('compiles once per tool id and version', () => {
    const tool = toolWith({ a: { type: 'string' } });
    const first = compileValidator(tool);
    expect(compileValidator(tool)).toBe(first);
    expect(compileValidator({ ...tool, parameters: structuredClone(tool.parameters) })).toBe(first);
    validateArguments(tool, { a: 'x' });
    expect(compileValidator(tool)).toBe(first);
  });

  it('keeps at most the configured number of validators, dropping the least recently used', () => {
    const capacity = 20;
    setValidatorCacheCapacity(capacity);
    const first = toolWith({ a: { type: 'string' } });
    const kept = toolWith({ b: { type: 'string' } });
    const firstValidator = compileValidator(first);
    const keptValidator = compileValidator(kept);
    for (let index = 0; index < capacity - 1; index += 1) {
      compileValidator(kept);
      compileValidator(toolWith({ n: { const: index } }));
    }
    expect(compileValidator(kept)).toBe(keptValidator);
    const recompiled = compileValidator(first);
    expect(recompiled).not.toBe(firstValidator);
    expect(recompiled.validate({ a: 1 }).ok).toBe(false);
    setValidatorCacheCapacity(VALIDATOR_CACHE_CAPACITY);
  });

  it('refuses a cache capacity below one', () => {
    expect(() => setValidatorCacheCapacity(0)).toThrow(RangeError);
  });

  it('compiles a new validator for another version', () => {
    const tool = toolWith({ a: { type: 'string' } });
    expect(compileValidator({ ...tool, version: '1.0.1' })).not.toBe(compileValidator(tool));
  });

  it('never reuses a stale validator when the schema changed under the same id and version', () => {
    const tool = toolWith({ a: { type: 'string' } });
    expect(validateArguments(tool, { a: 1 }).ok).toBe(false);
    const changed = {
      ...tool,
      parameters: { type: 'object', properties: { a: { type: 'integer' } } },
    };
    expect(validateArguments(changed, { a: 1 }).ok).toBe(true);
    expect(compileValidator(changed)).not.toBe(compileValidator(tool));
  });

  it('is not affected by later changes to the caller’s schema object', () => {
    const tool = toolWith({ a: { type: 'string' } });
    const validator = compileValidator(tool);
    (tool.parameters['properties'] as Record<string, unknown>)['a'] = { type: 'integer' };
    expect(validator.validate({ a: 'x' }).ok).toBe(true);
  });

  it('compiles two tools that declare the same $id', () => {
    const first = toolWith({ a: { type: 'string' } }, { $id: 'https://example.com/args.json' });
    const second = toolWith({ a: { type: 'integer' } }, { $id: 'https://example.com/args.json' });
    expect(validateArguments(first, { a: 'x' }).ok).toBe(true);
    expect(validateArguments(second, { a: 1 }).ok).toBe(true);
    expect(validateArguments(second, { a: 'x' }).ok).toBe(false);
  });

  it('throws invalid_schema with issues for a schema it cannot use', () => {
    const broken = toolWith({ a: { type: 'strnig' } });
    expect(() => compileValidator(broken)).toThrow(ToolgateError);
    try {
      compileValidator(broken);
    } catch (error) {
      expect((error as ToolgateError).code).toBe('invalid_schema');
      expect((error as ToolgateError<'invalid_schema'>).details?.issues[0]?.path).toBe(
        '/parameters/properties/a/type',
      );
    }
    const dangling = toolWith({ a: { $ref: '#/$defs/missing' } });
    expect(() => compileValidator(dangling)).toThrow(
      expect.objectContaining({ code: 'invalid_schema' }),
    );
  });

  it('refuses a schema whose $ref cycle never descends, instead of overflowing the stack later', () => {
    const looping = toolWith(
      { a: { $ref: '#/$defs/a' } },
      { $defs: { a: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/a' }] } } },
    );
    expect(() => compileValidator(looping)).toThrow(
      expect.objectContaining({ code: 'invalid_schema' }),
    );
  });

  it('answers arguments nested too deeply for the stack with an error, not a crash', () => {
    const tool = toolWith({ next: { $ref: '#' } });
    let args: Record<string, unknown> = {};
    for (let depth = 0; depth < 100_000; depth += 1) args = { next: args };
    const result = validateArguments(tool, args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.keyword).toBe('maxDepth');
  });

  it('tolerates unknown keywords and formats (strict off), ignoring them', () => {
    const tool = toolWith({ a: { type: 'string', format: 'x-phone', 'x-widget': 'tel' } });
    expect(validateArguments(tool, { a: 'anything' }).ok).toBe(true);
  });
});
