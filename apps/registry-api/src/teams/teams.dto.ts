import { z } from 'zod';

export const CreateTeamSchema = z.strictObject({
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be 2-63 lower-case letters, digits or -'),
  name: z.string().trim().min(1).max(200),
});
export type CreateTeamDto = z.infer<typeof CreateTeamSchema>;

/** The team's settings a team admin may change; at least one must be given. */
export const UpdateTeamSchema = z
  .strictObject({
    /** Let whoever made a destructive call decide its approval too (four eyes when false). */
    allow_self_approval: z.boolean().optional(),
  })
  .refine((body) => body.allow_self_approval !== undefined, {
    message: 'set allow_self_approval',
  });
export type UpdateTeamDto = z.infer<typeof UpdateTeamSchema>;

export const TeamIdParamSchema = z.uuid();

export interface TeamDto {
  id: string;
  slug: string;
  name: string;
  allow_self_approval: boolean;
  created_at: string;
}
