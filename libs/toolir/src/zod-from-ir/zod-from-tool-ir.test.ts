import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ToolInputFormatSchema, type ToolInputFormat } from '../ir/tool-ir';
import { validateArguments } from '../validation/validate-arguments';
import type { ValidatableTool } from '../validation/compile-validator';
import corpus from './__fixtures__/argument-corpus.json';
import { zodFromToolIR } from './zod-from-tool-ir';

interface CorpusCase {
  name: string;
  parameters: Record<string, unknown>;
  input_format?: unknown;
  valid: unknown[];
  invalid: unknown[];
}

const cases = corpus.cases as CorpusCase[];

function toolOf(entry: CorpusCase, index: number): ValidatableTool {
  const inputFormat: ToolInputFormat | undefined =
    entry.input_format === undefined ? undefined : ToolInputFormatSchema.parse(entry.input_format);
  return {
    id: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
    version: '1.0.0',
    parameters: entry.parameters,
    ...(inputFormat === undefined ? {} : { input_format: inputFormat }),
  };
}

describe('zodFromToolIR over the argument corpus', () => {
  it.each(cases.map((entry, index) => [entry.name, entry, index] as const))(
    '%s: zod and the IR validator accept and refuse the same arguments',
    (_name, entry, index) => {
      const tool = toolOf(entry, index);
      const { schema } = zodFromToolIR(tool);
      const verdicts = [...entry.valid, ...entry.invalid].map((args) => {
        const validator = validateArguments(tool, args);
        const parsed = schema.safeParse(args);
        return {
          args,
          validator: validator.ok,
          zod: parsed.success,
          sameValue: validator.ok && parsed.success ? parsed.data : undefined,
          validatorValue: validator.ok ? validator.value : undefined,
        };
      });
      for (const verdict of verdicts) {
        expect({ args: verdict.args, zod: verdict.zod }).toEqual({
          args: verdict.args,
          zod: verdict.validator,
        });
        expect(verdict.sameValue).toEqual(verdict.validatorValue);
      }
      // The fixture says which arguments are valid: the validator must agree with it too.
      expect(verdicts.map((verdict) => verdict.validator)).toEqual([
        ...entry.valid.map(() => true),
        ...entry.invalid.map(() => false),
      ]);
    },
  );

  it('says which cases zod holds on its own and what it leaves to the validator', () => {
    const summary = Object.fromEntries(
      cases.map((entry, index) => {
        const converted = zodFromToolIR(toolOf(entry, index));
        return [
          entry.name,
          converted.exact
            ? 'exact'
            : [...new Set(converted.checkedByValidator.map((item) => item.keyword))].join(','),
        ];
      }),
    );
    expect(summary).toMatchInlineSnapshot(`
      {
        "all-of-objects": "exact",
        "enum-const-mixed": "exact",
        "flat-object": "exact",
        "free-text-with-regex-grammar": "grammar",
        "free-text-without-grammar": "exact",
        "nullable-anyof-and-type-arrays": "exact",
        "numbers": "exact",
        "one-of-discriminated": "exact",
        "one-of-overlapping": "exact",
        "open-object-and-nested-defaults": "default",
        "recursive-tree": "exact",
        "string-lengths-count-code-points": "exact",
        "tuple-and-records": "exact",
        "zod-diverges-conditionals-and-negation": "if,then,dependentRequired,not",
        "zod-diverges-defaults-under-any-of": "exact",
        "zod-diverges-formats": "format",
        "zod-diverges-fractional-multiple-of": "multipleOf",
        "zod-diverges-json-value-enums": "enum,const",
        "zod-diverges-one-of-with-relaxed-branches": "pattern,oneOf",
        "zod-diverges-pattern-properties": "patternProperties,additionalProperties",
        "zod-diverges-unbounded-integers": "type",
        "zod-diverges-unicode-patterns": "pattern",
      }
    `);
  });

  it('the zod-diverges cases hold arguments that z.fromJSONSchema alone judges differently', () => {
    const diverging = cases
      .map((entry, index) => ({ entry, index }))
      .filter(({ entry }) => entry.name.startsWith('zod-diverges-'));
    expect(diverging.length).toBeGreaterThan(0);
    for (const { entry, index } of diverging) {
      const tool = toolOf(entry, index);
      let plain: z.ZodType | undefined;
      try {
        plain = z.fromJSONSchema(entry.parameters, { registry: z.registry() });
      } catch {
        continue; // zod refuses the schema outright: a divergence too
      }
      const plainSchema = plain;
      const differs = [...entry.valid, ...entry.invalid].some((args) => {
        const validator = validateArguments(tool, args);
        const parsed = plainSchema.safeParse(args);
        if (validator.ok !== parsed.success) return true;
        return (
          validator.ok &&
          parsed.success &&
          JSON.stringify(parsed.data) !== JSON.stringify(validator.value)
        );
      });
      expect({ name: entry.name, differs }).toEqual({ name: entry.name, differs: true });
    }
  });
});

describe('zodFromToolIR', () => {
  const weather: ValidatableTool = {
    id: '00000000-0000-4000-8000-00000000a001',
    version: '1.0.0',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', pattern: '^\\p{Lu}' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      },
      required: ['city'],
    },
  };

  it("reports the validator's errors as zod issues at the same paths", () => {
    const result = zodFromToolIR(weather).schema.safeParse({ city: 'oslo', unit: 'kelvin' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: ['city'], message: '/city must match the pattern ^\\p{Lu}' },
      { path: ['unit'], message: '/unit must be one of: celsius, fahrenheit' },
    ]);
  });

  it('fills in defaults as the validator does, and converts each ToolIR object once', () => {
    const converted = zodFromToolIR(weather);
    expect(converted.schema.parse({ city: 'Oslo' })).toEqual({ city: 'Oslo', unit: 'celsius' });
    expect(zodFromToolIR(weather)).toBe(converted);
  });

  it('needs no validator for a schema zod holds exactly', () => {
    const converted = zodFromToolIR({
      id: '00000000-0000-4000-8000-00000000a002',
      version: '1.0.0',
      parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    });
    expect(converted.exact).toBe(true);
    expect(converted.checkedByValidator).toEqual([]);
  });
});

describe('zodFromToolIR().parseArguments', () => {
  it('gives the argument errors validateArguments gives, and the same value', () => {
    const tool: ValidatableTool = {
      id: '00000000-0000-4000-8000-00000000a003',
      version: '1.0.0',
      parameters: {
        type: 'object',
        properties: { at: { type: 'string', format: 'date' }, n: { type: 'integer', default: 1 } },
        required: ['at'],
      },
    };
    const { parseArguments } = zodFromToolIR(tool);
    for (const args of [{ at: '2026-12-06' }, { at: 'today', n: 'x' }, {}]) {
      expect(parseArguments(args)).toEqual(validateArguments(tool, args));
    }
  });
});
