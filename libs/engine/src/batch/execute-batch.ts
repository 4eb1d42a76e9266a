import type { ToolCallIR, ToolIR } from '@toolgate/toolir';
import { executeCall } from '../pipeline/execute-call';
import type { ExecutionContext } from '../pipeline/execution-context';
import type { ExecutionResult } from '../pipeline/execution-result';
import { planBatch } from './plan-batch';
import type { BatchNode, BatchPlan } from './plan-batch';

/** Options of `executeBatch`. */
export interface BatchOptions {
  /** How many calls run at once; default 4. */
  concurrency?: number;
  /** Results of calls already done (by call id): they are not run again and count for their dependents. */
  completed?: ReadonlyMap<string, ExecutionResult>;
}

/** Every call's result, in the order of the calls, and the plan that ordered them. */
export interface BatchResult {
  results: ExecutionResult[];
  plan: BatchPlan;
}

function dependencyFailed(
  node: BatchNode,
  blocker: { id: string; result: ExecutionResult },
): ExecutionResult {
  const why =
    blocker.result.status === 'awaiting_approval'
      ? 'is awaiting approval'
      : `failed (${blocker.result.result.error?.code ?? 'error'})`;
  return {
    status: 'failed',
    result: {
      call_id: node.call.id,
      name: node.call.name,
      ok: false,
      error: {
        code: 'dependency_failed',
        message: `Not run: it depends on call ${blocker.id} (${blocker.result.result.name}), which ${why}.`,
        retryable: true,
        details: { depends_on: blocker.id },
      },
    },
    execution: { attempts: 0, latency_ms: 0 },
  };
}

/**
 * Executes the calls of one model turn: independent calls in parallel under a concurrency cap, dependents
 * after what they depend on, same-resource writes in order. Every call gets a result: a dependent of a call that
 * did not succeed gets `dependency_failed`. Throws BatchPlanError on a dependency cycle.
 */
export async function executeBatch(
  calls: readonly ToolCallIR[],
  context: ExecutionContext,
  options: BatchOptions = {},
): Promise<BatchResult> {
  const tools = new Map<string, ToolIR | undefined>();
  for (const call of calls) {
    const key = `${call.name}@${call.tool_version ?? ''}`;
    if (!tools.has(key)) tools.set(key, await context.resolveTool(call.name, call.tool_version));
  }
  const plan = planBatch(calls, (call) => tools.get(`${call.name}@${call.tool_version ?? ''}`));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const results = new Map<string, ExecutionResult>();
  for (const node of plan.nodes) {
    const done = options.completed?.get(node.call.id);
    if (done !== undefined) results.set(node.call.id, done);
  }
  const running = new Map<string, Promise<void>>();
  const waiting = (): BatchNode[] =>
    plan.nodes.filter((node) => !results.has(node.call.id) && !running.has(node.call.id));
  for (;;) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const node of waiting()) {
        if (!node.dependsOn.every((id) => results.has(id))) continue;
        const blockerId = node.dependsOn.find((id) => results.get(id)?.status !== 'succeeded');
        const blocker = blockerId === undefined ? undefined : results.get(blockerId);
        if (blockerId !== undefined && blocker !== undefined) {
          results.set(node.call.id, dependencyFailed(node, { id: blockerId, result: blocker }));
          changed = true;
          continue;
        }
        if (running.size >= concurrency) break;
        const id = node.call.id;
        running.set(
          id,
          executeCall(node.call, context).then((result) => {
            results.set(id, result);
            running.delete(id);
          }),
        );
        changed = true;
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  return {
    results: calls.map((call) => {
      const result = results.get(call.id);
      // planBatch rejected cycles, so every call has a result here.
      if (result === undefined) throw new Error(`no result for call ${call.id}`);
      return result;
    }),
    plan,
  };
}
