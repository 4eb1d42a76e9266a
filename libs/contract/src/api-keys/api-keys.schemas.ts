import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';
import { SCOPES } from '../route/route';

export const ApiKeyScopeSchema = z
  .enum(SCOPES)
  .meta({ description: 'What an API key may do; `admin` implies every other scope.' });

export const ApiKeyIdSchema = z.uuid().meta({ description: "The API key's id." });

export const CreateApiKeySchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  scopes: z
    .array(ApiKeyScopeSchema)
    .min(1)
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must be unique'),
  team_id: z.uuid().optional().meta({
    description:
      'Required with the installation admin key; a team key can only create keys for its own team.',
  }),
});
export type CreateApiKeyRequest = z.input<typeof CreateApiKeySchema>;
export type CreateApiKeyInput = z.output<typeof CreateApiKeySchema>;

export const ApiKeySchema = z
  .object({
    id: ApiKeyIdSchema,
    team_id: z.uuid(),
    name: z.string(),
    scopes: z.array(z.string()).meta({
      description:
        'The scopes it was created with; one this server no longer knows grants nothing.',
    }),
    created_by: z
      .string()
      .meta({ description: 'The actor that created it: `admin`, `key:<id>`, `user:<email>`.' }),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable().meta({
      description: 'Null until first used; updated at most once a minute.',
    }),
    revoked_at: TimestampSchema.nullable().meta({ description: 'Null while the key works.' }),
  })
  .meta({ id: 'ApiKey', description: 'An API key, never its secret.' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({
    description:
      'The bearer token (`tg_...`) for `Authorization: Bearer`. Returned in this response only: it is stored hashed and can never be read again.',
  }),
}).meta({
  id: 'CreatedApiKey',
  description: 'A new API key with its secret, which this response alone carries.',
});
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyListSchema = z.object({ items: z.array(ApiKeySchema) });
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;
