import type { PriceProvider } from '@toolgate/contract';
import type { TokenPrices } from '@toolgate/adapters';

/**
 * The day the defaults below were read from the providers' public price pages. They are defaults,
 * not truths: providers change prices, and contracts, regions, batch and priority tiers differ.
 * Check your provider's price page and set what you pay with PUT /v1/prices/{provider}/{model}.
 */
export const DEFAULT_PRICES_TAKEN_ON = '2025-11-01';

/** One shipped default: US dollars per million tokens (standard tier, shortest context band). */
export interface DefaultPrice extends TokenPrices {
  provider: PriceProvider;
  model: string;
}

// OpenAI charges nothing to write its prompt cache: cache_write is the input price (never used,
// its responses report no writes). Anthropic's cache_write is the 5-minute write. Gemini's explicit
// cache storage is billed per hour, outside responses: cache_write is the input price.
export const DEFAULT_PRICES: readonly DefaultPrice[] = [
  {
    provider: 'openai',
    model: 'gpt-5',
    input: 1.25,
    output: 10,
    cache_read: 0.125,
    cache_write: 1.25,
  },
  {
    provider: 'openai',
    model: 'gpt-5-mini',
    input: 0.25,
    output: 2,
    cache_read: 0.025,
    cache_write: 0.25,
  },
  {
    provider: 'openai',
    model: 'gpt-5-nano',
    input: 0.05,
    output: 0.4,
    cache_read: 0.005,
    cache_write: 0.05,
  },
  { provider: 'openai', model: 'gpt-4.1', input: 2, output: 8, cache_read: 0.5, cache_write: 2 },
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    input: 0.4,
    output: 1.6,
    cache_read: 0.1,
    cache_write: 0.4,
  },
  {
    provider: 'openai',
    model: 'gpt-4.1-nano',
    input: 0.1,
    output: 0.4,
    cache_read: 0.025,
    cache_write: 0.1,
  },
  {
    provider: 'openai',
    model: 'gpt-4o',
    input: 2.5,
    output: 10,
    cache_read: 1.25,
    cache_write: 2.5,
  },
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    input: 0.15,
    output: 0.6,
    cache_read: 0.075,
    cache_write: 0.15,
  },
  { provider: 'openai', model: 'o3', input: 2, output: 8, cache_read: 0.5, cache_write: 2 },
  {
    provider: 'openai',
    model: 'o4-mini',
    input: 1.1,
    output: 4.4,
    cache_read: 0.275,
    cache_write: 1.1,
  },
  {
    provider: 'anthropic',
    model: 'claude-opus-4-5',
    input: 5,
    output: 25,
    cache_read: 0.5,
    cache_write: 6.25,
  },
  {
    provider: 'anthropic',
    model: 'claude-opus-4-1',
    input: 15,
    output: 75,
    cache_read: 1.5,
    cache_write: 18.75,
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    input: 3,
    output: 15,
    cache_read: 0.3,
    cache_write: 3.75,
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4',
    input: 3,
    output: 15,
    cache_read: 0.3,
    cache_write: 3.75,
  },
  {
    provider: 'anthropic',
    model: 'claude-haiku-4-5',
    input: 1,
    output: 5,
    cache_read: 0.1,
    cache_write: 1.25,
  },
  {
    provider: 'anthropic',
    model: 'claude-3-5-haiku',
    input: 0.8,
    output: 4,
    cache_read: 0.08,
    cache_write: 1,
  },
  {
    provider: 'google',
    model: 'gemini-2.5-pro',
    input: 1.25,
    output: 10,
    cache_read: 0.125,
    cache_write: 1.25,
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash',
    input: 0.3,
    output: 2.5,
    cache_read: 0.03,
    cache_write: 0.3,
  },
  {
    provider: 'google',
    model: 'gemini-2.5-flash-lite',
    input: 0.1,
    output: 0.4,
    cache_read: 0.01,
    cache_write: 0.1,
  },
  {
    provider: 'google',
    model: 'gemini-2.0-flash',
    input: 0.1,
    output: 0.4,
    cache_read: 0.025,
    cache_write: 0.1,
  },
];
