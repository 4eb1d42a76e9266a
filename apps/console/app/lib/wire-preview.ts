import { getAdapter, isProvider } from '@toolgate/adapters';
import type { Call } from '@toolgate/contract';
import type { ToolCallIR } from '@toolgate/toolir';

/** A call's request and result in its provider's own wire format, rebuilt with the adapters. */
export interface WirePreview {
  request: unknown;
  /** Null while the call has no result. */
  result: unknown;
}

/** Null for calls that did not come in a provider format (e.g. `ir`), which are shown as stored. */
export function wirePreview(call: Call): WirePreview | null {
  if (!isProvider(call.provider)) return null;
  const adapter = getAdapter(call.provider);
  const request: ToolCallIR = {
    id: call.provider_call_id,
    name: call.tool.name,
    arguments: call.arguments,
    provider_call_id: call.provider_call_id,
  };
  return {
    request: adapter.callsToWire([request]),
    result: call.result === null ? null : adapter.resultsToWire([call.result]),
  };
}
