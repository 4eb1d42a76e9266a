import { z } from 'zod';
import { CALL_STATUSES, type CallStatus } from '../calls/calls.schemas';
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
    destructive_runs: z.number().int().min(0).meta({
      description: 'Answered calls whose version declares `behavior.destructive`.',
    }),
    destructive_approved: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Of `destructive_runs`, those with an approved approval.' }),
    approval_wait_p50_ms: LatencyMsSchema.meta({
      description:
        "Median time from an approval's request to its decision (approved or denied), over the bucket's calls; null without decided approvals.",
    }),
    approval_wait_p95_ms: LatencyMsSchema.meta({
      description: '95th percentile of the same wait; null without decided approvals.',
    }),
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

export const SloSeriesSchema = z
  .object({
    key: z.string().meta({ description: 'The tool name, or `name@version` for a version.' }),
    tool: z.string(),
    tool_id: z.uuid(),
    version: z
      .string()
      .nullable()
      .meta({ description: 'The tool version; null in a per-tool series.' }),
    calls: z
      .number()
      .int()
      .min(0)
      .meta({ description: "The series' answered calls in the window." }),
    buckets: z
      .array(SloBucketSchema)
      .meta({ description: 'The same buckets as the report, oldest first, every one present.' }),
  })
  .meta({
    id: 'SloSeries',
    description: "One tool's or one tool version's figures over the window, for per-series charts.",
  });
export type SloSeries = z.infer<typeof SloSeriesSchema>;

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
    by_tool: z.array(SloSeriesSchema).meta({
      description:
        'Each tool called in the window as a series, most answered calls first; at most 20.',
    }),
    by_version: z.array(SloSeriesSchema).meta({
      description:
        'Each tool version called in the window as a series, most answered calls first; at most 20.',
    }),
    slos: z.array(SloResultSchema).meta({
      description:
        'The three objectives, in this order: `success_rate` (target 0.995), `p95_latency_ms` (2000), `destructive_approval_rate` (1: every destructive run approved).',
    }),
  })
  .meta({ id: 'SloReport' });
export type SloReport = z.infer<typeof SloReportSchema>;

export const CallsMetricsQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('24h'),
  tool: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "One tool's name; without it, every tool the caller may see." }),
  version: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only calls that resolved to this tool version (use with `tool`).' }),
});
export type CallsMetricsQueryRequest = z.input<typeof CallsMetricsQuerySchema>;
export type CallsMetricsQuery = z.output<typeof CallsMetricsQuerySchema>;

const StatusCountsSchema = z
  .object(
    Object.fromEntries(CALL_STATUSES.map((status) => [status, z.number().int().min(0)])) as Record<
      CallStatus,
      z.ZodNumber
    >,
  )
  .meta({
    id: 'CallStatusCounts',
    description: 'Calls by their current status, every status present.',
  });

export const CallsBucketSchema = z
  .object({
    start: TimestampSchema.meta({
      description:
        'Where the bucket starts (5 min for 1h, 1 h for 24h, 6 h for 7d, 1 day for 30d); it ends where the next starts.',
    }),
    calls: z.number().int().min(0).meta({ description: 'Calls received in the bucket.' }),
    by_status: StatusCountsSchema,
    error_rate: z.number().min(0).max(1).nullable().meta({
      description:
        'Failed / finished (succeeded, failed or outcome unknown), 0-1; null when none finished.',
    }),
    p50_ms: LatencyMsSchema.meta({
      description: 'Median latency of the calls with a recorded latency; null without any.',
    }),
    p95_ms: LatencyMsSchema.meta({ description: '95th percentile of the same latencies.' }),
  })
  .meta({ id: 'CallsBucket' });
export type CallsBucket = z.infer<typeof CallsBucketSchema>;

export const CallsToolSeriesSchema = z
  .object({
    tool: z.string().meta({ description: "The tool's name." }),
    tool_id: z.uuid(),
    calls: z.number().int().min(0).meta({ description: 'Calls over the window.' }),
    failed: z.number().int().min(0).meta({ description: 'Failed calls over the window.' }),
    calls_per_bucket: z
      .array(z.number().int().min(0))
      .meta({ description: 'Calls per bucket, aligned with `buckets`.' }),
    failed_per_bucket: z
      .array(z.number().int().min(0))
      .meta({ description: 'Failed calls per bucket, aligned with `buckets`.' }),
  })
  .meta({
    id: 'CallsToolSeries',
    description: "One tool's calls over the window, for sparklines.",
  });
export type CallsToolSeries = z.infer<typeof CallsToolSeriesSchema>;

export const CallsMetricsSchema = z
  .object({
    window: TimeWindowSchema,
    from: TimestampSchema,
    to: TimestampSchema,
    bucket_ms: z.number().int().positive(),
    buckets: z.array(CallsBucketSchema).meta({
      description:
        'The window as a chart, oldest first, every bucket present (empty ones with zeros).',
    }),
    tools: z.array(CallsToolSeriesSchema).meta({
      description: 'Each tool called in the window, by name (then id); at most 500.',
    }),
  })
  .meta({ id: 'CallsMetrics' });
export type CallsMetrics = z.infer<typeof CallsMetricsSchema>;
