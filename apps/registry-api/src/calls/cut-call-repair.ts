import { incompleteArgumentsResult, repairCutArguments } from '@toolgate/adapters';
import type { CallArgumentsRepair } from '@toolgate/contract';
import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';

/**
 * What the gateway records for a call whose arguments were cut off: the completed arguments of a
 * repaired call, which then runs like any other; or, for one that is not repaired, the
 * `incomplete_arguments` result it is recorded with, never run and never retried.
 */
export type CutCallOutcome =
  | { kind: 'repaired'; arguments: Record<string, unknown>; repair: CallArgumentsRepair }
  | { kind: 'not_repaired'; refusal: ToolResultIR; repair: CallArgumentsRepair };

/**
 * Settles a cut call (`call.cut`) against the tool version it resolved to: repaired only when the
 * version opts in (`repair_cut_arguments`, which `parseToolIR` refuses on destructive tools) and
 * `repairCutArguments` finds the one completion and it validates.
 */
export function settleCutCall(
  call: Pick<ToolCallIR, 'id' | 'name' | 'raw_arguments'>,
  tool: ToolIR,
): CutCallOutcome {
  const raw = call.raw_arguments ?? '';
  const answer = { call_id: call.id, name: call.name };
  if (tool.repair_cut_arguments !== true) {
    return {
      kind: 'not_repaired',
      refusal: incompleteArgumentsResult(answer, { received: raw.length }),
      repair: {
        outcome: 'not_repaired',
        received: raw.length,
        raw_arguments: raw,
        reason: `version ${tool.version} of ${tool.name} does not opt in to repairing cut-off arguments (repair_cut_arguments)`,
      },
    };
  }
  const repaired = repairCutArguments(raw, tool);
  if (!repaired.ok) {
    return {
      kind: 'not_repaired',
      refusal: incompleteArgumentsResult(answer, { received: raw.length, reason: repaired.reason }),
      repair: {
        outcome: 'not_repaired',
        received: raw.length,
        raw_arguments: raw,
        reason: repaired.reason,
      },
    };
  }
  return {
    kind: 'repaired',
    arguments: repaired.arguments,
    repair: { outcome: 'repaired', raw_arguments: raw, ...repaired.repair },
  };
}
