import type { ToolLoopStep } from '../agent-loop';
import type { LocalToolDefinition } from '../local-tools';
import type { NoRegistryTools, RegistryToolTypes } from './tool-types';

/** What a stop condition sees: every executed step so far, the last one last. */
export interface StopConditionContext<
  TTools extends readonly LocalToolDefinition[],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> {
  steps: ReadonlyArray<ToolLoopStep<TTools, TRegistry>>;
}

/** Asked after each executed step; `true` ends the loop with `stopped: 'stop_condition'`. */
export type StopCondition<
  TTools extends readonly LocalToolDefinition[] = readonly [],
  TRegistry extends RegistryToolTypes = NoRegistryTools,
> = (context: StopConditionContext<TTools, TRegistry>) => boolean | PromiseLike<boolean>;

/** A condition that reads only what every step has (fits the `stopWhen` of any loop). */
export type AnyStepStopCondition = (context: {
  steps: ReadonlyArray<{ toolCalls: ReadonlyArray<{ name: string }> }>;
}) => boolean;

/** Stops once `count` steps of tool calls have run. */
export function stepCountIs(count: number): AnyStepStopCondition {
  return ({ steps }) => steps.length >= count;
}

/** Stops after a step in which the model called one of these tools (e.g. a `final_answer` tool). */
export function hasToolCall(...names: string[]): AnyStepStopCondition {
  const wanted = new Set(names);
  return ({ steps }) => steps.at(-1)?.toolCalls.some((call) => wanted.has(call.name)) ?? false;
}

/** Whether any of the conditions holds (they are asked in order; the first `true` wins). */
export async function anyStopCondition<
  TTools extends readonly LocalToolDefinition[],
  TRegistry extends RegistryToolTypes,
>(
  conditions: ReadonlyArray<StopCondition<TTools, TRegistry>>,
  context: StopConditionContext<TTools, TRegistry>,
): Promise<boolean> {
  for (const condition of conditions) if (await condition(context)) return true;
  return false;
}
