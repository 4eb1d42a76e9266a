import type { ToolCallIR, ToolIR, ToolResultIR } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from './adapter-error';
import { buildToolNameMap, fromWireName, type ToolNameMap } from './names/tool-name-map';
import type { Provider } from './provider';
import type { CallsFromWireOptions, ParsedToolCalls, ResultsFromWireOptions } from './tool-adapter';

/** The tool list of a parse, indexed for name mapping. */
export interface ToolLookup {
  names: ToolNameMap | undefined;
  /** ToolIR by its ToolIR name. */
  byName: Map<string, ToolIR>;
}

/** Indexes the optional tool list once per payload. */
export function toolLookup(provider: Provider, tools: readonly ToolIR[] | undefined): ToolLookup {
  if (tools === undefined) return { names: undefined, byName: new Map() };
  return {
    names: buildToolNameMap(tools, provider),
    byName: new Map(tools.map((tool) => [tool.name, tool])),
  };
}

/** Maps a wire name back and finds its tool. */
export function lookUpTool(
  wireName: string,
  lookup: ToolLookup,
): { name: string; tool: ToolIR | undefined } {
  const name = fromWireName(wireName, lookup.names);
  return { name, tool: lookup.byName.get(name) };
}

/** Builds a ToolCallIR, leaving out fields that have no value. */
export function makeCall(fields: {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  raw?: string | undefined;
  providerCallId?: string | undefined;
}): ToolCallIR {
  return {
    id: fields.id,
    name: fields.name,
    arguments: fields.arguments,
    ...(fields.raw === undefined ? {} : { raw_arguments: fields.raw }),
    ...(fields.providerCallId === undefined || fields.providerCallId === fields.id
      ? {}
      : { provider_call_id: fields.providerCallId }),
  };
}

/** `callsFromWire` in terms of `parseCalls`: the first unparseable arguments are thrown. */
export function throwFirstArgumentsError(parsed: ParsedToolCalls): ToolCallIR[] {
  const first = parsed.errors[0];
  if (first instanceof InvalidToolArgumentsError) throw first;
  return parsed.calls;
}

/** Resolves the ToolIR name of a result from the calls (by call id) or the tools (by wire name). */
export function resultName(
  callId: string,
  wireName: string | undefined,
  context: { provider: Provider; options: ResultsFromWireOptions | undefined },
): string {
  const call = context.options?.calls?.find(
    (candidate) => candidate.id === callId || candidate.provider_call_id === callId,
  );
  if (call !== undefined) return call.name;
  if (wireName !== undefined)
    return fromWireName(wireName, toolLookup(context.provider, context.options?.tools).names);
  return 'unknown';
}

/** Builds a ToolResultIR, leaving out fields that have no value. */
export function makeResult(fields: Omit<ToolResultIR, 'ok'> & { ok: boolean }): ToolResultIR {
  const result: ToolResultIR = { call_id: fields.call_id, name: fields.name, ok: fields.ok };
  if (fields.data !== undefined) result.data = fields.data;
  if (fields.content !== undefined) result.content = fields.content;
  if (fields.error !== undefined) result.error = fields.error;
  if (fields.truncated !== undefined) result.truncated = fields.truncated;
  return result;
}

/** Resolves call-parse options into a lookup (kept tiny so every adapter reads the same way). */
export function callLookup(
  provider: Provider,
  options: CallsFromWireOptions | undefined,
): ToolLookup {
  return toolLookup(provider, options?.tools);
}
