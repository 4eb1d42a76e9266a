import { z } from 'zod';

/** Cedar text is small in practice; this bounds what a single request may make the parser chew. */
export const MAX_POLICY_TEXT_LENGTH = 256 * 1024;

export const CreatePolicySchema = z.strictObject({
  text: z.string().min(1).max(MAX_POLICY_TEXT_LENGTH),
  /** Make the new revision the active one at once. */
  activate: z.boolean().default(false),
});
export type CreatePolicyDto = z.infer<typeof CreatePolicySchema>;

export const PolicyCallSampleSchema = z.strictObject({
  /** A tool the caller's team may call; its stable version supplies name, tags and behavior. */
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

export const TestPolicySchema = z.strictObject({
  /** The text to try; the active policy when absent. */
  text: z.string().min(1).max(MAX_POLICY_TEXT_LENGTH).optional(),
  call: PolicyCallSampleSchema,
  /**
   * The team whose tools and active policy the sample call uses. Required for the installation
   * admin key and console users (they span every team); a team key tests its own team only.
   */
  team_id: z.uuid().optional(),
});
export type TestPolicyDto = z.infer<typeof TestPolicySchema>;

export const RevisionParamSchema = z.coerce.number().int().min(1).max(2_147_483_647);

export interface PolicyDto {
  id: string;
  scope: string;
  team_id: string | null;
  revision: number;
  text: string;
  active: boolean;
  created_by: string;
  created_at: string;
}
