import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

/** The time windows the console's charts offer. */
export const TimeWindowSchema = z
  .enum(['1h', '24h', '7d', '30d'])
  .meta({ description: 'A window ending now: the last hour, day, week or 30 days.' });
export type TimeWindow = z.infer<typeof TimeWindowSchema>;

export const SloQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('24h'),
  tool: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "One tool's name; without it, every tool the caller may see." }),
});
export type SloQueryRequest = z.input<typeof SloQuerySchema>;
export type SloQuery = z.output<typeof SloQuerySchema>;

const LatencyMsSchema = z.number().nullable();

export const SloBucketSchema = z
  .object({
    start: TimestampSchema.meta({
      description:
        'Where the bucket starts (5 min for 1h, 1 h for 24h, 6 h for 7d, 1 day for 30d).',
    }),
    calls: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Calls the tool answered for (finished, not refused before it ran).' }),
    succeeded: z.number().int().min(0),
    failed: z.number().int().min(0).meta({ description: '`calls` minus `succeeded`.' }),
    cached: z.number().int().min(0).meta({
      description:
        'Calls the result cache answered without executing; counted apart, in neither `calls` nor the latencies.',
    }),
    p50_ms: LatencyMsSchema.meta({ description: 'Median latency; null without calls.' }),
    p95_ms: LatencyMsSchema.meta({ description: '95th percentile latency; null without calls.' }),
  })
  .meta({ id: 'SloBucket' });
export type SloBucket = z.infer<typeof SloBucketSchema>;

export const SloToolSchema = z
  .object({
    tool: z.string().meta({ description: "The tool's name." }),
    tool_id: z.uuid(),
    calls: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Calls the tool answered for (finished, not refused before it ran).' }),
    cached: z.number().int().min(0).meta({
      description:
        'Calls the result cache answered without executing; counted apart, in neither `calls`, the rate nor the latencies.',
    }),
    success_rate: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: 'Succeeded / calls, 0-1; null without calls.' }),
    p50_ms: LatencyMsSchema,
    p95_ms: LatencyMsSchema,
    error_codes: z.record(z.string(), z.number().int().min(0)).meta({
      description: 'Failed calls by error code, refusals (policy, approval, rate limit) included.',
    }),
    destructive: z.boolean().meta({
      description: 'Whether a version that ran in the window declares `behavior.destructive`.',
    }),
    approvals: z
      .object({
        required: z.number().int().min(0),
        approved: z.number().int().min(0),
        denied: z.number().int().min(0),
        expired: z
          .number()
          .int()
          .min(0)
          .meta({ description: 'Expired, or pending past their deadline.' }),
      })
      .meta({ description: "The approvals the window's calls needed, by outcome." }),
  })
  .meta({ id: 'SloTool' });
export type SloTool = z.infer<typeof SloToolSchema>;

export const SloNameSchema = z.enum([
  'success_rate',
  'p95_latency_ms',
  'destructive_approval_rate',
]);
export type SloName = z.infer<typeof SloNameSchema>;

export const SloResultSchema = z
  .object({
    name: SloNameSchema,
    target: z
      .number()
      .meta({ description: 'Rates must reach it, latency must stay at or below it.' }),
    actual: z
      .number()
      .nullable()
      .meta({ description: 'Null when the window holds no call the objective is about.' }),
    met: z.boolean().nullable().meta({ description: 'Null when `actual` is.' }),
  })
  .meta({ id: 'SloResult', description: 'One service-level objective, judged over the window.' });
export type SloResult = z.infer<typeof SloResultSchema>;

export const SloReportSchema = z
  .object({
    window: TimeWindowSchema,
    from: TimestampSchema,
    to: TimestampSchema,
    buckets: z.array(SloBucketSchema).meta({
      description:
        'The window as a chart, oldest first, every bucket present (empty ones with zeros).',
    }),
    tools: z.array(SloToolSchema).meta({ description: 'Each tool called in the window, by name.' }),
    slos: z.array(SloResultSchema).meta({
      description:
        'The three objectives, in this order: `success_rate` (target 0.995), `p95_latency_ms` (2000), `destructive_approval_rate` (1: every destructive run approved).',
    }),
  })
  .meta({ id: 'SloReport' });
export type SloReport = z.infer<typeof SloReportSchema>;
