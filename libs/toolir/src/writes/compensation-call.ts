import type { ToolIR } from '../ir/tool-ir';
import { parseJsonPointer, resolveJsonPointer } from '../json-schema/json-pointer';
import { cloneJson } from '../json/clone-json';
import { setOwnProperty } from '../json/set-own-property';

/** A finished call as compensation and concurrency read it. */
export interface FinishedCall {
  arguments: Record<string, unknown>;
  /** The result's data. */
  result: unknown;
}

/** The call that undoes a completed one, or why there is none. */
export type CompensationPlan =
  | {
      kind: 'compensate';
      tool: string;
      version?: string;
      arguments: Record<string, unknown>;
    }
  /** A readonly call changed nothing. */
  | { kind: 'nothing_to_undo' }
  /** A write that declares no compensation (or whose declaration cannot be filled in). */
  | { kind: 'cannot_be_undone'; reason: string };

/** Reads a call pointer (`/arguments/...` or `/result/...`) from a finished call. */
export function readCallPointer(call: FinishedCall, pointer: string): unknown {
  const tokens = parseJsonPointer(pointer);
  if (tokens === undefined) return undefined;
  return resolveJsonPointer({ arguments: call.arguments, result: call.result }, tokens);
}

/**
 * The compensating call of a completed call of `tool`, built from its declaration. A missing value
 * is not guessed: the call is then reported as one that cannot be undone, naming the pointer.
 */
export function compensationFor(tool: ToolIR, call: FinishedCall): CompensationPlan {
  if (tool.behavior.readonly) return { kind: 'nothing_to_undo' };
  const declared = tool.compensation;
  if (declared === undefined)
    return {
      kind: 'cannot_be_undone',
      reason: `${tool.name}@${tool.version} declares no compensation`,
    };
  const args: Record<string, unknown> = {};
  for (const [name, source] of Object.entries(declared.arguments)) {
    if ('value' in source) {
      setOwnProperty(args, name, cloneJson(source.value));
      continue;
    }
    const value = readCallPointer(call, source.from);
    if (value === undefined)
      return {
        kind: 'cannot_be_undone',
        reason: `the compensation's argument "${name}" reads ${source.from}, which the call does not have`,
      };
    setOwnProperty(args, name, cloneJson(value));
  }
  return {
    kind: 'compensate',
    tool: declared.tool,
    ...(declared.version === undefined ? {} : { version: declared.version }),
    arguments: args,
  };
}
