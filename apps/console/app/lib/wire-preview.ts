import { getAdapter, isProvider } from '@toolgate/adapters';
import { isRecord, ToolResultIRSchema, type ToolCallIR } from '@toolgate/toolir';
import type { Call } from './api-types';

/** A call's request and result in its provider's own wire format, rebuilt with the adapters. */
export interface WirePreview {
  request: unknown;
  /** Null while the call has no result, or when the stored result is not a ToolResultIR. */
  result: unknown;
}

/** Null for calls that did not come in a provider format (e.g. `ir`), which are shown as stored. */
export function wirePreview(call: Call): WirePreview | null {
  if (!isProvider(call.provider)) return null;
  const adapter = getAdapter(call.provider);
  const request: ToolCallIR = {
    id: call.provider_call_id,
    name: call.tool.name,
    arguments: isRecord(call.arguments) ? call.arguments : {},
    provider_call_id: call.provider_call_id,
  };
  // The stored result crossed the network: only a valid ToolResultIR is converted.
  const result = ToolResultIRSchema.safeParse(call.result);
  return {
    request: adapter.callsToWire([request]),
    result: result.success ? adapter.resultsToWire([result.data]) : null,
  };
}
