import { SemverSchema } from '@toolgate/toolir';
import { z } from 'zod';
import { ActorsSchema } from '../common/actor';
import { TimestampSchema } from '../common/pagination';
import { ToolIdSchema } from '../tools/tools.schemas';

export const SetStableVersionSchema = z.strictObject({
  version: SemverSchema.meta({ description: 'A published version, not past its sunset.' }),
});
export type SetStableVersionInput = z.output<typeof SetStableVersionSchema>;

export const SetCanaryVersionSchema = z.strictObject({
  version: SemverSchema.meta({
    description: 'A published version, not past its sunset, other than the stable one.',
  }),
  percent: z
    .number()
    .int()
    .min(0)
    .max(100)
    .meta({ description: 'The share of subjects (0-100) that get the canary.' }),
});
export type SetCanaryVersionInput = z.output<typeof SetCanaryVersionSchema>;

/** The body of a release action that takes no input: none, or an empty object. */
export const ReleaseActionBodySchema = z
  .strictObject({})
  .optional()
  .meta({ description: 'No input: send no body, or `{}`.' });

export const ReleaseSchema = z
  .object({
    tool_id: ToolIdSchema,
    stable_version: z
      .string()
      .nullable()
      .meta({ description: 'What every caller outside the canary gets; null until one is set.' }),
    canary_version: z.string().nullable(),
    canary_percent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .meta({ description: 'The share of subjects that get the canary; 0 without one.' }),
    previous_stable_version: z
      .string()
      .nullable()
      .meta({ description: 'The stable version before the last change, for rollback.' }),
    updated_by: z.string().nullable().meta({ description: 'Null until the release is first set.' }),
    updated_at: TimestampSchema.nullable().meta({
      description: 'Null until the release is first set.',
    }),
  })
  .meta({ id: 'Release' });
export type Release = z.infer<typeof ReleaseSchema>;

/** The release as `GET /release` answers it: with who made its last change. */
export const ReleaseWithActorsSchema = ReleaseSchema.extend({ actors: ActorsSchema }).meta({
  id: 'ReleaseWithActors',
});
export type ReleaseWithActors = z.infer<typeof ReleaseWithActorsSchema>;
