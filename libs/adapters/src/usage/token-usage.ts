import { z } from 'zod';

/**
 * The tokens of one model turn, split by how providers price them. The five counts never overlap
 * except `reasoning`, which is part of `output` and is reported only to show it.
 */
export interface TokenUsage {
  /** Prompt tokens billed at the input rate: neither read from nor written to a prompt cache. */
  input: number;
  /** Generated tokens, reasoning (thinking) included: every provider bills them as output. */
  output: number;
  /** Prompt tokens read from the provider's prompt cache. */
  cache_read: number;
  /** Prompt tokens written to the provider's prompt cache (Anthropic's cache creation). */
  cache_write: number;
  /** The share of `output` the model spent reasoning; 0 when the provider reports none. */
  reasoning: number;
}

/** What a provider's response says about the turn that produced it: the model and its tokens. */
export interface TurnUsage {
  /** The model that answered, as the response names it (`model`, or Gemini's `modelVersion`); null when absent. */
  model: string | null;
  tokens: TokenUsage;
}

/** A token count as the wire carries it: a non-negative integer, or absent/null (counted as 0). */
export const TokenCountSchema = z.number().int().nonnegative().nullish();

/** A count that may be absent, as 0. */
export function countOf(value: number | null | undefined): number {
  return value ?? 0;
}

/** The model name a response carries, or null. */
export const ModelNameSchema = z.string().min(1).max(256).nullish();
