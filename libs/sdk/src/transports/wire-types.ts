import type {
  AdapterByProvider,
  AnthropicTool,
  GeminiTool,
  McpTool,
  OpenAIChatFunctionTool,
  OpenAIResponsesFunctionTool,
  Provider,
} from '@toolgate/adapters';

/** The shape of one exported tool in each wire format (what goes into the provider request's `tools`). */
export interface WireToolByProvider {
  'openai-chat': OpenAIChatFunctionTool;
  'openai-responses': OpenAIResponsesFunctionTool;
  anthropic: AnthropicTool;
  gemini: GeminiTool;
  mcp: McpTool;
}

/** What each wire format appends to the conversation after running calls (`resultsToWire`'s output). */
export type WireResultsByProvider = {
  [TProvider in Provider]: ReturnType<AdapterByProvider[TProvider]['resultsToWire']>;
};
