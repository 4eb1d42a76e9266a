import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { TimeWindowSchema } from '../metrics/metrics.schemas';
import { ToolIdSchema } from '../tools/tools.schemas';

/** One version's figures over the guard's window. */
export const CanaryVersionStatsSchema = z
  .object({
    version: z.string(),
    calls: z.number().int().meta({ description: 'Finished calls the version is answerable for.' }),
    succeeded: z.number().int(),
    validation_failures: z
      .number()
      .int()
      .meta({ description: 'Calls refused by argument validation (`invalid_arguments`).' }),
    success_rate: z
      .number()
      .nullable()
      .meta({ description: 'succeeded / calls that passed validation; null without any.' }),
    validation_failure_rate: z
      .number()
      .nullable()
      .meta({ description: 'validation failures / calls; null without calls.' }),
    p95_latency_ms: z
      .number()
      .nullable()
      .meta({ description: 'p95 latency of the calls that passed validation; null without any.' }),
  })
  .meta({ id: 'CanaryVersionStats' });
export type CanaryVersionStats = z.infer<typeof CanaryVersionStatsSchema>;

export const CanaryVerdictSchema = z
  .enum(['no_canary', 'insufficient_data', 'healthy', 'unhealthy'])
  .meta({ description: '`unhealthy` canaries are rolled back by the guard.' });
export type CanaryVerdict = z.infer<typeof CanaryVerdictSchema>;

/** A threshold the canary crossed, with both measured figures and the limit. */
export const CrossedThresholdSchema = z
  .object({
    rule: z.enum(['success_rate_drop', 'p95_latency_ratio', 'validation_failure_increase']),
    stable: z.number(),
    canary: z.number(),
    measured: z
      .number()
      .meta({ description: 'The measured difference (rates) or ratio (latency).' }),
    limit: z.number(),
    detail: z.string(),
  })
  .meta({ id: 'CrossedThreshold' });
export type CrossedThreshold = z.infer<typeof CrossedThresholdSchema>;

/** What counts as "clearly worse" than stable (the guard's configuration). */
export const CanaryThresholdsSchema = z.object({
  window_ms: z.number().int(),
  min_calls: z
    .number()
    .int()
    .meta({ description: 'Calls each version needs before it is judged.' }),
  max_success_rate_drop: z.number(),
  max_p95_ratio: z.number(),
  p95_floor_ms: z
    .number()
    .meta({ description: 'A p95 ratio only counts when the canary is also this many ms slower.' }),
  max_validation_failure_increase: z.number(),
});
export type CanaryThresholds = z.infer<typeof CanaryThresholdsSchema>;

export const ReleaseHealthSchema = z
  .object({
    tool_id: ToolIdSchema,
    stable_version: z.string().nullable(),
    canary_version: z.string().nullable(),
    canary_percent: z.number().int().min(0).max(100),
    window: z.object({ from: TimestampSchema, to: TimestampSchema }).meta({
      description:
        "The calls compared: since the later of the window's start and the release's last change.",
    }),
    stable: CanaryVersionStatsSchema.nullable(),
    canary: CanaryVersionStatsSchema.nullable(),
    verdict: CanaryVerdictSchema,
    crossed: z.array(CrossedThresholdSchema),
    thresholds: CanaryThresholdsSchema,
  })
  .meta({ id: 'ReleaseHealth' });
export type ReleaseHealth = z.infer<typeof ReleaseHealthSchema>;

/**
 * What an evaluation did: `rolled_back` cleared the canary; `release_changed` means the release
 * moved on while the figures were read, so nothing was written and the next run judges anew.
 */
export const CanaryGuardActionSchema = z.enum(['none', 'rolled_back', 'release_changed']).meta({
  description:
    '`rolled_back` cleared the canary; `release_changed`: the release moved on while the figures were read, nothing was written.',
});
export type CanaryGuardAction = z.infer<typeof CanaryGuardActionSchema>;

export const CanaryGuardEvaluationSchema = ReleaseHealthSchema.extend({
  action: CanaryGuardActionSchema,
}).meta({ id: 'CanaryGuardEvaluation' });
export type CanaryGuardEvaluation = z.infer<typeof CanaryGuardEvaluationSchema>;

export const ReleaseHistoryQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('24h'),
});
export type ReleaseHistoryQueryRequest = z.input<typeof ReleaseHistoryQuerySchema>;
export type ReleaseHistoryQuery = z.output<typeof ReleaseHistoryQuerySchema>;

/** One version's figures in one time bucket, judged as the canary guard judges them. */
export const ReleaseHistoryBucketSchema = z
  .object({
    start: TimestampSchema.meta({
      description: 'Where the bucket starts; it ends where the next starts (`bucket_ms` later).',
    }),
    served: z.number().int().min(0).meta({
      description: 'Calls that resolved to the version in the bucket, whatever their outcome.',
    }),
    share: z.number().min(0).max(1).nullable().meta({
      description: '`served` / every call of the tool in the bucket; null when the tool had none.',
    }),
    calls: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Finished calls the version is answerable for (as the guard counts).' }),
    succeeded: z.number().int().min(0),
    validation_failures: z.number().int().min(0),
    success_rate: z
      .number()
      .nullable()
      .meta({ description: 'succeeded / calls that passed validation; null without any.' }),
    validation_failure_rate: z
      .number()
      .nullable()
      .meta({ description: 'validation failures / calls; null without calls.' }),
    p95_latency_ms: z
      .number()
      .nullable()
      .meta({ description: 'p95 latency of the calls that passed validation; null without any.' }),
  })
  .meta({ id: 'ReleaseHistoryBucket' });
export type ReleaseHistoryBucket = z.infer<typeof ReleaseHistoryBucketSchema>;

export const ReleaseHistoryVersionSchema = z
  .object({
    version: z.string(),
    role: z
      .enum(['stable', 'canary', 'other'])
      .meta({ description: "The version's place in the current release." }),
    served: z.number().int().min(0).meta({ description: 'Calls it served over the window.' }),
    buckets: z.array(ReleaseHistoryBucketSchema).meta({
      description: 'Every bucket of the window, oldest first (empty ones with zeros and nulls).',
    }),
  })
  .meta({ id: 'ReleaseHistoryVersion' });
export type ReleaseHistoryVersion = z.infer<typeof ReleaseHistoryVersionSchema>;

export const ReleaseHistorySchema = z
  .object({
    tool_id: ToolIdSchema,
    window: TimeWindowSchema,
    from: TimestampSchema,
    to: TimestampSchema,
    bucket_ms: z.number().int().positive(),
    stable_version: z.string().nullable(),
    canary_version: z.string().nullable(),
    canary_percent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'The share the release asks for; `share` is what the canary got.' }),
    versions: z.array(ReleaseHistoryVersionSchema).meta({
      description:
        'Stable first, then the canary, then every other version called in the window by calls served.',
    }),
  })
  .meta({ id: 'ReleaseHistory' });
export type ReleaseHistory = z.infer<typeof ReleaseHistorySchema>;
