import { AdapterError } from '../shared/adapter-error';
import type { Provider } from '../shared/provider';
import type { CallsFromWireOptions } from '../shared/tool-adapter';
import { parseAnthropicToolSearches } from './parse-anthropic-tool-searches';
import { parseOpenAIResponsesToolSearches } from './parse-openai-responses-tool-searches';
import type { ParsedToolSearches } from './tool-search-ir';

/**
 * Every tool search in a response (or conversation) and every answer to one, in formats that
 * have tool search (`supportsToolSearch`); with the tools given, loaded names map back to
 * ToolIR names. Other formats have no search items: asking is an AdapterError.
 */
export function parseToolSearches(
  provider: Provider,
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolSearches {
  if (provider === 'openai-responses') return parseOpenAIResponsesToolSearches(payload, options);
  if (provider === 'anthropic') return parseAnthropicToolSearches(payload, options);
  throw new AdapterError('this format has no tool search items; use a function tool instead', {
    provider,
    path: '/',
  });
}
