import type { ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { OpenAIResponsesFunctionToolSchema } from './openai-responses-api';

/** Imports a Responses API function tool (an omitted `parameters` is an empty parameter list). */
export function convertToolFromOpenAIResponses(
  wire: unknown,
  options: ToolFromWireOptions = {},
): ToolIR {
  const tool = parseWire(OpenAIResponsesFunctionToolSchema, wire, {
    provider: 'openai-responses',
    path: '/',
  });
  return buildImportedTool(
    {
      wireName: tool.name,
      description: tool.description ?? '',
      parameters: tool.parameters ?? { type: 'object', properties: {} },
      ...(tool.strict === true ? { provider_hints: { openai: { strict: true } } } : {}),
    },
    { provider: 'openai-responses', names: options.names },
  );
}
