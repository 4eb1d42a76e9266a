import { throwFirstArgumentsError } from '../shared/call-context';
import type { ToolAdapter } from '../shared/tool-adapter';
import type {
  OpenAIResponsesCallItem,
  OpenAIResponsesCallOutput,
  OpenAIResponsesDefinition,
  OpenAIResponsesRequestOptions,
  OpenAIResponsesTool,
} from './openai-responses-api';
import { convertCallsToOpenAIResponses } from './convert-calls-to-openai-responses';
import { convertResultsToOpenAIResponses } from './convert-results-to-openai-responses';
import { convertToolFromOpenAIResponses } from './convert-tool-from-openai-responses';
import { convertToolsToOpenAIResponses } from './convert-tools-to-openai-responses';
import { parseOpenAIResponsesToolCalls } from './parse-openai-responses-tool-calls';
import { parseOpenAIResponsesToolResults } from './parse-openai-responses-tool-results';

/** The OpenAI Responses API adapter. */
export type OpenAIResponsesAdapter = ToolAdapter<
  OpenAIResponsesTool,
  OpenAIResponsesDefinition,
  OpenAIResponsesRequestOptions,
  OpenAIResponsesCallItem[],
  OpenAIResponsesCallOutput[]
>;

/**
 * Tool calling over the OpenAI Responses API (`function_call` / `function_call_output` items, and
 * `custom_tool_call` / `custom_tool_call_output` for free-text tools).
 */
export const openAIResponsesAdapter: OpenAIResponsesAdapter = {
  provider: 'openai-responses',
  toolsToWire: convertToolsToOpenAIResponses,
  toolFromWire: convertToolFromOpenAIResponses,
  parseCalls: parseOpenAIResponsesToolCalls,
  callsFromWire: (payload, options) =>
    throwFirstArgumentsError(parseOpenAIResponsesToolCalls(payload, options)),
  callsToWire: convertCallsToOpenAIResponses,
  resultsToWire: convertResultsToOpenAIResponses,
  resultsFromWire: parseOpenAIResponsesToolResults,
};
