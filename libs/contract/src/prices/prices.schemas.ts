import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

/** Whose models a price is for: the pricing provider of a wire format (both OpenAI wires are `openai`). */
export const PriceProviderSchema = z
  .enum(['openai', 'anthropic', 'google'])
  .meta({ description: 'openai (Chat and Responses), anthropic, or google (Gemini).' });
export type PriceProvider = z.infer<typeof PriceProviderSchema>;

/** A model name as providers write it (`gpt-4.1-mini`, `claude-sonnet-4-5`, `gemini-2.5-flash`). */
export const PriceModelSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be a model name like gpt-4.1-mini')
  .meta({
    description:
      'The model as responses name it; a dated snapshot (`-2025-04-14`, `-20250929`) is priced as its model unless it has a row of its own.',
  });

const PerMillionSchema = z
  .number()
  .min(0)
  .max(100_000)
  .meta({ description: 'US dollars per million tokens.' });

export const PutPriceSchema = z.strictObject({
  input: PerMillionSchema,
  output: PerMillionSchema.meta({ description: 'Per million output tokens, reasoning included.' }),
  cache_read: PerMillionSchema.meta({ description: 'Per million prompt tokens read from cache.' }),
  cache_write: PerMillionSchema.meta({
    description: 'Per million prompt tokens written to cache.',
  }),
});
export type PutPriceRequest = z.input<typeof PutPriceSchema>;
export type PutPriceInput = z.output<typeof PutPriceSchema>;

export const PriceParamsSchema = z.strictObject({
  provider: PriceProviderSchema,
  model: PriceModelSchema,
});

export const PriceSchema = PutPriceSchema.extend({
  provider: PriceProviderSchema,
  model: z.string(),
  source: z.enum(['default', 'custom']).meta({
    description:
      "`default`: shipped with Toolgate (see `defaults_taken_on`; check your provider's price page), `custom`: set by the platform team, overriding any default.",
  }),
  updated_at: TimestampSchema.nullable().meta({ description: 'When a custom price was set.' }),
  updated_by: z.string().nullable(),
}).meta({ id: 'Price' });
export type Price = z.infer<typeof PriceSchema>;

export const PriceListSchema = z
  .object({
    items: z.array(PriceSchema).meta({ description: 'By provider, then model.' }),
    currency: z.literal('USD'),
    defaults_taken_on: z.string().meta({
      description:
        "The day the shipped defaults were read from the providers' price pages: they are defaults, not truths.",
    }),
  })
  .meta({ id: 'PriceList' });
export type PriceList = z.infer<typeof PriceListSchema>;
