import type { ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import { checkRequestLimits } from '../shared/provider-limits/request-limits';
import { strictHintOf } from '../shared/strict-hint';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type { OpenAIChatFunctionTool, OpenAIChatRequestOptions } from './openai-chat-api';
import { downgradeSchemaForOpenAIChat } from './downgrade-schema-for-openai-chat';

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
        description: descriptionForWire(tool.description, 'openai-chat', context.reporter),
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
  report.limits.push(...checkRequestLimits('openai-chat', definitions));
  return {
    tools: definitions,
    definitions,
    requestOptions:
      options.parallelCalls === undefined ? {} : { parallel_tool_calls: options.parallelCalls },
    report,
  };
}
