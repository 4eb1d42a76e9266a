import { ToolgateError } from '@toolgate/toolir';
import type { Provider } from '../shared/provider';
import { createAnthropicStreamParser } from './anthropic-stream-parser';
import { createGeminiStreamParser } from './gemini-stream-parser';
import { createOpenAIChatStreamParser } from './openai-chat-stream-parser';
import { createOpenAIResponsesStreamParser } from './openai-responses-stream-parser';
import type { ToolCallStreamOptions } from './streamed-tool-call';
import type { ToolCallStream } from './tool-call-stream-event';

/**
 * The stream parser of `provider`: push it the provider's stream events (parsed objects, as the
 * official SDKs yield them, or as `parseSSE` decodes a raw body) and render what it returns.
 * A call ends only on the provider's end signal; with `options.tools` its end carries the validation result.
 * Throws for `mcp`, whose tool calls never arrive as a model stream.
 */
export function createToolCallStream(
  provider: Provider,
  options: ToolCallStreamOptions = {},
): ToolCallStream {
  switch (provider) {
    case 'openai-chat':
      return createOpenAIChatStreamParser(options);
    case 'openai-responses':
      return createOpenAIResponsesStreamParser(options);
    case 'anthropic':
      return createAnthropicStreamParser(options);
    case 'gemini':
      return createGeminiStreamParser(options);
    case 'mcp':
      throw new ToolgateError(
        'adapter_error',
        'mcp has no model stream: MCP tool calls arrive whole as tools/call requests',
        {
          details: { provider },
        },
      );
  }
}
