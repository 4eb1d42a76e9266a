import { z } from 'zod';
import { LimitSchema } from '../common/pagination';

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied', 'expired'] as const;

export const ListApprovalsQuerySchema = z.strictObject({
  status: z.enum(APPROVAL_STATUSES).optional(),
  limit: LimitSchema,
});
export type ListApprovalsQueryDto = z.infer<typeof ListApprovalsQuerySchema>;

export const ApprovalDecisionSchema = z.strictObject({
  decision: z.enum(['approve', 'deny']),
  /** Shown to the model on a denial, kept on the approval either way. */
  reason: z.string().min(1).max(2000).optional(),
});
export type ApprovalDecisionDto = z.infer<typeof ApprovalDecisionSchema>;

export const ApprovalIdParamSchema = z.uuid();

export interface ApprovalDto {
  id: string;
  call_id: string;
  tool_id: string;
  tool_version: string;
  arguments_hash: string;
  reason: string;
  policy_reason: string | null;
  status: (typeof APPROVAL_STATUSES)[number];
  requested_by: string;
  decided_by: string | null;
  decision_reason: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  consumed_at: string | null;
}
