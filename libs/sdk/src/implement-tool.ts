import {
  zodFromToolIR,
  type ArgumentValidationResult,
  type ToolHandler,
  type ToolIR,
} from '@toolgate/toolir';
import type { z } from 'zod';

/**
 * A registry tool run in process: its ToolIR (e.g. from `toolDefinitions()`), the zod schema of
 * its arguments and a handler typed with them. A `LocalToolDefinition`, so `localTools` runs it.
 */
export interface ImplementedTool<TName extends string, TArguments extends object, TResult> {
  readonly name: TName;
  readonly tool: ToolIR;
  /** The arguments as zod, accepting exactly what the IR's validator accepts (`zodFromToolIR`). */
  readonly parameters: z.ZodType<TArguments, TArguments>;
  readonly handler: ToolHandler<TArguments, TResult>;
  /** Validates and parses arguments: the value the handler gets, defaults filled in. */
  readonly parseArguments: (args: unknown) => ArgumentValidationResult<TArguments>;
}

/**
 * Gives a tool that arrives as ToolIR (pulled from the registry, read from a file) a handler with
 * typed, validated arguments. The types are the caller's to state, as `toolgate types` writes
 * them: `implementTool<ToolgateTools['get_weather']>(tool, handler)`. Validation does not trust
 * them: each call's arguments pass the tool's own schema first (a free-text tool's `{input}`
 * against its grammar too).
 */
export function implementTool<
  TTypes extends { arguments: object; result: unknown } = {
    arguments: Record<string, unknown>;
    result: unknown;
  },
  TName extends string = string,
>(
  tool: ToolIR & { name: TName },
  handler: ToolHandler<TTypes['arguments'], TTypes['result']>,
): ImplementedTool<TName, TTypes['arguments'], TTypes['result']> {
  const { schema, parseArguments } = zodFromToolIR<TTypes['arguments']>(tool);
  return { name: tool.name, tool, parameters: schema, handler, parseArguments };
}
