import { z } from 'zod';
import { CursorParamSchema, LimitSchema, pageOf, TimestampSchema } from '../common/pagination';

export const AuditQuerySchema = z.strictObject({
  actor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Only events of this actor: `admin`, `key:<id>`, `user:<email>`, ...' }),
  entity_type: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only events about this kind of entity: `tool`, `team`, `secret`, ...' }),
  entity_id: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Only events about this entity.' }),
  action: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only events of this action, e.g. `tool.created`.' }),
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only events at or after this instant.' }),
  to: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({ description: 'Only events before this instant.' }),
  cursor: CursorParamSchema.optional(),
  limit: LimitSchema,
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

/** A position in the hash chain: its sequence number (a 64-bit integer, as a string) and hash. */
const SeqSchema = z
  .string()
  .regex(/^\d+$/)
  .meta({ description: "The event's place in the chain: a 64-bit integer, as a decimal string." });

export const AuditEventSchema = z
  .object({
    seq: SeqSchema,
    id: z.uuid(),
    occurred_at: TimestampSchema,
    actor: z
      .string()
      .meta({ description: 'Who made the change: `admin`, `key:<id>`, `user:<email>`, ...' }),
    team_id: z
      .uuid()
      .nullable()
      .meta({ description: 'The team the change belongs to; null for installation-wide ones.' }),
    action: z.string().meta({ description: 'What happened, e.g. `tool_version.published`.' }),
    entity_type: z.string(),
    entity_id: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: "The change's details; their members depend on the action." }),
    prev_hash: z
      .string()
      .meta({ description: "The previous event's hash (64 zeros for the first)." }),
    hash: z
      .string()
      .meta({ description: 'sha256 of `prev_hash` and the canonical JSON of this event.' }),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditPageSchema = pageOf(AuditEventSchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const AuditChainBreakReasonSchema = z
  .enum(['sequence_gap', 'prev_hash_mismatch', 'hash_mismatch', 'head_mismatch'])
  .meta({
    description:
      '`sequence_gap`: an event is missing before this one; `prev_hash_mismatch`: it does not link to the one before; `hash_mismatch`: its content was changed; `head_mismatch`: the chain ends before its recorded head (events deleted from the end).',
  });
export type AuditChainBreakReason = z.infer<typeof AuditChainBreakReasonSchema>;

export const AuditChainBreakSchema = z
  .object({
    seq: SeqSchema,
    id: z.uuid().nullable().meta({ description: "The event's id; null for `head_mismatch`." }),
    reason: AuditChainBreakReasonSchema,
  })
  .meta({ id: 'AuditChainBreak' });
export type AuditChainBreak = z.infer<typeof AuditChainBreakSchema>;

export const AuditVerificationSchema = z
  .object({
    ok: z.boolean(),
    checked: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'How many events verified before the first broken link.' }),
    head: z
      .object({ seq: SeqSchema, hash: z.string() })
      .meta({ description: 'The recorded head of the chain, which the last event must match.' }),
    first_broken_link: AuditChainBreakSchema.nullable().meta({
      description: 'Null when the chain is intact.',
    }),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof AuditVerificationSchema>;
