import type { ArgumentValidationResult } from './argument-error';
import { compileValidator, type ValidatableTool } from './compile-validator';

/**
 * Validates a tool call's arguments against the tool's parameters schema (Draft 2020-12, formats on).
 * Returns the defaults-applied copy or every error, each with a message a model can act on.
 */
export function validateArguments(tool: ValidatableTool, args: unknown): ArgumentValidationResult {
  return compileValidator(tool).validate(args);
}
