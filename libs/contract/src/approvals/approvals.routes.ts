import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  ApprovalDecisionSchema,
  ApprovalIdSchema,
  ApprovalListSchema,
  ApprovalSchema,
  ListApprovalsQuerySchema,
} from './approvals.schemas';

const tags = ['approvals'] as const;

export const approvalsRoutes = {
  listApprovals: defineRoute({
    operationId: 'listApprovals',
    method: 'get',
    path: '/v1/approvals',
    summary: 'Approval requests of the team, newest first (`?status=pending`).',
    tags,
    security: 'api_key',
    scopes: ['approvals:decide'],
    query: ListApprovalsQuerySchema,
    responses: { 200: { description: 'The approvals, newest first.', schema: ApprovalListSchema } },
    problems: [],
  }),
  decideApproval: defineRoute({
    operationId: 'decideApproval',
    method: 'post',
    path: '/v1/approvals/{approvalId}/decision',
    summary: 'Approve or deny a pending call; the decider is recorded and audited.',
    description:
      'The call goes back to the queue: an approval lets exactly that call run once, a denial becomes its `approval_denied` result. Whoever made the call may not decide it unless the team allows self-approval (`self_approval_forbidden`, with `requested_by`); an approval that is no longer pending answers `conflict` with `approval_status`.',
    tags,
    security: 'api_key',
    scopes: ['approvals:decide'],
    params: z.strictObject({ approvalId: ApprovalIdSchema }),
    body: ApprovalDecisionSchema,
    bodyExamples: {
      approve: { decision: 'approve' },
      deny: { decision: 'deny', reason: 'Refunds over 500 EUR go through the finance desk.' },
    },
    responses: { 200: { description: 'The approval, decided.', schema: ApprovalSchema } },
    problems: ['not_found', 'self_approval_forbidden', 'conflict'],
  }),
};
