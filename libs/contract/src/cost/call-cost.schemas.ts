import { z } from 'zod';

// Kept apart from the cost report: the call schemas need it, and the report's window comes from the
// metrics schemas, which read the call statuses.

const UsdSchema = z.number().min(0).meta({ description: 'US dollars.' });

/** A call's tokens, as its share of the model turn's (see the README's cost section for the split). */
export const CallTokensSchema = z
  .object({
    input: z.number().int().min(0).meta({ description: 'Prompt tokens at the input rate.' }),
    output: z.number().int().min(0).meta({ description: 'Generated tokens, reasoning included.' }),
    cache_read: z.number().int().min(0).meta({ description: 'Prompt tokens read from the cache.' }),
    cache_write: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Prompt tokens written to the cache.' }),
    reasoning: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'The share of `output` spent reasoning.' }),
  })
  .meta({ id: 'CallTokens' });
export type CallTokens = z.infer<typeof CallTokensSchema>;

/** What one call cost: its tool's own cost and its share of the model turn's token cost. */
export const CallCostSchema = z
  .object({
    tool_usd: UsdSchema.nullable().meta({
      description:
        "The tool's own cost: reported by the upstream, else the version's `cost_estimate_usd`; null when neither is known or no executor ran.",
    }),
    tokens_usd: UsdSchema.nullable().meta({
      description:
        "The call's share of its turn's token cost, priced when the call was recorded; null without usage or when the model has no price (see `tokens_unpriced_reason`).",
    }),
    total_usd: UsdSchema.nullable().meta({
      description: 'The known parts added up; null when neither part is known.',
    }),
    tool_source: z.enum(['estimate', 'reported']).nullable(),
    tokens: CallTokensSchema.nullable().meta({
      description: "The call's share of the turn's tokens; null when the app posted no usage.",
    }),
    model: z
      .string()
      .nullable()
      .meta({ description: "The turn's model, as the response names it." }),
    provider: z
      .enum(['openai', 'anthropic', 'google'])
      .nullable()
      .meta({ description: 'Whose price table prices the tokens.' }),
    tokens_unpriced_reason: z.string().nullable().meta({
      description: 'Why tokens that are known have no price (an unknown model); null otherwise.',
    }),
  })
  .meta({ id: 'CallCost' });
export type CallCost = z.infer<typeof CallCostSchema>;
