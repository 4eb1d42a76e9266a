import type {
  AdapterByProvider,
  AnthropicRequestTool,
  GeminiTool,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  Provider,
} from '@toolgate/adapters';

/**
 * The shape of one exported tool in each wire format (what goes into the provider request's
 * `tools`): a function, or on OpenAI's wires a custom tool for a free-text tool; with deferred
 * loading, Responses and Anthropic exports start with their tool search tool.
 */
export interface WireToolByProvider {
  'openai-chat': OpenAIChatTool;
  'openai-responses': OpenAIResponsesTool;
  anthropic: AnthropicRequestTool;
  gemini: GeminiTool;
  mcp: McpTool;
}

/** What each wire format appends to the conversation after running calls (`resultsToWire`'s output). */
export type WireResultsByProvider = {
  [TProvider in Provider]: ReturnType<AdapterByProvider[TProvider]['resultsToWire']>;
};
