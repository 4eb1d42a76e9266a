import { z } from 'zod';
import { ToolgateError } from '../errors/toolgate-error';
import { grammarOf } from '../input-format/text-input';
import { parseJsonPointer } from '../json-schema/json-pointer';
import type { ArgumentValidationResult } from '../validation/argument-error';
import { argumentErrorsFromZod, VALIDATOR_ISSUE } from '../validation/argument-errors-from-zod';
import { compileValidator, type ValidatableTool } from '../validation/compile-validator';
import { relaxSchemaForZod, type ValidatorCheckedKeyword } from './relax-schema-for-zod';

/** A tool's arguments as a zod schema that accepts exactly what the IR's validator accepts. */
export interface ToolArgumentsSchema<TArgs = Record<string, unknown>> {
  /**
   * Parses a call's arguments: the value has the validator's defaults filled in. Typed with the
   * arguments' type on both sides, which the caller states (e.g. from `toolgate types`).
   */
  readonly schema: z.ZodType<TArgs, TArgs>;
  /** Parses with `schema`, its issues as the argument errors `validateArguments` gives. */
  readonly parseArguments: (args: unknown) => ArgumentValidationResult<TArgs>;
  /** `true` when zod's own form of the schema is faithful and the IR's validator is not consulted. */
  readonly exact: boolean;
  /** What zod could not hold faithfully, checked by the IR's validator before zod parses. */
  readonly checkedByValidator: readonly ValidatorCheckedKeyword[];
}

const converted = new WeakMap<object, ToolArgumentsSchema<unknown>>();

/**
 * Runs the IR's validator: its errors become zod issues at the same paths with the same messages,
 * and a valid value goes on with the validator's defaults filled in.
 */
function validatorStep(tool: ValidatableTool): z.ZodType<unknown, unknown> {
  const validator = compileValidator(tool);
  return z.unknown().transform((value, context) => {
    const result = validator.validate(value);
    if (result.ok) return result.value;
    for (const error of result.errors) {
      context.addIssue({
        code: 'custom',
        path: error.path === '/' ? [] : (parseJsonPointer(error.path) ?? []),
        message: error.message,
        params: { ...error.params, source: VALIDATOR_ISSUE, keyword: error.keyword },
      });
    }
    return z.NEVER;
  });
}

/**
 * The zod schema of a tool's arguments, built from its ToolIR with zod's `z.fromJSONSchema`. The
 * IR's validator stays the source of truth: where zod would read a keyword differently (formats,
 * patterns, string lengths, unbounded integers, conditionals, a regex grammar...) the keyword is
 * left to the validator, which runs first, so the schema accepts and refuses exactly the
 * arguments `validateArguments` does and its value carries the same defaults. Converted once per
 * ToolIR object. Throws `invalid_schema` for parameters the validator cannot compile.
 */
export function zodFromToolIR<TArgs = Record<string, unknown>>(
  tool: ValidatableTool,
): ToolArgumentsSchema<TArgs> {
  const cached = converted.get(tool);
  if (cached !== undefined) return cached as ToolArgumentsSchema<TArgs>;
  const relaxed = relaxSchemaForZod(tool.parameters);
  const checkedByValidator = [...relaxed.checkedByValidator];
  const grammar = grammarOf(tool);
  if (grammar?.syntax === 'regex') {
    checkedByValidator.push({
      pointer: '',
      keyword: 'grammar',
      reason: 'a regex grammar is matched by RE2, which zod does not have',
    });
  }
  let zodForm: z.ZodType;
  try {
    // A private registry: the schema's annotations must not pile up in zod's global one.
    zodForm = z.fromJSONSchema(relaxed.schema, {
      registry: z.registry(),
    });
  } catch (error) {
    throw new ToolgateError(
      'invalid_schema',
      `zod cannot read the parameters schema of ${tool.id}@${tool.version}: ${error instanceof Error ? error.message : String(error)}`,
      { details: { issues: [{ path: '/parameters', message: String(error) }] }, cause: error },
    );
  }
  const exact = checkedByValidator.length === 0;
  // zod then parses what the validator accepted, which its more permissive form always accepts.
  const schema = exact ? zodForm : validatorStep(tool).pipe(zodForm);
  // zod's form was built from this tool's own parameters, so its output is the tool's arguments.
  const typed = schema as z.ZodType<TArgs, TArgs>;
  const result: ToolArgumentsSchema<TArgs> = {
    schema: typed,
    parseArguments: (args) => {
      const parsed = typed.safeParse(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, errors: argumentErrorsFromZod(parsed.error) };
    },
    exact,
    checkedByValidator,
  };
  converted.set(tool, result);
  return result;
}
