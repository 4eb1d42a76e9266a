import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import { openAIDescription } from '../shared/json-schema/downgrade-openai-schema';
import { strictHintOf } from '../shared/strict-hint';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type { OpenAIChatFunctionTool, OpenAIChatRequestOptions } from './openai-chat-api';
import { downgradeSchemaForOpenAIChat } from './downgrade-schema-for-openai-chat';

const MAX_CHAT_TOOLS = 128;

/**
 * ToolIR -> Chat Completions `tools` (+ `parallel_tool_calls` when the option is given). Each tool
 * is strict when `strict` says so, else when it asks to be (`provider_hints.openai.strict`).
 * Chat Completions has no deferred loading: `deferLoading` is reported and every tool sent.
 */
export function convertToolsToOpenAIChat(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<OpenAIChatFunctionTool, OpenAIChatFunctionTool, OpenAIChatRequestOptions> {
  const { definitions, report } = convertToolList(tools, 'openai-chat', (tool, context) => {
    const strict = options.strict ?? strictHintOf(tool, 'openai') ?? false;
    return {
      type: 'function' as const,
      function: {
        name: context.wireName,
        description: openAIDescription(tool.description, context.reporter),
        parameters: downgradeSchemaForOpenAIChat(tool.parameters, context.reporter, {
          strict,
          limits: options.limits,
        }),
        strict,
      },
    };
  });
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
