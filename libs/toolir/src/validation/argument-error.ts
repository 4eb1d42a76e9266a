import type { ToolResultError } from '../ir/tool-result-ir';

/** One reason a tool call's arguments were rejected, worded so a model can fix its call. */
export interface ArgumentError {
  /** JSON Pointer of the offending value ('/' for the arguments object itself); for a missing or unexpected property it points at that property. */
  path: string;
  /** The JSON Schema keyword that failed, e.g. `required`, `enum`, `format`, `anyOf`. */
  keyword: string;
  /** A complete sentence naming the path and what a valid value looks like, e.g. `/count must be <= 10`. */
  message: string;
  /** The keyword's data (limits, allowed values, missing property), for callers that render their own text. */
  params?: Record<string, unknown>;
}

/** The outcome of validating arguments: the (copied, defaults-applied) value, or every error found. */
export type ArgumentValidationResult<TValue = Record<string, unknown>> =
  { ok: true; value: TValue } | { ok: false; errors: ArgumentError[] };

/** Joins argument errors into one line, e.g. for an `invalid_arguments` tool result shown to the model. */
export function describeArgumentErrors(errors: readonly ArgumentError[]): string {
  return errors.map((error) => error.message).join('; ');
}

/**
 * The `invalid_arguments` error of a tool result for failed validation: not retryable as is,
 * with a message the model can act on and the structured errors in `details.errors`.
 */
export function toInvalidArgumentsError(errors: readonly ArgumentError[]): ToolResultError {
  return {
    code: 'invalid_arguments',
    message: `Invalid arguments: ${describeArgumentErrors(errors)}`,
    retryable: false,
    details: { errors: [...errors] },
  };
}
