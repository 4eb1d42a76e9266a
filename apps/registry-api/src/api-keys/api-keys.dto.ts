import { z } from 'zod';
import { SCOPES, ScopeSchema } from '../auth/principal';

export const CreateApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scopes: z
    .array(ScopeSchema)
    .min(1)
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must be unique'),
  /** Required with the installation admin key; a team key can only create keys for its own team. */
  team_id: z.uuid().optional(),
});
export type CreateApiKeyDto = z.infer<typeof CreateApiKeySchema>;

export const ApiKeyIdParamSchema = z.uuid();

export interface ApiKeyDto {
  id: string;
  team_id: string;
  name: string;
  scopes: string[];
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKeyDto extends ApiKeyDto {
  /** The bearer token; shown only in this response. */
  key: string;
}
