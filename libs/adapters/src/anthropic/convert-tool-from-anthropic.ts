import type { ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { AnthropicToolSchema } from './anthropic-api';

/** Imports an Anthropic client tool; `cache_control` and `strict` are kept in `provider_hints.anthropic`. */
export function convertToolFromAnthropic(wire: unknown, options: ToolFromWireOptions = {}): ToolIR {
  const tool = parseWire(AnthropicToolSchema, wire, { provider: 'anthropic', path: '/' });
  const hints: Record<string, unknown> = {};
  if (tool.cache_control != null) hints['cache_control'] = tool.cache_control;
  if (tool.strict != null) hints['strict'] = tool.strict;
  return buildImportedTool(
    {
      wireName: tool.name,
      description: tool.description ?? '',
      parameters: tool.input_schema,
      ...(Object.keys(hints).length > 0 ? { provider_hints: { anthropic: hints } } : {}),
    },
    { provider: 'anthropic', names: options.names },
  );
}
