import { isRecord, textInputParameters, type ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { OpenAIChatCustomToolSchema, OpenAIChatFunctionToolSchema } from './openai-chat-api';

/**
 * Imports a Chat Completions function tool (an omitted `parameters` is an empty parameter list),
 * or a custom tool as a free-text tool with its grammar.
 */
export function convertToolFromOpenAIChat(
  wire: unknown,
  options: ToolFromWireOptions = {},
): ToolIR {
  if (isRecord(wire) && wire['type'] === 'custom') {
    const { custom } = parseWire(OpenAIChatCustomToolSchema, wire, {
      provider: 'openai-chat',
      path: '/',
    });
    const grammar = custom.format?.type === 'grammar' ? custom.format.grammar : undefined;
    return buildImportedTool(
      {
        wireName: custom.name,
        description: custom.description ?? '',
        parameters: textInputParameters(),
        input_format: grammar === undefined ? { type: 'text' } : { type: 'text', grammar },
      },
      { provider: 'openai-chat', names: options.names },
    );
  }
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
