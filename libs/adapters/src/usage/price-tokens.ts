import type { Provider } from '../shared/provider';
import type { TokenUsage } from './token-usage';

/** A model's prices in US dollars per million tokens, as providers publish them. */
export interface TokenPrices {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

/** Who prices a wire format's tokens: the company whose models speak it; MCP has none. */
export type PricingProvider = 'openai' | 'anthropic' | 'google';

/** The pricing provider of a wire format (both OpenAI wires are OpenAI's models). */
export function pricingProviderOf(format: Provider): PricingProvider | undefined {
  switch (format) {
    case 'openai-chat':
    case 'openai-responses':
      return 'openai';
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'google';
    case 'mcp':
      return undefined;
  }
}

/** What tokens cost at these prices, in US dollars (reasoning is inside `output`, priced there). */
export function priceTokens(tokens: TokenUsage, prices: TokenPrices): number {
  return (
    (tokens.input * prices.input +
      tokens.output * prices.output +
      tokens.cache_read * prices.cache_read +
      tokens.cache_write * prices.cache_write) /
    1_000_000
  );
}

// A dated snapshot (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`) is priced as its model.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The names a response's model may be priced under, most specific first: the name itself, then
 * without Gemini's `models/` prefix and without a snapshot date.
 */
export function priceKeysOf(model: string): string[] {
  const bare = model.replace(/^models\//, '');
  const keys = [model, bare, bare.replace(SNAPSHOT_SUFFIX, '')];
  return keys.filter((key, index) => key !== '' && keys.indexOf(key) === index);
}
