import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ToolIR } from '../ir/tool-ir';
import type { ArgumentValidationResult } from '../validation/argument-error';
import { defineTool, type ToolHandlerContext } from './define-tool';

const behavior = { readonly: true, destructive: false, idempotent: true };
const constraints = { timeout_ms: 1000 };

describe('defineTool types', () => {
  it('types the handler arguments as the zod output (defaults filled, optionals optional)', () => {
    defineTool({
      name: 'weather',
      description: '',
      behavior,
      constraints,
      parameters: z.object({
        city: z.string(),
        unit: z.enum(['c', 'f']).default('c'),
        days: z.number().optional(),
        note: z.string().nullable(),
        target: z.union([z.string(), z.object({ lat: z.number() })]),
        tags: z.array(z.string()),
        nested: z.object({ deep: z.boolean() }),
      }),
      handler: (args, context) => {
        expectTypeOf(args.city).toEqualTypeOf<string>();
        expectTypeOf(args.unit).toEqualTypeOf<'c' | 'f'>();
        expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
        expectTypeOf(args.note).toEqualTypeOf<string | null>();
        expectTypeOf(args.target).toEqualTypeOf<string | { lat: number }>();
        expectTypeOf(args.tags).toEqualTypeOf<string[]>();
        expectTypeOf(args.nested.deep).toEqualTypeOf<boolean>();
        expectTypeOf(context).toEqualTypeOf<ToolHandlerContext>();
        return 'ok';
      },
    });
  });

  it('types the result by the output schema, when there is one', () => {
    const defined = defineTool({
      name: 'count',
      description: '',
      behavior,
      constraints,
      parameters: z.object({ text: z.string() }),
      outputSchema: z.object({ count: z.number() }),
      handler: async ({ text }) => Promise.resolve({ count: text.length }),
    });
    expectTypeOf(defined.tool).toEqualTypeOf<ToolIR>();
    expectTypeOf(defined.handler).toEqualTypeOf<
      | ((
          args: { text: string },
          context: ToolHandlerContext,
        ) => { count: number } | Promise<{ count: number }>)
      | undefined
    >();
    expectTypeOf(defined.parseArguments).returns.toEqualTypeOf<
      ArgumentValidationResult<{ text: string }>
    >();

    defineTool({
      name: 'count',
      description: '',
      behavior,
      constraints,
      parameters: z.object({ text: z.string() }),
      outputSchema: z.object({ count: z.number() }),
      // @ts-expect-error the result must match the output schema
      handler: ({ text }) => ({ count: text }),
    });
  });

  it('uses z.output for transformed fields', () => {
    defineTool({
      name: 'x',
      description: '',
      behavior,
      constraints,
      parameters: z.object({ n: z.string().default('1'), trimmed: z.string().trim() }),
      handler: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: string; trimmed: string }>();
      },
    });
  });

  it('accepts only object schemas as parameters', () => {
    expect(() =>
      // @ts-expect-error parameters must be a zod object
      defineTool({ name: 'x', description: '', behavior, constraints, parameters: z.string() }),
    ).toThrow();
  });

  it('requires the ToolIR fields it cannot default', () => {
    expect(() =>
      // @ts-expect-error behavior is required
      defineTool({ name: 'x', description: '', constraints, parameters: z.object({}) }),
    ).toThrow();
    expect(() =>
      defineTool({
        name: 'x',
        description: '',
        // @ts-expect-error unknown approval modes are refused
        behavior: { ...behavior, requires_approval: 'maybe' },
        constraints,
        parameters: z.object({}),
      }),
    ).toThrow();
  });
});
