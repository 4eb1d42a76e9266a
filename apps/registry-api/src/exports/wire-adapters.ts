import { getAdapter, type Provider } from '@toolgate/adapters';
import { ToolgateError, type Issue, type ToolIR } from '@toolgate/toolir';

/** The wire tools of one export and the adapter's report of what the format could not carry. */
export interface WireTools {
  tools: unknown[];
  request_options: object;
  downgrades: unknown;
}

export function toolsToWire(format: Provider, irs: readonly ToolIR[]): WireTools {
  const result = getAdapter(format).toolsToWire(irs);
  return { tools: result.tools, request_options: result.requestOptions, downgrades: result.report };
}

/** Imports a provider definition; the adapter's complaints come back as issues, never thrown. */
export function toolFromWire(
  format: Provider,
  definition: unknown,
): { ok: true; ir: ToolIR } | { ok: false; issues: Issue[] } {
  try {
    return { ok: true, ir: getAdapter(format).toolFromWire(definition) };
  } catch (error) {
    if (!ToolgateError.isInstance(error)) throw error;
    const details = error.details as { issues?: Issue[] } | undefined;
    return { ok: false, issues: details?.issues ?? [{ path: '/', message: error.message }] };
  }
}
