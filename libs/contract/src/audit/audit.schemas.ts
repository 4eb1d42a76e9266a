import { z } from 'zod';
import { ActorsSchema } from '../common/actor';
import {
  CursorParamSchema,
  LimitSchema,
  pageOf,
  queryFlag,
  TimestampSchema,
} from '../common/pagination';

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

export const AuditPageSchema = pageOf(AuditEventSchema).extend({ actors: ActorsSchema });
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const AuditChainBreakReasonSchema = z
  .enum([
    'sequence_gap',
    'prev_hash_mismatch',
    'hash_mismatch',
    'head_mismatch',
    'checkpoint_mismatch',
  ])
  .meta({
    description:
      '`sequence_gap`: an event is missing before this one; `prev_hash_mismatch`: it does not link to the one before; `hash_mismatch`: its content was changed; `head_mismatch`: the chain ends before its recorded head (events deleted from the end); `checkpoint_mismatch`: the event a verification checkpointed is gone, changed or has another hash now (history up to it was rewritten, or the chain cut back).',
  });
export type AuditChainBreakReason = z.infer<typeof AuditChainBreakReasonSchema>;

export const AuditChainBreakSchema = z
  .object({
    seq: SeqSchema,
    id: z.uuid().nullable().meta({
      description:
        "The event's id; null for `head_mismatch`, and for a `checkpoint_mismatch` past the chain's end.",
    }),
    reason: AuditChainBreakReasonSchema,
  })
  .meta({ id: 'AuditChainBreak' });
export type AuditChainBreak = z.infer<typeof AuditChainBreakSchema>;

export const AuditVerifyQuerySchema = z.strictObject({
  full: queryFlag(
    'Walks the whole chain from its first event instead of continuing from the checkpoint, which trusts what it verified before.',
  ),
});
export type AuditVerifyQuery = z.output<typeof AuditVerifyQuerySchema>;

/** Where a verification found the chain intact: the last event verified and its hash. */
export const AuditCheckpointSchema = z
  .object({
    seq: SeqSchema,
    hash: z.string(),
    verified_at: TimestampSchema,
  })
  .meta({ id: 'AuditCheckpoint' });
export type AuditCheckpoint = z.infer<typeof AuditCheckpointSchema>;

export const AuditVerificationSchema = z
  .object({
    ok: z.boolean(),
    mode: z.enum(['full', 'incremental']).meta({
      description:
        '`incremental`: re-checked the checkpointed event and walked the events after it; `full`: walked the chain from its first event (asked with `?full=true`, or when there was no checkpoint yet).',
    }),
    from_seq: SeqSchema.meta({
      description:
        'The first event checked: `1` for a full verification, the checkpointed event for an incremental one.',
    }),
    to_seq: SeqSchema.meta({
      description:
        'The last event found intact: `head.seq` when `ok`; otherwise the last before the first broken link, or where the chain ended (`from_seq` - 1 when none was).',
    }),
    checked: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'How many events verified before the first broken link.' }),
    head: z
      .object({ seq: SeqSchema, hash: z.string() })
      .meta({ description: 'The recorded head of the chain, which the last event must match.' }),
    checkpoint: AuditCheckpointSchema.nullable().meta({
      description:
        'The checkpoint this verification found: an incremental one continued from it, a full one checked the chain against it; null before the first verification.',
    }),
    first_broken_link: AuditChainBreakSchema.nullable().meta({
      description: 'Null when the chain is intact.',
    }),
    verified_at: TimestampSchema.meta({
      description:
        'When the verification started (it covers the events up to the head as of then); a checkpoint it moves carries this time.',
    }),
    duration_ms: z.number().int().min(0).meta({ description: 'How long the verification took.' }),
  })
  .meta({ id: 'AuditVerification' });
export type AuditVerification = z.infer<typeof AuditVerificationSchema>;
