import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { TimeWindowSchema } from '../metrics/metrics.schemas';

export const VersionUsageQuerySchema = z.strictObject({
  window: TimeWindowSchema.default('7d'),
});
export type VersionUsageQuery = z.output<typeof VersionUsageQuerySchema>;

/** One caller of a version: a team, its key (null for calls without one) and the actor. */
export const VersionCallerSchema = z.object({
  team_id: z.uuid(),
  team_name: z.string(),
  key_id: z
    .uuid()
    .nullable()
    .meta({ description: 'Null for calls made without an API key (the console).' }),
  key_name: z.string().nullable(),
  actor: z.string(),
  calls: z.number().int(),
  last_call_at: TimestampSchema,
});
export type VersionCaller = z.infer<typeof VersionCallerSchema>;

export const VersionUsageSchema = z
  .object({
    tool: z.string().meta({ description: "The tool's name." }),
    version: z.string(),
    window: TimeWindowSchema,
    callers: z.array(VersionCallerSchema).meta({
      description:
        'Busiest first: the callers a deprecation of this version would break; at most 500.',
    }),
  })
  .meta({ id: 'VersionUsage' });
export type VersionUsage = z.infer<typeof VersionUsageSchema>;
