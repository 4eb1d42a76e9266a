import { z } from 'zod';

export const CreateTeamSchema = z.strictObject({
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be 2-63 lower-case letters, digits or -'),
  name: z.string().trim().min(1).max(200),
});
export type CreateTeamDto = z.infer<typeof CreateTeamSchema>;

export interface TeamDto {
  id: string;
  slug: string;
  name: string;
  created_at: string;
}
