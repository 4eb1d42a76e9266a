import {
  canonicalJson,
  parseJsonPointer,
  resolveJsonPointer,
  resourceKeyOf as declaredResourceOf,
  ToolgateError,
} from '@toolgate/toolir';
import type { ToolCallIR, ToolIR } from '@toolgate/toolir';

/** Why a batch cannot be planned. */
export type BatchPlanErrorCode = 'dependency_cycle' | 'duplicate_call_id';

/** A batch whose calls cannot be ordered: a dependency cycle (with the call ids on it) or a repeated call id. */
export class BatchPlanError extends ToolgateError<BatchPlanErrorCode> {
  /** The call ids on the cycle, first id repeated at the end. */
  readonly cycle: string[];

  constructor(code: BatchPlanErrorCode, message: string, cycle: string[] = []) {
    super(code, message, code === 'dependency_cycle' ? { details: { cycle } } : {});
    this.name = 'BatchPlanError';
    this.cycle = cycle;
  }
}

/** One call in a plan, with the calls it waits for and why. */
export interface BatchNode {
  call: ToolCallIR;
  /** Undefined when the tool is unknown (the call then fails on its own, with no edges). */
  tool: ToolIR | undefined;
  /** Ids of the calls that must finish (successfully) first. */
  dependsOn: string[];
  /** The resource the call writes, for non-readonly tools. */
  resourceKey?: string;
}

/** A batch as a DAG, with one valid execution order. */
export interface BatchPlan {
  nodes: BatchNode[];
  /** Call ids in a topological order (ties kept in the model's order). */
  order: string[];
}

/**
 * The resource a non-readonly call writes: the resource its tool's `concurrency` declares
 * (`resource:<type>:<id>`, shared by every tool declaring that type); else
 * `provider_hints.toolgate.resource_key` (a JSON Pointer into the arguments) gives
 * `<pointer>=<value>`, so tools naming the same pointer share a key; otherwise the tool's name.
 */
export function resourceKeyOf(call: ToolCallIR, tool: ToolIR): string | undefined {
  if (tool.behavior.readonly) return undefined;
  // A declared resource (`concurrency`) names it by type and id, whichever tool writes it.
  const declared = declaredResourceOf(tool, { arguments: call.arguments });
  if (declared !== undefined) return `resource:${declared}`;
  const pointer = tool.provider_hints?.['toolgate']?.['resource_key'];
  if (typeof pointer === 'string') {
    const tokens = parseJsonPointer(pointer);
    const value = tokens === undefined ? undefined : resolveJsonPointer(call.arguments, tokens);
    if (value !== undefined) return `${pointer}=${canonicalJson(value)}`;
  }
  return `tool:${tool.name}`;
}

function findCycle(nodes: readonly BatchNode[], remaining: ReadonlySet<string>): string[] {
  const byId = new Map(nodes.map((node) => [node.call.id, node]));
  const visiting: string[] = [];
  const visited = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    const index = visiting.indexOf(id);
    if (index >= 0) return [...visiting.slice(index), id];
    if (visited.has(id)) return undefined;
    visited.add(id);
    visiting.push(id);
    for (const dependency of byId.get(id)?.dependsOn ?? []) {
      if (!remaining.has(dependency)) continue;
      const cycle = visit(dependency);
      if (cycle !== undefined) return cycle;
    }
    visiting.pop();
    return undefined;
  };
  for (const id of remaining) {
    const cycle = visit(id);
    if (cycle !== undefined) return cycle;
  }
  return [...remaining];
}

/**
 * Plans the calls of one model turn as a DAG: a call waits for every call in the batch to the tools its tool
 * declares in `dependencies.tools`, and writes to one resource keep the model's order. Throws BatchPlanError
 * on a cycle or a repeated call id.
 */
export function planBatch(
  calls: readonly ToolCallIR[],
  tools: (call: ToolCallIR) => ToolIR | undefined,
): BatchPlan {
  const seen = new Set<string>();
  for (const call of calls) {
    if (seen.has(call.id))
      throw new BatchPlanError('duplicate_call_id', `the batch has two calls with id "${call.id}"`);
    seen.add(call.id);
  }
  const lastWriter = new Map<string, string>();
  const nodes: BatchNode[] = calls.map((call) => {
    const tool = tools(call);
    const dependsOn = new Set<string>();
    let resourceKey: string | undefined;
    if (tool !== undefined) {
      const needed = new Set(tool.dependencies?.tools ?? []);
      for (const other of calls) {
        if (other.id !== call.id && needed.has(other.name)) dependsOn.add(other.id);
      }
      resourceKey = resourceKeyOf(call, tool);
      if (resourceKey !== undefined) {
        const previous = lastWriter.get(resourceKey);
        if (previous !== undefined) dependsOn.add(previous);
        lastWriter.set(resourceKey, call.id);
      }
    }
    return {
      call,
      tool,
      dependsOn: [...dependsOn],
      ...(resourceKey === undefined ? {} : { resourceKey }),
    };
  });
  // Kahn's algorithm, always taking the earliest ready call so the order stays close to the model's.
  const remaining = new Set(nodes.map((node) => node.call.id));
  const order: string[] = [];
  while (remaining.size > 0) {
    const next = nodes.find(
      (node) => remaining.has(node.call.id) && node.dependsOn.every((id) => !remaining.has(id)),
    );
    if (next === undefined) {
      const cycle = findCycle(nodes, remaining);
      throw new BatchPlanError(
        'dependency_cycle',
        `the calls depend on each other in a cycle: ${cycle.join(' -> ')}`,
        cycle,
      );
    }
    remaining.delete(next.call.id);
    order.push(next.call.id);
  }
  return { nodes, order };
}
