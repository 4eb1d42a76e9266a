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

/** Decides whether a call of a tool that needs approval may run; `true` runs it. */
export type LocalApproval = (call: ToolCallIR, tool: ToolIR) => boolean | PromiseLike<boolean>;

/** How `localTools` runs its tools. */
export interface LocalToolsOptions {
  /**
   * Asked before each call of a tool whose behavior needs a person's approval (`requires_approval:
   * 'always'`, or `'if_destructive'` on a destructive tool, as `defineTool.destructive` states):
   * show the call to the user and resolve `true` to run it. Without it such calls never run in
   * process: they get an `approval_denied` result (run them through the gateway, which holds them
   * for approval).
   */
  approve?: LocalApproval;
}

type Handler = (args: unknown, context: ToolHandlerContext) => unknown;

/** The gateway's rule, applied in process: who must say yes before the tool runs. */
function needsApproval(tool: ToolIR): boolean {
  const { requires_approval: rule, destructive } = tool.behavior;
  return rule === 'always' || (rule === 'if_destructive' && destructive);
}

class LocalTimeout extends Error {}

/**
 * Runs the handler within the tool's `timeout_ms`: its signal aborts when the budget runs out (or
 * the loop's does), and the call ends then even if the handler ignores the signal.
 */
async function withinBudget(
  run: (signal: AbortSignal) => unknown,
  input: { timeoutMs: number; signal: AbortSignal | undefined },
): Promise<unknown> {
  const budget = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      budget.abort(new LocalTimeout());
      reject(new LocalTimeout());
    }, input.timeoutMs);
  });
  const signal =
    input.signal === undefined ? budget.signal : AbortSignal.any([budget.signal, input.signal]);
  try {
    return await Promise.race([Promise.resolve(run(signal)), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function runOne(
  definition: LocalToolDefinition | undefined,
  input: { call: ToolCallIR; signal: AbortSignal | undefined; approve: LocalApproval | undefined },
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
  const { tool } = definition;
  if (needsApproval(tool) && !(await input.approve?.(call, tool))) {
    return failed({
      code: 'approval_denied',
      message:
        input.approve === undefined
          ? `${call.name} needs a person's approval, and this app runs it only when approved; it did not run.`
          : `The user did not approve this call of ${call.name}; it did not run.`,
      retryable: false,
    });
  }
  const timeoutMs = tool.constraints.timeout_ms;
  try {
    // The arguments passed the tool's own schemas, so they have the handler's argument type.
    const handler = definition.handler as Handler;
    const data = await withinBudget((signal) => handler(args, { callId: call.id, signal }), {
      timeoutMs,
      signal: input.signal,
    });
    return { call_id: call.id, name: call.name, ok: true, ...(data === undefined ? {} : { data }) };
  } catch (error) {
    if (error instanceof LocalTimeout) {
      return failed({
        code: 'timeout',
        message: `${call.name} did not finish within its ${timeoutMs} ms budget.`,
        retryable: true,
      });
    }
    return failed({
      code: 'tool_error',
      message: error instanceof Error ? error.message : String(error),
      retryable: false,
    });
  }
}

/**
 * An executor that runs tools in-process: arguments are validated against the tool's JSON Schema
 * (`validateArguments`, then the zod schema when the tool came from `defineTool`), a tool that needs
 * approval asks `options.approve`, then its handler runs within the tool's `timeout_ms`.
 * Invalid arguments become an `invalid_arguments` result, an unapproved call `approval_denied`, a
 * handler past its budget `timeout` and a throwing handler `tool_error`, all readable by the model.
 * Calls run one after another, in the model's order.
 */
export function localTools<const TTools extends readonly LocalToolDefinition[]>(
  definitions: TTools,
  options: LocalToolsOptions = {},
): LocalTools<TTools> {
  const byName = new Map(definitions.map((definition) => [definition.tool.name, definition]));
  const tools = definitions.map((definition) => definition.tool);
  const execute: ToolExecutor = async (calls, context) => {
    const results: ToolResultIR[] = [];
    for (const call of calls)
      results.push(
        await runOne(byName.get(call.name), {
          call,
          signal: context.signal,
          approve: options.approve,
        }),
      );
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
