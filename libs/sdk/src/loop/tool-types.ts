import type { ToolCallIR, ToolResultError, ToolResultIR } from '@toolgate/toolir';
import type { z } from 'zod';
import type { LocalToolDefinition } from '../local-tools';

/** Who ran a call: an in-process tool, the gateway, the loop's tool search, or nobody (its arguments were not JSON). */
export type ToolCallExecutor = 'local' | 'gateway' | 'search' | 'none';

/**
 * The argument and result types of registry tools, by tool name: what generated declarations of
 * a catalog state (an interface or type of this shape), for `registryTypes`.
 */
export type RegistryToolTypes = Record<string, { arguments: object; result: unknown }>;

/** No registry tool types: every gateway call is dynamic. */
export type NoRegistryTools = Record<never, never>;

/**
 * Which registry tools a client knows the types of. The names are what the client checks at run
 * time (a call of a tool outside them stays dynamic); the types ride along for the compiler only.
 */
export interface RegistryTypes<TRegistry extends RegistryToolTypes> {
  readonly names: ReadonlySet<string>;
  /** Never set: it carries `TRegistry` to the client's type. */
  readonly types?: TRegistry;
}

/**
 * Declares the types of registry tools for `new Toolgate({ types })`: their calls in loop steps
 * and `call()` results are then typed by name, like `defineTool` tools.
 *
 * `registryTypes<{ get_weather: { arguments: { city: string }; result: Weather } }>(['get_weather'])`
 */
export function registryTypes<TRegistry extends RegistryToolTypes>(
  names: ReadonlyArray<keyof TRegistry & string>,
): RegistryTypes<TRegistry> {
  return { names: new Set(names) };
}

/**
 * A call of a tool whose types are known (a local `defineTool` tool, or a registry tool declared
 * with `registryTypes`): `arguments` as the model sent them, checked against the tool's schema
 * (a local handler saw them after zod's defaults and transforms).
 */
export interface TypedToolCall<
  TName extends string,
  TArguments,
  TExecutor extends 'local' | 'gateway' = 'local',
> {
  dynamic: false;
  invalid: false;
  id: string;
  name: TName;
  arguments: TArguments;
  executedBy: TExecutor;
}

/**
 * A call whose types the loop does not know: a gateway tool, a tool of a plain executor, or a
 * call whose arguments failed the tool's schema or were cut off (`invalid: true`) and so are not
 * of its type.
 */
export interface DynamicToolCall {
  dynamic: true;
  invalid: boolean;
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  executedBy: ToolCallExecutor;
}

/** The result of a typed call: the handler's return value as `data`, or the error the model read. */
export type TypedToolResult<TName extends string, TData> =
  | { dynamic: false; callId: string; name: TName; ok: true; data: TData; result: ToolResultIR }
  | {
      dynamic: false;
      callId: string;
      name: TName;
      ok: false;
      error: ToolResultError;
      result: ToolResultIR;
    };

/** The result of a dynamic call, as the ToolResultIR says. */
export interface DynamicToolResult {
  dynamic: true;
  callId: string;
  name: string;
  ok: boolean;
  data: unknown;
  error: ToolResultError | undefined;
  result: ToolResultIR;
}

/** What a typed local tool definition looks like to the loop: `defineTool`'s result fits. */
interface TypedDefinition<TName extends string, TParams extends z.ZodType, TData> {
  readonly name: TName;
  readonly parameters: TParams;
  readonly handler?: (args: never, context: never) => TData;
}

type CallOf<TDefinition> =
  TDefinition extends TypedDefinition<infer TName, infer TParams, infer _TData>
    ? TypedToolCall<TName, z.input<TParams>>
    : never;

type ResultOf<TDefinition> =
  TDefinition extends TypedDefinition<infer TName, infer _TParams, infer TData>
    ? TypedToolResult<TName, Awaited<TData>>
    : never;

type RegistryCallOf<TRegistry extends RegistryToolTypes> = {
  [TName in keyof TRegistry & string]: TypedToolCall<
    TName,
    TRegistry[TName]['arguments'],
    'gateway'
  >;
}[keyof TRegistry & string];

type RegistryResultOf<TRegistry extends RegistryToolTypes> = {
  [TName in keyof TRegistry & string]: TypedToolResult<TName, TRegistry[TName]['result']>;
}[keyof TRegistry & string];

/** A step's call: typed per tool name for the loop's typed local and registry tools, dynamic otherwise. */
export type StepToolCall<
  TTools extends readonly LocalToolDefinition[],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = CallOf<TTools[number]> | RegistryCallOf<TRegistry> | DynamicToolCall;

/** A step's result, typed like its call. */
export type StepToolResult<
  TTools extends readonly LocalToolDefinition[],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = ResultOf<TTools[number]> | RegistryResultOf<TRegistry> | DynamicToolResult;

/** One call of a step and how it went, before typing. */
export interface StepOutcome {
  call: ToolCallIR;
  result: ToolResultIR;
  executedBy: ToolCallExecutor;
  /** Whether the loop knows the types of the tool that ran it (`defineTool`, `registryTypes`). */
  typed: boolean;
}

/**
 * The typed view of a step's calls and results. A call counts as valid unless its result is the
 * `invalid_arguments` error: only then were its arguments checked against the tool's schema.
 */
export function typeStep<
  TTools extends readonly LocalToolDefinition[],
  TRegistry extends RegistryToolTypes,
>(
  outcomes: readonly StepOutcome[],
): {
  toolCalls: Array<StepToolCall<TTools, TRegistry>>;
  toolResults: Array<StepToolResult<TTools, TRegistry>>;
} {
  const toolCalls: Array<StepToolCall<TTools, TRegistry>> = [];
  const toolResults: Array<StepToolResult<TTools, TRegistry>> = [];
  for (const { call, result, executedBy, typed } of outcomes) {
    // Cut-off arguments are not of the tool's type either.
    const invalid =
      !result.ok &&
      (result.error?.code === 'invalid_arguments' || result.error?.code === 'incomplete_arguments');
    const base = { id: call.id, name: call.name, arguments: call.arguments };
    const outcome = { callId: result.call_id, name: result.name, result };
    if (typed && !invalid && executedBy !== 'none') {
      // Typed by name: the call ran the tool of that name, whose schema checked its arguments.
      toolCalls.push({
        ...base,
        dynamic: false,
        invalid: false,
        executedBy,
      } as StepToolCall<TTools, TRegistry>);
      toolResults.push(
        (result.ok
          ? { ...outcome, dynamic: false, ok: true, data: result.data }
          : {
              ...outcome,
              dynamic: false,
              ok: false,
              error: result.error,
            }) as StepToolResult<TTools, TRegistry>,
      );
      continue;
    }
    toolCalls.push({ ...base, dynamic: true, invalid, executedBy });
    toolResults.push({
      ...outcome,
      dynamic: true,
      ok: result.ok,
      data: result.data,
      error: result.error,
    });
  }
  return { toolCalls, toolResults };
}
