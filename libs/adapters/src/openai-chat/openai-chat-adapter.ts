import { throwFirstArgumentsError } from '../shared/call-context';
import type { ToolAdapter } from '../shared/tool-adapter';
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatRequestOptions,
  OpenAIChatTool,
  OpenAIChatToolMessage,
} from './openai-chat-api';
import { convertCallsToOpenAIChat } from './convert-calls-to-openai-chat';
import { convertResultsToOpenAIChat } from './convert-results-to-openai-chat';
import { convertToolFromOpenAIChat } from './convert-tool-from-openai-chat';
import { convertToolsToOpenAIChat } from './convert-tools-to-openai-chat';
import { parseOpenAIChatToolCalls } from './parse-openai-chat-tool-calls';
import { parseOpenAIChatToolResults } from './parse-openai-chat-tool-results';

/** The OpenAI Chat Completions adapter. */
export type OpenAIChatAdapter = ToolAdapter<
  OpenAIChatTool,
  OpenAIChatTool,
  OpenAIChatRequestOptions,
  OpenAIChatAssistantMessage,
  OpenAIChatToolMessage[]
>;

/**
 * Tool calling over OpenAI Chat Completions (`tools`, `tool_calls`, `role:'tool'` messages); a
 * free-text tool is a custom tool, its calls `type: 'custom'` calls, answered by `role:'tool'` too.
 */
export const openAIChatAdapter: OpenAIChatAdapter = {
  provider: 'openai-chat',
  toolsToWire: convertToolsToOpenAIChat,
  toolFromWire: convertToolFromOpenAIChat,
  parseCalls: parseOpenAIChatToolCalls,
  callsFromWire: (payload, options) =>
    throwFirstArgumentsError(parseOpenAIChatToolCalls(payload, options)),
  callsToWire: convertCallsToOpenAIChat,
  resultsToWire: convertResultsToOpenAIChat,
  resultsFromWire: parseOpenAIChatToolResults,
};
