import { isRecord, textInputParameters, type ToolIR } from '@toolgate/toolir';
import { buildImportedTool } from '../shared/import-tool';
import type { ToolFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import {
  OpenAIResponsesCustomToolSchema,
  OpenAIResponsesFunctionToolSchema,
} from './openai-responses-api';

/**
 * Imports a Responses API function tool (an omitted `parameters` is an empty parameter list), or
 * a custom tool as a free-text tool with its grammar.
 */
export function convertToolFromOpenAIResponses(
  wire: unknown,
  options: ToolFromWireOptions = {},
): ToolIR {
  if (isRecord(wire) && wire['type'] === 'custom') {
    const custom = parseWire(OpenAIResponsesCustomToolSchema, wire, {
      provider: 'openai-responses',
      path: '/',
    });
    const format = custom.format;
    return buildImportedTool(
      {
        wireName: custom.name,
        description: custom.description ?? '',
        parameters: textInputParameters(),
        input_format:
          format?.type === 'grammar'
            ? { type: 'text', grammar: { syntax: format.syntax, definition: format.definition } }
            : { type: 'text' },
      },
      { provider: 'openai-responses', names: options.names },
    );
  }
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
