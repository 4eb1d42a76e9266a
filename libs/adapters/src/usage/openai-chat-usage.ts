import { z } from 'zod';
import { countOf, ModelNameSchema, TokenCountSchema, type TurnUsage } from './token-usage';

// The `usage` of a Chat Completion (OpenAI API reference, "The chat completion object").
const ChatCompletionUsageSchema = z.object({
  model: ModelNameSchema,
  usage: z.object({
    prompt_tokens: z.number().int().nonnegative(),
    completion_tokens: z.number().int().nonnegative(),
    prompt_tokens_details: z.object({ cached_tokens: TokenCountSchema }).nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: TokenCountSchema }).nullish(),
  }),
});

/**
 * The usage of a whole Chat Completion; undefined for a payload without `usage` (a bare message).
 * `prompt_tokens` includes `prompt_tokens_details.cached_tokens`, so the cached part is taken out
 * of `input`; `completion_tokens` includes the reasoning tokens.
 */
export function readOpenAIChatUsage(payload: unknown): TurnUsage | undefined {
  const parsed = ChatCompletionUsageSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { usage, model } = parsed.data;
  const cached = Math.min(countOf(usage.prompt_tokens_details?.cached_tokens), usage.prompt_tokens);
  return {
    model: model ?? null,
    tokens: {
      input: usage.prompt_tokens - cached,
      output: usage.completion_tokens,
      cache_read: cached,
      cache_write: 0,
      reasoning: countOf(usage.completion_tokens_details?.reasoning_tokens),
    },
  };
}
