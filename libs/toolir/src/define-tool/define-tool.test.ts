import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolgateError } from '../errors/toolgate-error';
import { TOOL_ID_NAMESPACE, uuidV5 } from '../hash/uuid-v5';
import { parseToolIR, ToolIRError } from '../ir/parse-tool-ir';
import { validateArguments } from '../validation/validate-arguments';
import { defineTool, PRESET_TIMEOUT_MS } from './define-tool';

const behavior = { readonly: true, destructive: false, idempotent: true };
const constraints = { timeout_ms: 5000 };

const searchFlights = defineTool({
  name: 'search_flights',
  description: 'Search flights between two airports.',
  behavior,
  constraints,
  tags: ['travel'],
  parameters: z.object({
    from: z.string().length(3).describe('IATA code of the departure airport'),
    to: z.string().length(3),
    date: z.iso.date(),
    return_date: z.iso.date().optional(),
    cabin: z.enum(['economy', 'business', 'first']).default('economy'),
    passengers: z.number().int().min(1).max(9).default(1),
    max_price: z.number().positive().nullable(),
    airline: z.union([z.string().length(2), z.array(z.string().length(2)).min(1)]).optional(),
    filters: z
      .object({
        direct_only: z.boolean().default(false),
        departure_window: z.object({ earliest: z.iso.time(), latest: z.iso.time() }).optional(),
      })
      .optional(),
    contact: z.email().optional(),
  }),
  outputSchema: z.object({ flights: z.array(z.object({ id: z.string(), price: z.number() })) }),
  handler: (args) => ({
    flights: [{ id: `${args.from}-${args.to}`, price: args.passengers * 100 }],
  }),
});

describe('defineTool', () => {
  it('builds a ToolIR that parseToolIR accepts, with defaults for id and version', () => {
    const { tool } = searchFlights;
    expect(parseToolIR(tool)).toEqual(tool);
    expect(tool.schema_version).toBe('1.0');
    expect(tool.version).toBe('1.0.0');
    expect(tool.id).toBe(uuidV5(TOOL_ID_NAMESPACE, 'search_flights'));
    expect(tool.tags).toEqual(['travel']);
    expect(tool.behavior.requires_approval).toBe('if_destructive');
  });

  it('keeps the id when the tool is defined again, and takes an explicit id and version', () => {
    const again = defineTool({
      name: 'search_flights',
      description: 'v2',
      behavior,
      constraints,
      parameters: z.object({}),
    });
    expect(again.tool.id).toBe(searchFlights.tool.id);
    const explicit = defineTool({
      name: 'x',
      description: '',
      behavior,
      constraints,
      parameters: z.object({}),
      id: '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10',
      version: '2.3.0',
    });
    expect(explicit.tool).toMatchObject({
      id: '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10',
      version: '2.3.0',
    });
  });

  it('emits draft 2020-12 JSON Schema of the input side, without $schema', () => {
    const parameters = searchFlights.tool.parameters;
    expect(parameters['$schema']).toBeUndefined();
    expect(parameters['required']).toEqual(['from', 'to', 'date', 'max_price']);
    expect(parameters['properties']).toMatchObject({
      from: {
        type: 'string',
        minLength: 3,
        maxLength: 3,
        description: 'IATA code of the departure airport',
      },
      cabin: { type: 'string', enum: ['economy', 'business', 'first'], default: 'economy' },
      passengers: { type: 'integer', minimum: 1, maximum: 9, default: 1 },
      max_price: { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }] },
      date: { type: 'string', format: 'date' },
      contact: { type: 'string', format: 'email' },
    });
    expect(searchFlights.tool.outputSchema).toMatchObject({
      type: 'object',
      required: ['flights'],
    });
  });

  it.each([
    ['the minimum', { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null }],
    [
      'every field',
      {
        from: 'OSL',
        to: 'LHR',
        date: '2026-07-01',
        return_date: '2026-07-08',
        cabin: 'business',
        passengers: 2,
        max_price: 900.5,
        airline: ['SK', 'BA'],
        filters: { direct_only: true, departure_window: { earliest: '06:00:00', latest: '12:30' } },
        contact: 'a@example.com',
      },
    ],
    [
      'a single airline',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: 10, airline: 'SK' },
    ],
  ])('accepts %s through the generated schema', (_name, args) => {
    expect(validateArguments(searchFlights.tool, args).ok).toBe(true);
    expect(searchFlights.parseArguments(args).ok).toBe(true);
  });

  it('leaves out the safe-integer range zod writes on every integer, and keeps real bounds', () => {
    const { tool } = defineTool({
      name: 'count_things',
      description: 'Counts.',
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 1000 },
      parameters: z.object({ any: z.number().int(), few: z.int().min(1).max(5) }),
    });
    expect(tool.parameters['properties']).toEqual({
      any: { type: 'integer' },
      few: { type: 'integer', minimum: 1, maximum: 5 },
    });
  });

  it('fills defaults like the zod schema does', () => {
    const args = { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, filters: {} };
    const validated = validateArguments(searchFlights.tool, args);
    const parsed = searchFlights.parseArguments(args);
    expect(validated).toEqual({
      ok: true,
      value: { ...args, cabin: 'economy', passengers: 1, filters: { direct_only: false } },
    });
    expect(parsed).toEqual(validated);
  });

  it.each([
    ['a missing required field', { from: 'OSL', to: 'LHR', date: '2026-07-01' }, '/max_price'],
    [
      'a value outside the enum',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, cabin: 'premium' },
      '/cabin',
    ],
    ['a bad date', { from: 'OSL', to: 'LHR', date: '1 July', max_price: null }, '/date'],
    [
      'a wrong-length code',
      { from: 'OSLO', to: 'LHR', date: '2026-07-01', max_price: null },
      '/from',
    ],
    [
      'too many passengers',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, passengers: 10 },
      '/passengers',
    ],
    [
      'a fractional passenger count',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, passengers: 1.5 },
      '/passengers',
    ],
    [
      'a string number',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: '100' },
      '/max_price',
    ],
    [
      'a non-positive price',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: 0 },
      '/max_price',
    ],
    [
      'an empty airline list',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, airline: [] },
      '/airline',
    ],
    [
      'a bad nested value',
      {
        from: 'OSL',
        to: 'LHR',
        date: '2026-07-01',
        max_price: null,
        filters: { direct_only: 'yes' },
      },
      '/filters/direct_only',
    ],
    [
      'a bad email',
      { from: 'OSL', to: 'LHR', date: '2026-07-01', max_price: null, contact: 'nobody' },
      '/contact',
    ],
  ])('rejects %s through the generated schema and through zod', (_name, args, path) => {
    const validated = validateArguments(searchFlights.tool, args);
    expect(validated.ok).toBe(false);
    if (!validated.ok) expect(validated.errors.map((error) => error.path)).toContain(path);
    const parsed = searchFlights.parseArguments(args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.map((error) => error.path)).toContain(path);
  });

  it('runs the handler with typed arguments', async () => {
    const parsed = searchFlights.parseArguments({
      from: 'OSL',
      to: 'LHR',
      date: '2026-07-01',
      max_price: null,
    });
    if (!parsed.ok || searchFlights.handler === undefined)
      throw new Error('expected a parsed value and a handler');
    await expect(Promise.resolve(searchFlights.handler(parsed.value, {}))).resolves.toEqual({
      flights: [{ id: 'OSL-LHR', price: 100 }],
    });
  });

  it('leaves handler out when none is given', () => {
    const tool = defineTool({
      name: 'noop',
      description: '',
      behavior,
      constraints,
      parameters: z.object({}),
    });
    expect('handler' in tool).toBe(false);
    expect(tool.outputSchema).toBeUndefined();
    expect(tool.tool.outputSchema).toBeUndefined();
  });

  it('emits strict objects as additionalProperties: false and recursive schemas with $defs', () => {
    interface Category {
      name: string;
      children: Category[];
    }
    const Category: z.ZodType<Category> = z.object({
      name: z.string(),
      get children() {
        return z.array(Category);
      },
    });
    const tool = defineTool({
      name: 'categorize',
      description: '',
      behavior,
      constraints,
      parameters: z.strictObject({ root: Category }),
    });
    expect(tool.tool.parameters['additionalProperties']).toBe(false);
    expect(
      validateArguments(tool.tool, { root: { name: 'a', children: [{ name: 'b', children: [] }] } })
        .ok,
    ).toBe(true);
    expect(
      validateArguments(tool.tool, { root: { name: 'a', children: [{ name: 1, children: [] }] } })
        .ok,
    ).toBe(false);
  });

  it('throws ToolIRError for a definition ToolIR refuses', () => {
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        behavior: { ...behavior, destructive: true },
        constraints,
        parameters: z.object({}),
      }),
    ).toThrow(ToolIRError);
    expect(() =>
      defineTool({
        name: 'bad',
        description: '',
        behavior,
        constraints: { timeout_ms: 0 },
        parameters: z.object({}),
      }),
    ).toThrow(ToolIRError);
  });

  it('throws invalid_schema for a zod schema JSON Schema cannot express', () => {
    const error = (() => {
      try {
        defineTool({
          name: 'when',
          description: '',
          behavior,
          constraints,
          parameters: z.object({ at: z.date() }),
        });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ToolgateError.isInstance(error)).toBe(true);
    expect((error as ToolgateError).code).toBe('invalid_schema');
  });
});

