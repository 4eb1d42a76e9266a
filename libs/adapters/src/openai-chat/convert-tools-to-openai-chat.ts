import { grammarOf, isTextInput, type ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { defersAny } from '../shared/deferred-loading';
import { noteUnsupportedOptions } from '../shared/downgrade-report';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import { checkRequestLimits } from '../shared/provider-limits/request-limits';
import { strictHintOf } from '../shared/strict-hint';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type {
  OpenAIChatCustomToolFormat,
  OpenAIChatRequestOptions,
  OpenAIChatTool,
} from './openai-chat-api';
import { downgradeSchemaForOpenAIChat } from './downgrade-schema-for-openai-chat';

/** A free-text tool's input format as a Chat custom tool states it. */
function chatCustomFormatOf(tool: ToolIR): OpenAIChatCustomToolFormat {
  const grammar = grammarOf(tool);
  return grammar === undefined
    ? { type: 'text' }
    : { type: 'grammar', grammar: { syntax: grammar.syntax, definition: grammar.definition } };
}

/**
 * ToolIR -> Chat Completions `tools` (+ `parallel_tool_calls` when the option is given). Each tool
 * is strict when `strict` says so, else when it asks to be (`provider_hints.openai.strict`).
 * Chat Completions has no deferred loading: `deferLoading` is reported and every tool sent.
 * A free-text tool is a custom tool (`{type: 'custom', custom: {name, description, format}}`).
 */
export function convertToolsToOpenAIChat(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<OpenAIChatTool, OpenAIChatTool, OpenAIChatRequestOptions> {
  const { definitions, report } = convertToolList<OpenAIChatTool>(
    tools,
    'openai-chat',
    (tool, context) => {
      if (isTextInput(tool)) {
        return {
          type: 'custom' as const,
          custom: {
            name: context.wireName,
            description: descriptionForWire(tool.description, 'openai-chat', context.reporter),
            format: chatCustomFormatOf(tool),
          },
        };
      }
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
    },
  );
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
