import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

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
  .regex(SECRET_NAME_PATTERN, 'must be a letter, then up to 127 letters, digits or _ . : / -')
  .meta({ description: 'The name tool versions reference it by (`{"secret": "NAME"}`).' });

const utf8 = new TextEncoder();

// Messages never quote the value: validation problems are returned and may be logged.
const SecretValueSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .refine(
    (value) => utf8.encode(value).length <= MAX_SECRET_VALUE_BYTES,
    `must be at most ${MAX_SECRET_VALUE_BYTES} bytes`,
  )
  .meta({
    description: 'The value, at most 8 KiB of UTF-8; write-only: no answer ever contains it.',
  });

export const CreateSecretSchema = z.strictObject({
  name: SecretNameSchema,
  value: SecretValueSchema,
  team_id: z.uuid().optional().meta({
    description:
      'Required with the installation admin key or a console admin; a team key writes its own team.',
  }),
});
export type CreateSecretRequest = z.input<typeof CreateSecretSchema>;
export type CreateSecretInput = z.output<typeof CreateSecretSchema>;

export const RotateSecretSchema = z.strictObject({ value: SecretValueSchema });
export type RotateSecretRequest = z.input<typeof RotateSecretSchema>;
export type RotateSecretInput = z.output<typeof RotateSecretSchema>;

/** `?team_id=` names the team for callers that span teams; `GET` without it lists every team's. */
export const SecretTeamQuerySchema = z.strictObject({
  team_id: z.uuid().optional().meta({
    description:
      'The team, for callers spanning teams (the installation admin key, console users): required to change a secret; without it a list shows every team.',
  }),
});
export type SecretTeamQuery = z.output<typeof SecretTeamQuerySchema>;

export const DeleteSecretQuerySchema = SecretTeamQuerySchema.extend({
  force: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .meta({
      description:
        'Deletes even while a stable or canary version references the secret (its calls then fail).',
    }),
});
export type DeleteSecretQueryRequest = z.input<typeof DeleteSecretQuerySchema>;
export type DeleteSecretQuery = z.output<typeof DeleteSecretQuerySchema>;

/** A tool version that references a secret, and where in its executor config. */
export const SecretReferenceSchema = z
  .object({
    tool_id: z.uuid(),
    tool_name: z.string(),
    version: z.string(),
    status: z.enum(['draft', 'published']),
    release: z.enum(['stable', 'canary']).nullable().meta({
      description: 'Whether the version is served: `stable`, `canary`, or null for neither.',
    }),
    pointer: z.string().meta({
      description:
        "JSON Pointer into the version's executor config, e.g. `/headers/X-Api-Key/secret`.",
    }),
  })
  .meta({ id: 'SecretReference' });
export type SecretReference = z.infer<typeof SecretReferenceSchema>;

/** A secret as every route shows it: never its value. */
export const SecretSchema = z
  .object({
    name: z.string(),
    team_id: z.uuid(),
    created_by: z.string().meta({ description: 'The actor that created it.' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema.meta({
      description: 'When the value was last set (created or rotated).',
    }),
    last_used_at: TimestampSchema.nullable().meta({
      description:
        'When a call last read it (written behind calls, at most once a minute); null if never.',
    }),
    referenced_by: z.array(SecretReferenceSchema).meta({
      description: "The team's tool versions referencing it, by tool name then version age.",
    }),
  })
  .meta({ id: 'Secret', description: 'A stored secret: its name and history, never its value.' });
export type Secret = z.infer<typeof SecretSchema>;

export const SecretListSchema = z.object({ items: z.array(SecretSchema) });
export type SecretList = z.infer<typeof SecretListSchema>;
