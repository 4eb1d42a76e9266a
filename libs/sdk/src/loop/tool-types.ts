import type { ToolCallIR, ToolResultError, ToolResultIR } from '@toolgate/toolir';
import type { z } from 'zod';
import type { LocalToolDefinition } from '../local-tools';

/** Who ran a call: an in-process tool, the gateway, or nobody (its arguments were not JSON). */
export type ToolCallExecutor = 'local' | 'gateway' | 'none';

/**
 * A call of a local tool whose types are known (`defineTool` with zod): `arguments` as the model
 * sent them, checked against the tool's schema (the handler saw them after zod's defaults and
 * transforms).
 */
export interface TypedToolCall<TName extends string, TArguments> {
  dynamic: false;
  invalid: false;
  id: string;
  name: TName;
  arguments: TArguments;
  executedBy: 'local';
}

/**
 * A call whose types the loop does not know: a gateway tool, a tool of a plain executor, or a
 * call whose arguments failed the tool's schema (`invalid: true`) and so are not of its type.
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

/** A step's call: typed per tool name for the loop's typed local tools, dynamic otherwise. */
export type StepToolCall<TTools extends readonly LocalToolDefinition[]> =
  CallOf<TTools[number]> | DynamicToolCall;

/** A step's result, typed like its call. */
export type StepToolResult<TTools extends readonly LocalToolDefinition[]> =
  ResultOf<TTools[number]> | DynamicToolResult;

/** One call of a step and how it went, before typing. */
export interface StepOutcome {
  call: ToolCallIR;
  result: ToolResultIR;
  executedBy: ToolCallExecutor;
  /** Whether the loop knows the call's tool types (a local tool from `defineTool`). */
  typed: boolean;
}

/**
 * The typed view of a step's calls and results. A call counts as valid unless its result is the
 * `invalid_arguments` error: only then were its arguments checked against the tool's schema.
 */
export function typeStep<TTools extends readonly LocalToolDefinition[]>(
  outcomes: readonly StepOutcome[],
): { toolCalls: Array<StepToolCall<TTools>>; toolResults: Array<StepToolResult<TTools>> } {
  const toolCalls: Array<StepToolCall<TTools>> = [];
  const toolResults: Array<StepToolResult<TTools>> = [];
  for (const { call, result, executedBy, typed } of outcomes) {
    const invalid = !result.ok && result.error?.code === 'invalid_arguments';
    const base = { id: call.id, name: call.name, arguments: call.arguments };
    const outcome = { callId: result.call_id, name: result.name, result };
    if (typed && !invalid && executedBy === 'local') {
      // Typed by name: the call ran the local tool of that name, whose schemas checked it.
      toolCalls.push({
        ...base,
        dynamic: false,
        invalid: false,
        executedBy,
      } as StepToolCall<TTools>);
      toolResults.push(
        (result.ok
          ? { ...outcome, dynamic: false, ok: true, data: result.data }
          : {
              ...outcome,
              dynamic: false,
              ok: false,
              error: result.error,
            }) as StepToolResult<TTools>,
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
