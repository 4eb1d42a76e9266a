import { anthropicAdapter, type AnthropicAdapter } from './anthropic/anthropic-adapter';
import { geminiAdapter, type GeminiAdapter } from './gemini/gemini-adapter';
import { mcpAdapter, type McpAdapter } from './mcp/mcp-adapter';
import { openAIChatAdapter, type OpenAIChatAdapter } from './openai-chat/openai-chat-adapter';
import {
  openAIResponsesAdapter,
  type OpenAIResponsesAdapter,
} from './openai-responses/openai-responses-adapter';
import { AdapterError } from './shared/adapter-error';
import type { Provider } from './shared/provider';

/** Each provider's adapter type, with its precise wire types. */
export interface AdapterByProvider {
  'openai-chat': OpenAIChatAdapter;
  'openai-responses': OpenAIResponsesAdapter;
  anthropic: AnthropicAdapter;
  gemini: GeminiAdapter;
  mcp: McpAdapter;
}

const ADAPTERS: AdapterByProvider = {
  'openai-chat': openAIChatAdapter,
  'openai-responses': openAIResponsesAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  mcp: mcpAdapter,
};

/** The adapter of one wire format; an unknown provider (from untrusted input) is an AdapterError. */
export function getAdapter<TProvider extends Provider>(
  provider: TProvider,
): AdapterByProvider[TProvider] {
  const adapter = Object.hasOwn(ADAPTERS, provider) ? ADAPTERS[provider] : undefined;
  if (adapter === undefined) {
    throw new AdapterError(`unknown provider ${JSON.stringify(provider)}`, {
      provider,
      path: '/provider',
    });
  }
  return adapter;
}
