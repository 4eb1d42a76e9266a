import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type { GeminiFunctionDeclaration, GeminiRequestOptions, GeminiTool } from './gemini-api';
import { downgradeSchemaForGemini } from './downgrade-schema-for-gemini';

/**
 * ToolIR -> one Gemini `tools` entry of `functionDeclarations` (none when there are no tools).
 * `strict` has no Gemini counterpart, nor have `parallelCalls: false` and `deferLoading`: they are
 * reported (tool `*`), not sent.
 */
export function convertToolsToGemini(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<GeminiTool, GeminiFunctionDeclaration, GeminiRequestOptions> {
  const mode = options.schemaMode ?? 'openapi';
  const maxRecursion = options.maxRecursion ?? 1;
  const { definitions, report } = convertToolList(
    tools,
    'gemini',
    (tool, { wireName, reporter }) => ({
      name: wireName,
      description: descriptionForWire(tool.description, 'gemini', reporter),
      ...downgradeSchemaForGemini(tool.parameters, reporter, { mode, maxRecursion }),
    }),
  );
  noteUnsupportedOptions(report, {
    strict: options.strict,
    parallelCalls: options.parallelCalls,
    deferLoading: defersAny(tools, options),
    wire: 'Gemini',
  });
  return {
    tools: definitions.length === 0 ? [] : [{ functionDeclarations: definitions }],
    definitions,
    requestOptions: {},
    report,
  };
}
