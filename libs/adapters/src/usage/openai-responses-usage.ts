import { z } from 'zod';
import { countOf, ModelNameSchema, TokenCountSchema, type TurnUsage } from './token-usage';

// The `usage` of a Response (OpenAI API reference, "The response object").
const ResponseUsageSchema = z.object({
  model: ModelNameSchema,
  usage: z.object({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    input_tokens_details: z.object({ cached_tokens: TokenCountSchema }).nullish(),
    output_tokens_details: z.object({ reasoning_tokens: TokenCountSchema }).nullish(),
  }),
});

/**
 * The usage of a whole Response; undefined for a payload without `usage` (a list of items).
 * `input_tokens` includes `input_tokens_details.cached_tokens`; `output_tokens` includes the
 * reasoning tokens.
 */
export function readOpenAIResponsesUsage(payload: unknown): TurnUsage | undefined {
  const parsed = ResponseUsageSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { usage, model } = parsed.data;
  const cached = Math.min(countOf(usage.input_tokens_details?.cached_tokens), usage.input_tokens);
  return {
    model: model ?? null,
    tokens: {
      input: usage.input_tokens - cached,
      output: usage.output_tokens,
      cache_read: cached,
      cache_write: 0,
      reasoning: countOf(usage.output_tokens_details?.reasoning_tokens),
    },
  };
}
