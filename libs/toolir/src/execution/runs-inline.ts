import type { ToolBehavior, ToolIR } from '../ir/tool-ir';

/**
 * Whether a tool's behavior lets its calls skip the queue: an inline call runs in the API process,
 * where a slow or harmful side effect cannot be isolated, retried by a worker or drained on deploy.
 */
export function behaviorAllowsInline(
  behavior: Pick<ToolBehavior, 'readonly' | 'idempotent' | 'destructive'>,
): boolean {
  return behavior.readonly && behavior.idempotent && !behavior.destructive;
}

/**
 * True when the gateway should run the tool's calls inline: the tool asks for `inline` and its
 * behavior allows it. The behavior is checked again here because a ToolIR stored before
 * `parseToolIR` refused inline on other tools may still ask for it.
 */
export function runsInline(tool: ToolIR): boolean {
  return tool.constraints.execution === 'inline' && behaviorAllowsInline(tool.behavior);
}
