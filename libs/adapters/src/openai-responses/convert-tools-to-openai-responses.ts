import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type {
  OpenAIResponsesFunctionTool,
  OpenAIResponsesRequestOptions,
} from './openai-responses-api';
import { downgradeSchemaForOpenAIResponses } from './downgrade-schema-for-openai-responses';

/** ToolIR -> Responses API `tools` (+ `parallel_tool_calls` when the option is given). */
export function convertToolsToOpenAIResponses(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<
  OpenAIResponsesFunctionTool,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesRequestOptions
> {
  const strict = options.strict ?? false;
  const { definitions, report } = convertToolList(
    tools,
    'openai-responses',
    (tool, { wireName, reporter }) => ({
      type: 'function' as const,
      name: wireName,
      description: tool.description,
      parameters: downgradeSchemaForOpenAIResponses(tool.parameters, reporter, {
        strict,
        limits: options.limits,
      }),
      strict,
    }),
  );
  return {
    tools: definitions,
    definitions,
    requestOptions:
      options.parallelCalls === undefined ? {} : { parallel_tool_calls: options.parallelCalls },
    report,
  };
}
