import { throwFirstArgumentsError } from '../shared/call-context';
import type { ToolAdapter } from '../shared/tool-adapter';
import type {
  AnthropicAssistantMessage,
  AnthropicRequestOptions,
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicToolResultMessage,
} from './anthropic-api';
import { convertCallsToAnthropic } from './convert-calls-to-anthropic';
import { convertResultsToAnthropic } from './convert-results-to-anthropic';
import { convertToolFromAnthropic } from './convert-tool-from-anthropic';
import { convertToolsToAnthropic } from './convert-tools-to-anthropic';
import { parseAnthropicToolCalls } from './parse-anthropic-tool-calls';
import { parseAnthropicToolResults } from './parse-anthropic-tool-results';

/** The Anthropic Messages API adapter. */
export type AnthropicAdapter = ToolAdapter<
  AnthropicRequestTool,
  AnthropicTool,
  AnthropicRequestOptions,
  AnthropicAssistantMessage,
  AnthropicToolResultMessage
>;

/** Tool calling over the Anthropic Messages API (`tool_use` / `tool_result` blocks). */
export const anthropicAdapter: AnthropicAdapter = {
  provider: 'anthropic',
  toolsToWire: convertToolsToAnthropic,
  toolFromWire: convertToolFromAnthropic,
  parseCalls: parseAnthropicToolCalls,
  callsFromWire: (payload, options) =>
    throwFirstArgumentsError(parseAnthropicToolCalls(payload, options)),
  callsToWire: convertCallsToAnthropic,
  resultsToWire: convertResultsToAnthropic,
  resultsFromWire: parseAnthropicToolResults,
};
