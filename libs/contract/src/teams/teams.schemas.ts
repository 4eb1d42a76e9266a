import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

export const TeamIdSchema = z.uuid().meta({ description: "The team's id." });

export const CreateTeamSchema = z.strictObject({
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be 2-63 lower-case letters, digits or -')
    .meta({ description: 'Unique across the installation; used in URLs and logs.' }),
  name: z.string().trim().min(1).max(200),
});
export type CreateTeamRequest = z.input<typeof CreateTeamSchema>;
export type CreateTeamInput = z.output<typeof CreateTeamSchema>;

/** The team's settings a team admin may change; at least one must be given. */
export const UpdateTeamSchema = z
  .strictObject({
    allow_self_approval: z.boolean().optional().meta({
      description:
        'Let whoever made a destructive call decide its approval too (four eyes when false).',
    }),
  })
  .refine((body) => body.allow_self_approval !== undefined, {
    message: 'set allow_self_approval',
  });
export type UpdateTeamRequest = z.input<typeof UpdateTeamSchema>;
export type UpdateTeamInput = z.output<typeof UpdateTeamSchema>;

export const TeamSchema = z
  .object({
    id: TeamIdSchema,
    slug: z.string(),
    name: z.string(),
    allow_self_approval: z.boolean().meta({
      description: 'Whoever made a destructive call may decide its approval too.',
    }),
    created_at: TimestampSchema,
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof TeamSchema>;

export const TeamListSchema = z.object({ items: z.array(TeamSchema) });
export type TeamList = z.infer<typeof TeamListSchema>;
