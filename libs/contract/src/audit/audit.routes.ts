import { defineRoute } from '../route/route';
import {
  AuditPageSchema,
  AuditQuerySchema,
  AuditVerificationSchema,
  AuditVerifyQuerySchema,
} from './audit.schemas';

const tags = ['audit'] as const;

export const auditRoutes = {
  listAuditEvents: defineRoute({
    operationId: 'listAuditEvents',
    method: 'get',
    path: '/v1/audit',
    summary: 'List audit events, newest first (cursor-paginated).',
    description:
      "A team's admin key sees its own team's events; the installation admin key and console users see every event.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    query: AuditQuerySchema,
    responses: {
      200: { description: 'One page of events, newest first.', schema: AuditPageSchema },
    },
    problems: [],
  }),
  verifyAuditChain: defineRoute({
    operationId: 'verifyAuditChain',
    method: 'get',
    path: '/v1/audit/verify',
    summary: 'Verify the audit hash chain; names the first broken link.',
    description:
      'Covers every team, and answers 200 whether or not the chain is intact: read `ok`. Continues from the checkpoint the last intact verification left (re-checking the checkpointed event, then walking the events appended since, then the head); `?full=true` walks the whole chain. Either way the chain must agree with the checkpoint, so history rewritten up to it shows as `checkpoint_mismatch`.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    query: AuditVerifyQuerySchema,
    responses: { 200: { description: 'The verification.', schema: AuditVerificationSchema } },
    problems: [],
  }),
};
