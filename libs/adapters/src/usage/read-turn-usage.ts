import type { Provider } from '../shared/provider';
import { readAnthropicUsage } from './anthropic-usage';
import { readGeminiUsage } from './gemini-usage';
import { readOpenAIChatUsage } from './openai-chat-usage';
import { readOpenAIResponsesUsage } from './openai-responses-usage';
import type { TurnUsage } from './token-usage';

/**
 * The model and tokens of the turn a payload came from, when the payload is the provider's whole
 * response (a bare message, content or item list carries no usage: undefined). MCP has no tokens.
 */
export function readTurnUsage(provider: Provider, payload: unknown): TurnUsage | undefined {
  switch (provider) {
    case 'openai-chat':
      return readOpenAIChatUsage(payload);
    case 'openai-responses':
      return readOpenAIResponsesUsage(payload);
    case 'anthropic':
      return readAnthropicUsage(payload);
    case 'gemini':
      return readGeminiUsage(payload);
    case 'mcp':
      return undefined;
  }
}
