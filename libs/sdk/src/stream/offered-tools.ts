import { getAdapter, type Provider } from '@toolgate/adapters';
import { isRecord, type ToolIR } from '@toolgate/toolir';

/**
 * The tools a request offered, as a stream parser needs them: ToolIRs as given, or tools in the
 * provider's wire format (what `tools()` and `localTools().toWire()` hand out) read back as
 * ToolIRs, so names map back and ends are checked against the schema the model was shown.
 */
export type OfferedTools = readonly ToolIR[] | readonly object[] | { tools: readonly object[] };

function isToolIR(tool: unknown): tool is ToolIR {
  return isRecord(tool) && typeof tool['schema_version'] === 'string' && 'behavior' in tool;
}

/** The wire tool definitions one wire tool object declares (a Gemini tool declares several). */
function declarationsOf(provider: Provider, tool: object): unknown[] {
  if (provider !== 'gemini') return [tool];
  const declarations = isRecord(tool) ? tool['functionDeclarations'] : undefined;
  return Array.isArray(declarations) ? declarations : [];
}

export function toolIRsOf(provider: Provider, offered: OfferedTools): readonly ToolIR[] {
  const list: readonly object[] = Array.isArray(offered)
    ? offered
    : (offered as { tools: readonly object[] }).tools;
  if (list.every(isToolIR)) return list;
  const adapter = getAdapter(provider);
  return list.flatMap((tool) =>
    isToolIR(tool)
      ? [tool]
      : declarationsOf(provider, tool).map((declaration) => adapter.toolFromWire(declaration)),
  );
}
