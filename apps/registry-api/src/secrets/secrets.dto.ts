import { z } from 'zod';

/**
 * Names as tools' `{"secret": "NAME"}` references spell them: environment-variable style
 * (`ORDERS_API_KEY`), and the `<secret_prefix><scheme>` names an OpenAPI import writes
 * (`petstore_auth`, `example/bearer`), so every reference an import creates can be stored.
 */
export const SECRET_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.:/-]{0,127}$/;
/** A secret's value is a credential, not a document: 8 KiB of UTF-8 is plenty. */
export const MAX_SECRET_VALUE_BYTES = 8 * 1024;

export const SecretNameSchema = z
  .string()
  .regex(SECRET_NAME_PATTERN, 'must be a letter, then up to 127 letters, digits or _ . : / -');

// Messages never quote the value: validation problems are returned and may be logged.
const SecretValueSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .refine(
    (value) => Buffer.byteLength(value, 'utf8') <= MAX_SECRET_VALUE_BYTES,
    `must be at most ${MAX_SECRET_VALUE_BYTES} bytes`,
  );

export const CreateSecretSchema = z.strictObject({
  name: SecretNameSchema,
  value: SecretValueSchema,
  /** Required with the installation admin key or a console admin; a team key writes its own team. */
  team_id: z.uuid().optional(),
});
export type CreateSecretDto = z.infer<typeof CreateSecretSchema>;

export const RotateSecretSchema = z.strictObject({ value: SecretValueSchema });
export type RotateSecretDto = z.infer<typeof RotateSecretSchema>;

/** `?team_id=` names the team for callers that span teams; `GET` without it lists every team's. */
export const SecretTeamQuerySchema = z.strictObject({ team_id: z.uuid().optional() });
export type SecretTeamQueryDto = z.infer<typeof SecretTeamQuerySchema>;

export const DeleteSecretQuerySchema = SecretTeamQuerySchema.extend({
  /** Deletes even while a stable or canary version references the secret (its calls then fail). */
  force: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type DeleteSecretQueryDto = z.infer<typeof DeleteSecretQuerySchema>;

/** A tool version that references a secret, and where in its executor config. */
export interface SecretReferenceDto {
  tool_id: string;
  tool_name: string;
  version: string;
  status: 'draft' | 'published';
  /** Whether the version is served: `stable`, `canary` or neither. */
  release: 'stable' | 'canary' | null;
  pointer: string;
}

/** A secret as every route shows it: never its value. */
export interface SecretDto {
  name: string;
  team_id: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  referenced_by: SecretReferenceDto[];
}
