import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

/** Cedar text is small in practice; this bounds what a single request may make the parser chew. */
export const MAX_POLICY_TEXT_LENGTH = 256 * 1024;

const PolicyTextSchema = z.string().min(1).max(MAX_POLICY_TEXT_LENGTH);

export const CreatePolicySchema = z.strictObject({
  text: PolicyTextSchema.meta({
    description: 'Cedar policies; validated against the gateway schema.',
  }),
  activate: z
    .boolean()
    .default(false)
    .meta({ description: 'Make the new revision the active one at once.' }),
});
export type CreatePolicyRequest = z.input<typeof CreatePolicySchema>;
export type CreatePolicyInput = z.output<typeof CreatePolicySchema>;

export const PolicyCallSampleSchema = z.strictObject({
  name: z.string().min(1).max(200).meta({
    description:
      "A tool the caller's team may call; its stable version supplies name, tags and behavior.",
  }),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

export const TestPolicySchema = z.strictObject({
  text: PolicyTextSchema.optional().meta({
    description: 'The text to try; the active policy when absent.',
  }),
  call: PolicyCallSampleSchema,
  team_id: z.uuid().optional().meta({
    description:
      'The team whose tools and active policy the sample call uses. Required for the installation admin key and console users (they span every team); a team key tests its own team only.',
  }),
});
export type TestPolicyRequest = z.input<typeof TestPolicySchema>;
export type TestPolicyInput = z.output<typeof TestPolicySchema>;

export const PolicyRevisionSchema = z.coerce
  .number()
  .int()
  .min(1)
  .max(2_147_483_647)
  .meta({ description: 'A revision number of the caller’s scope.' });

export const PolicySchema = z
  .object({
    id: z.uuid(),
    scope: z
      .string()
      .meta({ description: '`global` (the installation admin key’s) or the team’s id.' }),
    team_id: z.uuid().nullable(),
    revision: z.number().int().min(1),
    text: z.string(),
    active: z.boolean().meta({ description: 'At most one revision per scope is active.' }),
    created_by: z.string(),
    created_at: TimestampSchema,
  })
  .meta({ id: 'Policy' });
export type Policy = z.infer<typeof PolicySchema>;

export const PolicyListSchema = z.object({ items: z.array(PolicySchema) });
export type PolicyList = z.infer<typeof PolicyListSchema>;

/** A policy decision: the effect, why, and which rule of which revision decided. */
export const PolicyDecisionSchema = z
  .object({
    effect: z.enum(['allow', 'deny', 'require_approval']),
    reason: z.string().optional().meta({
      description:
        'Shown to the model when the call is denied, and to the approver when approval is required.',
    }),
    policy_revision: z.string().meta({
      description: 'Identifies the policy text that decided (`draft` for a text under test).',
    }),
    matched_rule: z
      .string()
      .optional()
      .meta({ description: 'The id of the deciding policy; absent for a default decision.' }),
    evaluation_errors: z
      .array(z.object({ policy_id: z.string(), message: z.string() }))
      .optional()
      .meta({
        description:
          'Policies that could not be evaluated for this input (Cedar evaluation errors).',
      }),
  })
  .meta({ id: 'PolicyDecision' });
export type PolicyDecision = z.infer<typeof PolicyDecisionSchema>;
