import { z } from 'zod';
import { countOf, ModelNameSchema, TokenCountSchema, type TurnUsage } from './token-usage';

// The `usage` of a Message (Anthropic API reference, Messages: "usage").
const MessageUsageSchema = z.object({
  model: ModelNameSchema,
  usage: z.object({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    cache_creation_input_tokens: TokenCountSchema,
    cache_read_input_tokens: TokenCountSchema,
    output_tokens_details: z.object({ thinking_tokens: TokenCountSchema }).nullish(),
  }),
});

/**
 * The usage of a whole Message; undefined for a payload without `usage` (a content array).
 * Anthropic's `input_tokens` already leaves out the cache's tokens ("the total input tokens in a
 * request is the summation of input_tokens, cache_creation_input_tokens, and
 * cache_read_input_tokens"); thinking is billed within `output_tokens`.
 */
export function readAnthropicUsage(payload: unknown): TurnUsage | undefined {
  const parsed = MessageUsageSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { usage, model } = parsed.data;
  return {
    model: model ?? null,
    tokens: {
      input: usage.input_tokens,
      output: usage.output_tokens,
      cache_read: countOf(usage.cache_read_input_tokens),
      cache_write: countOf(usage.cache_creation_input_tokens),
      reasoning: countOf(usage.output_tokens_details?.thinking_tokens),
    },
  };
}