describe('defineTool presets', () => {
  const parameters = z.object({ id: z.string() });

  it('states a lookup as readonly, idempotent and approval-free, with the preset timeout', () => {
    const lookup = defineTool.readonly({
      name: 'get_order',
      description: 'Reads an order.',
      parameters,
    });
    expect(lookup.name).toBe('get_order');
    expect(lookup.tool.behavior).toEqual({
      readonly: true,
      destructive: false,
      idempotent: true,
      open_world: true,
      requires_approval: 'never',
    });
    expect(lookup.tool.constraints).toEqual({ timeout_ms: PRESET_TIMEOUT_MS, max_retries: 0 });
  });

  it('states a write as neither readonly nor idempotent unless a flag is overridden', () => {
    const write = defineTool.write({ name: 'update_order', description: '', parameters });
    expect(write.tool.behavior).toMatchObject({
      readonly: false,
      destructive: false,
      idempotent: false,
    });
    const upsert = defineTool.write({
      name: 'upsert_order',
      description: '',
      parameters,
      behavior: { idempotent: true },
      constraints: { timeout_ms: 2_000, max_retries: 2 },
    });
    expect(upsert.tool.behavior).toMatchObject({ readonly: false, idempotent: true });
    expect(upsert.tool.constraints).toEqual({ timeout_ms: 2_000, max_retries: 2 });
  });

  it('states a destructive action as always needing approval', () => {
    const drop = defineTool.destructive({
      name: 'delete_order',
      description: '',
      parameters,
      handler: ({ id }) => ({ deleted: id }),
    });
    expect(drop.tool.behavior).toMatchObject({
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'always',
    });
    expect(drop.handler?.({ id: 'o1' }, {})).toEqual({ deleted: 'o1' });
  });

  it('refuses contradictory flags as ToolIR does', () => {
    expect(() =>
      defineTool.readonly({
        name: 'x',
        description: '',
        parameters,
        behavior: { destructive: true },
      }),
    ).toThrow(ToolIRError);
  });
});
