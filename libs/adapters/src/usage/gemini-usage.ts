import { z } from 'zod';
import { countOf, ModelNameSchema, TokenCountSchema, type TurnUsage } from './token-usage';

// `usageMetadata` of a GenerateContentResponse (Gemini API reference, "UsageMetadata").
const GenerateContentUsageSchema = z.object({
  modelVersion: ModelNameSchema,
  usageMetadata: z.object({
    promptTokenCount: TokenCountSchema,
    candidatesTokenCount: TokenCountSchema,
    cachedContentTokenCount: TokenCountSchema,
    thoughtsTokenCount: TokenCountSchema,
    toolUsePromptTokenCount: TokenCountSchema,
  }),
});

/**
 * The usage of a whole GenerateContentResponse; undefined without `usageMetadata` (a bare
 * content). `promptTokenCount` includes `cachedContentTokenCount`; thoughts are counted apart from
 * the candidates (`thoughtsTokenCount`) but billed as output, and the prompt of tool use as input.
 */
export function readGeminiUsage(payload: unknown): TurnUsage | undefined {
  const parsed = GenerateContentUsageSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { usageMetadata: usage, modelVersion } = parsed.data;
  const prompt = countOf(usage.promptTokenCount);
  const cached = Math.min(countOf(usage.cachedContentTokenCount), prompt);
  const thoughts = countOf(usage.thoughtsTokenCount);
  return {
    model: modelVersion ?? null,
    tokens: {
      input: prompt - cached + countOf(usage.toolUsePromptTokenCount),
      output: countOf(usage.candidatesTokenCount) + thoughts,
      cache_read: cached,
      cache_write: 0,
      reasoning: thoughts,
    },
  };
}
