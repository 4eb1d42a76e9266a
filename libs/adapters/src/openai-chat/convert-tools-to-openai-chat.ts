import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type { OpenAIChatFunctionTool, OpenAIChatRequestOptions } from './openai-chat-api';
import { downgradeSchemaForOpenAIChat } from './downgrade-schema-for-openai-chat';

const MAX_CHAT_TOOLS = 128;

/**
 * ToolIR -> Chat Completions `tools` (+ `parallel_tool_calls` when the option is given).
 * Chat Completions has no deferred loading: `deferLoading` is reported and every tool sent.
 */
export function convertToolsToOpenAIChat(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<OpenAIChatFunctionTool, OpenAIChatFunctionTool, OpenAIChatRequestOptions> {
  const strict = options.strict ?? false;
  const { definitions, report } = convertToolList(
    tools,
    'openai-chat',
    (tool, { wireName, reporter }) => ({
      type: 'function' as const,
      function: {
        name: wireName,
        description: tool.description,
        parameters: downgradeSchemaForOpenAIChat(tool.parameters, reporter, {
          strict,
          limits: options.limits,
        }),
        strict,
      },
    }),
  );
  noteUnsupportedOptions(report, {
    deferLoading: defersAny(tools, options),
    wire: 'OpenAI Chat Completions',
  });
  // "A max of 128 functions are supported" (openapi.yaml, CreateChatCompletionRequest.tools).
  if (definitions.length > MAX_CHAT_TOOLS)
    report.limits.push({
      tool: '*',
      limit: 'maxTools',
      actual: definitions.length,
      max: MAX_CHAT_TOOLS,
    });
  return {
    tools: definitions,
    definitions,
    requestOptions:
      options.parallelCalls === undefined ? {} : { parallel_tool_calls: options.parallelCalls },
    report,
  };
}
