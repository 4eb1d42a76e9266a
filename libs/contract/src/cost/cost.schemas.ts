import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { TimeWindowSchema } from '../metrics/metrics.schemas';

/** What a cost report groups its series by. */
export const CostGroupBySchema = z
  .enum(['team', 'key', 'tool', 'version'])
  .meta({ description: 'One series per team, API key, tool, or tool version (`name@version`).' });
export type CostGroupBy = z.infer<typeof CostGroupBySchema>;

export const CostQuerySchema = z.strictObject({
  group_by: CostGroupBySchema.default('tool'),
  window: TimeWindowSchema.default('24h'),
  tool: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only one tool's calls; without it, every tool the caller may see." }),
});
export type CostQueryRequest = z.input<typeof CostQuerySchema>;
export type CostQuery = z.output<typeof CostQuerySchema>;

const UsdSchema = z.number().min(0).meta({ description: 'US dollars.' });

/** Spend of one group in one bucket (or over the whole window). */
export const CostAmountsSchema = z
  .object({
    tool_usd: UsdSchema.meta({
      description:
        "The tools' own cost: the amount an executor reported, else the version's `cost_estimate_usd`.",
    }),
    tokens_usd: UsdSchema.meta({
      description:
        "The calls' share of their model turns' token cost, priced from the price table.",
    }),
    total_usd: UsdSchema.meta({ description: '`tool_usd` + `tokens_usd`.' }),
    calls: z.number().int().min(0).meta({ description: 'Calls recorded, cache hits included.' }),
    cached_calls: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Calls answered from the result cache (they cost no tool spend).' }),
  })
  .meta({ id: 'CostAmounts' });
export type CostAmounts = z.infer<typeof CostAmountsSchema>;

export const CostPointSchema = CostAmountsSchema.extend({
  start: TimestampSchema.meta({
    description: 'Where the bucket starts (5 min for 1h, 1 h for 24h, 6 h for 7d, 1 day for 30d).',
  }),
}).meta({ id: 'CostPoint' });
export type CostPoint = z.infer<typeof CostPointSchema>;

export const CostSeriesSchema = z
  .object({
    key: z.string().meta({
      description: 'The group: a team id, an API key id, a tool name, or `name@version`.',
    }),
    label: z
      .string()
      .meta({ description: "The group's name as people read it (team or key name)." }),
    totals: CostAmountsSchema,
    points: z.array(CostPointSchema).meta({
      description: 'Every bucket of the window in order, empty buckets included (zeros).',
    }),
  })
  .meta({ id: 'CostSeries' });
export type CostSeries = z.infer<typeof CostSeriesSchema>;

export const CostReportSchema = z
  .object({
    group_by: CostGroupBySchema,
    window: TimeWindowSchema,
    from: TimestampSchema,
    to: TimestampSchema,
    bucket_ms: z.number().int().positive(),
    currency: z.literal('USD'),
    totals: CostAmountsSchema,
    series: z
      .array(CostSeriesSchema)
      .meta({ description: 'Groups by total spend, highest first; at most 50.' }),
  })
  .meta({ id: 'CostReport' });
export type CostReport = z.infer<typeof CostReportSchema>;
