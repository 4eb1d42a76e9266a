import { defineRoute } from '../route/route';
import { AuditPageSchema, AuditQuerySchema, AuditVerificationSchema } from './audit.schemas';

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
      'Walks the whole chain (every team), so it answers 200 whether or not the chain is intact: read `ok`.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    responses: { 200: { description: 'The verification.', schema: AuditVerificationSchema } },
    problems: [],
  }),
};
