import type { ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { OpenAIChatFunctionToolSchema } from './openai-chat-api';

/** Imports a Chat Completions function tool (an omitted `parameters` is an empty parameter list). */
export function convertToolFromOpenAIChat(
  wire: unknown,
  options: ToolFromWireOptions = {},
): ToolIR {
  const tool = parseWire(OpenAIChatFunctionToolSchema, wire, {
    provider: 'openai-chat',
    path: '/',
  });
  return buildImportedTool(
    {
      wireName: tool.function.name,
      description: tool.function.description ?? '',
      parameters: tool.function.parameters ?? { type: 'object', properties: {} },
      ...(tool.function.strict === true ? { provider_hints: { openai: { strict: true } } } : {}),
    },
    { provider: 'openai-chat', names: options.names },
  );
}
