import { grammarOf, isTextInput, type ToolIR } from '@toolgate/toolir';
import { convertToolList } from '../shared/convert-tool-list';
import { deferralOf, defersAny } from '../shared/deferred-loading';
import { descriptionForWire } from '../shared/provider-limits/description-for-wire';
import { strictHintOf } from '../shared/strict-hint';
import type { ToolsToWireOptions, ToolsToWireResult } from '../shared/tool-adapter';
import type {
  OpenAIResponsesCustomToolFormat,
  OpenAIResponsesDefinition,
  OpenAIResponsesRequestOptions,
  OpenAIResponsesTool,
} from './openai-responses-api';
import { downgradeSchemaForOpenAIResponses } from './downgrade-schema-for-openai-responses';

/** A free-text tool's input format as a Responses custom tool states it. */
function responsesCustomFormatOf(tool: ToolIR): OpenAIResponsesCustomToolFormat {
  const grammar = grammarOf(tool);
  return grammar === undefined
    ? { type: 'text' }
    : { type: 'grammar', syntax: grammar.syntax, definition: grammar.definition };
}

/**
 * ToolIR -> Responses API `tools` (+ `parallel_tool_calls` when the option is given); strict as
 * for Chat Completions (the option, else `provider_hints.openai.strict`). Deferred
 * tools carry `defer_loading: true`, behind a `tool_search` tool unless `toolSearch` is `none`.
 * A free-text tool is a custom tool (`{type: 'custom', format}`), which has no strict mode.
 */
export function convertToolsToOpenAIResponses(
  tools: readonly ToolIR[],
  options: ToolsToWireOptions = {},
): ToolsToWireResult<
  OpenAIResponsesTool,
  OpenAIResponsesDefinition,
  OpenAIResponsesRequestOptions
> {
  const deferred = deferralOf(options);
  const { definitions, report } = convertToolList<OpenAIResponsesDefinition>(
    tools,
    'openai-responses',
    (tool, context) => {
      if (isTextInput(tool)) {
        return {
          type: 'custom' as const,
          name: context.wireName,
          description: descriptionForWire(tool.description, 'openai-responses', context.reporter),
          format: responsesCustomFormatOf(tool),
          ...(deferred(tool) ? { defer_loading: true } : {}),
        };
      }
      const strict = options.strict ?? strictHintOf(tool, 'openai') ?? false;
      return {
        type: 'function' as const,
        name: context.wireName,
        description: descriptionForWire(tool.description, 'openai-responses', context.reporter),
        parameters: downgradeSchemaForOpenAIResponses(tool.parameters, context.reporter, {
          strict,
          limits: options.limits,
        }),
        strict,
        ...(deferred(tool) ? { defer_loading: true } : {}),
      };
    },
  );
  const search = defersAny(tools, options) && options.toolSearch !== 'none';
  return {
    tools: search ? [{ type: 'tool_search' }, ...definitions] : definitions,
    definitions,
    requestOptions:
      options.parallelCalls === undefined ? {} : { parallel_tool_calls: options.parallelCalls },
    report,
  };
}
