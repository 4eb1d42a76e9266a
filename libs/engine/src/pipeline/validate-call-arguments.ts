import { describeArgumentErrors, ToolgateError, validateArguments } from '@toolgate/toolir';
import type { ArgumentError, ToolIR } from '@toolgate/toolir';

/** The outcome of validating a call's arguments against its tool version's schema. */
export type CallArgumentsValidation =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; kind: 'invalid_arguments'; errors: ArgumentError[]; message: string }
  | { ok: false; kind: 'invalid_schema'; message: string };

/**
 * Validates arguments with the IR's validator (Draft 2020-12, defaults applied to a copy).
 * The one place the engine validates, so the validator can change without touching the pipeline.
 */
export function validateCallArguments(tool: ToolIR, args: unknown): CallArgumentsValidation {
  try {
    const result = validateArguments(tool, args);
    if (result.ok) return { ok: true, value: result.value };
    return {
      ok: false,
      kind: 'invalid_arguments',
      errors: result.errors,
      message: `Invalid arguments for ${tool.name}: ${describeArgumentErrors(result.errors)}`,
    };
  } catch (error) {
    // A schema that cannot compile is the tool owner's problem, not the model's.
    if (ToolgateError.isInstance(error))
      return { ok: false, kind: 'invalid_schema', message: error.message };
    throw error;
  }
}
