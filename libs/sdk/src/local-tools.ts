import { getAdapter, type Provider } from '@toolgate/adapters';
import {
  toInvalidArgumentsError,
  validateArguments,
  type ArgumentValidationResult,
  type ToolCallIR,
  type ToolHandlerContext,
  type ToolIR,
  type ToolResultError,
  type ToolResultIR,
} from '@toolgate/toolir';
import type { WireToolByProvider } from './transports/wire-types';

/** What an executor learns about the loop step it runs calls for. */
export interface ToolExecutionContext {
  provider: Provider;
  /** The loop step, from 0. */
  step: number;
  signal?: AbortSignal;
}

/** Runs a model turn's tool calls and returns one result per call (a tool's failure is a result, not a throw). */
export type ToolExecutor = (
  calls: readonly ToolCallIR[],
  context: ToolExecutionContext,
) => Promise<ToolResultIR[]>;

/**
 * A tool runnable in-process: what `defineTool` returns (its handler's argument type is erased here,
 * since the arguments are validated before the handler sees them).
 */
export interface LocalToolDefinition {
  readonly tool: ToolIR;
  readonly handler?: (args: never, context: ToolHandlerContext) => unknown;
  /** `defineTool`'s zod parse, run after JSON Schema validation so transforms and defaults apply. */
  readonly parseArguments?: (args: unknown) => ArgumentValidationResult<unknown>;
}

/**
 * An executor of in-process tools that also carries their ToolIRs (for name mapping and for the
 * request's tools) and, as a type, their definitions (so loop steps are typed per tool name).
 */
export type LocalTools<
  TTools extends readonly LocalToolDefinition[] = readonly LocalToolDefinition[],
> = ToolExecutor & {
  /** The ToolIRs of the tools, in the order given. */
  readonly tools: readonly ToolIR[];
  /** The definitions, in the order given. */
  readonly definitions: TTools;
  /** The tools in a provider's wire format, ready for the request's `tools` (beside exported ones). */
  toWire<TProvider extends Exclude<Provider, 'mcp'>>(
    provider: TProvider,
  ): Array<WireToolByProvider[TProvider]>;
};

type Handler = (args: unknown, context: ToolHandlerContext) => unknown;

async function runOne(
  definition: LocalToolDefinition | undefined,
  input: { call: ToolCallIR; signal: AbortSignal | undefined },
): Promise<ToolResultIR> {
  const { call } = input;
  const failed = (error: ToolResultError): ToolResultIR => ({
    call_id: call.id,
    name: call.name,
    ok: false,
    error,
  });
  if (definition?.handler === undefined) {
    return failed({
      code: 'unknown_tool',
      message: `There is no local tool named "${call.name}"${definition === undefined ? '' : ' with a handler'}.`,
      retryable: false,
    });
  }
  const checked = validateArguments(definition.tool, call.arguments);
  if (!checked.ok) return failed(toInvalidArgumentsError(checked.errors));
  let args: unknown = checked.value;
  if (definition.parseArguments !== undefined) {
    const parsed = definition.parseArguments(checked.value);
    if (!parsed.ok) return failed(toInvalidArgumentsError(parsed.errors));
    args = parsed.value;
  }
  try {
    const context: ToolHandlerContext = {
      callId: call.id,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    };
    // The arguments passed the tool's own schemas, so they have the handler's argument type.
    const data = await (definition.handler as Handler)(args, context);
    return { call_id: call.id, name: call.name, ok: true, ...(data === undefined ? {} : { data }) };
  } catch (error) {
    return failed({
      code: 'tool_error',
      message: error instanceof Error ? error.message : String(error),
      retryable: false,
    });
  }
}

/**
 * An executor that runs tools in-process: arguments are validated against the tool's JSON Schema
 * (`validateArguments`, then the zod schema when the tool came from `defineTool`), then its handler runs.
 * Invalid arguments become an `invalid_arguments` result and a throwing handler a `tool_error` result,
 * both readable by the model. Calls run one after another, in the model's order.
 */
export function localTools<const TTools extends readonly LocalToolDefinition[]>(
  definitions: TTools,
): LocalTools<TTools> {
  const byName = new Map(definitions.map((definition) => [definition.tool.name, definition]));
  const tools = definitions.map((definition) => definition.tool);
  const execute: ToolExecutor = async (calls, context) => {
    const results: ToolResultIR[] = [];
    for (const call of calls)
      results.push(await runOne(byName.get(call.name), { call, signal: context.signal }));
    return results;
  };
  return Object.assign(execute, {
    tools,
    definitions,
    toWire: <TProvider extends Exclude<Provider, 'mcp'>>(provider: TProvider) =>
      // The adapter of `provider` wrote them; its declared tool type is the wire's.
      getAdapter(provider).toolsToWire(tools).tools as Array<WireToolByProvider[TProvider]>,
  });
}
