import { z } from 'zod';
import { ActorsSchema } from '../common/actor';
import { LimitSchema, TimestampSchema } from '../common/pagination';

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;
export const ApprovalStatusSchema = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatusSchema>;

export const ApprovalIdSchema = z.uuid().meta({ description: "The approval's id." });

export const ListApprovalsQuerySchema = z.strictObject({
  status: ApprovalStatusSchema.optional().meta({ description: 'Only approvals in this state.' }),
  limit: LimitSchema,
});
export type ListApprovalsQuery = z.output<typeof ListApprovalsQuerySchema>;

export const ApprovalDecisionSchema = z.strictObject({
  decision: z.enum(['approve', 'deny']),
  reason: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .meta({ description: 'Shown to the model on a denial, kept on the approval either way.' }),
});
export type ApprovalDecisionRequest = z.input<typeof ApprovalDecisionSchema>;
export type ApprovalDecisionInput = z.output<typeof ApprovalDecisionSchema>;

export const ApprovalSchema = z
  .object({
    id: ApprovalIdSchema,
    call_id: z.uuid(),
    tool_id: z.uuid(),
    tool_version: z.string(),
    arguments_hash: z.string().meta({
      description:
        'The hash of the arguments approved: an approval lets exactly that call run, once.',
    }),
    reason: z.string().meta({ description: 'Why approval is needed, for the approver.' }),
    policy_reason: z
      .string()
      .nullable()
      .meta({ description: "The deciding policy's reason, when a policy required the approval." }),
    status: ApprovalStatusSchema,
    requested_by: z.string().meta({ description: 'Who made the call.' }),
    decided_by: z.string().nullable(),
    decision_reason: z.string().nullable(),
    created_at: TimestampSchema,
    expires_at: TimestampSchema,
    decided_at: TimestampSchema.nullable(),
    consumed_at: TimestampSchema.nullable().meta({ description: 'When the approved call ran.' }),
  })
  .meta({ id: 'Approval' });
export type Approval = z.infer<typeof ApprovalSchema>;

export const ApprovalListSchema = z.object({
  items: z.array(ApprovalSchema),
  actors: ActorsSchema,
});
export type ApprovalList = z.infer<typeof ApprovalListSchema>;
