import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  CreatePolicySchema,
  PolicyDecisionSchema,
  PolicyListSchema,
  PolicyRevisionSchema,
  PolicySchema,
  TestPolicySchema,
} from './policies.schemas';

const tags = ['policies'] as const;

const SAMPLE_POLICY = `@id("permit-all")
permit(principal, action == Action::"execute", resource);

@id("no-vip-refunds")
@reason("VIP refunds go through the finance desk.")
forbid(principal, action, resource == Tool::"orders.refund")
when { context.arguments has tier && context.arguments.tier == "vip" };`;

export const policiesRoutes = {
  createPolicy: defineRoute({
    operationId: 'createPolicy',
    method: 'post',
    path: '/v1/policies',
    summary: 'Add a Cedar policy revision (validated; 422 lists every error).',
    description:
      'Revisions are numbered per scope: the team’s for a team key, `global` for the installation admin key. An invalid text answers `invalid_policy` with one issue per Cedar error and `policy_errors` as Cedar reported them.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    body: CreatePolicySchema,
    bodyExamples: {
      permitAll: { text: 'permit(principal, action, resource);', activate: true },
      approvals: { text: SAMPLE_POLICY },
    },
    responses: {
      201: {
        description: 'The new revision (active when `activate` was true).',
        schema: PolicySchema,
      },
    },
    problems: ['invalid_policy'],
  }),
  listPolicies: defineRoute({
    operationId: 'listPolicies',
    method: 'get',
    path: '/v1/policies',
    summary: 'Every policy revision of the caller’s scope, newest first.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    responses: { 200: { description: 'The revisions, newest first.', schema: PolicyListSchema } },
    problems: [],
  }),
  testPolicy: defineRoute({
    operationId: 'testPolicy',
    method: 'post',
    path: '/v1/policies/test',
    summary: 'The decision a policy text would make for a sample call; nothing is saved.',
    description:
      'The sample call names a tool with a stable release in the team; its stable version supplies the name, tags and behavior the policy sees. Without `text` the team’s active policy decides.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    body: TestPolicySchema,
    bodyExamples: {
      draft: {
        text: 'permit(principal, action, resource) unless { context.arguments has amount && context.arguments.amount > 100 };',
        call: { name: 'orders.refund', arguments: { amount: 250 } },
        team_id: '3f0c7d0e-5b7a-4d8e-9a51-2f4c1b6e8d90',
      },
      active: { call: { name: 'get_weather', arguments: { city: 'Oslo' } } },
    },
    responses: { 200: { description: 'The decision.', schema: PolicyDecisionSchema } },
    problems: ['invalid_policy', 'not_found', 'unknown_tool'],
  }),
  activatePolicy: defineRoute({
    operationId: 'activatePolicy',
    method: 'post',
    path: '/v1/policies/{revision}/activate',
    summary: 'Make a revision the active policy of the caller’s scope.',
    description:
      'The previous active revision is deactivated; every gateway process decides calls with the new one from its next call on.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: z.strictObject({ revision: PolicyRevisionSchema }),
    responses: { 200: { description: 'The revision, now active.', schema: PolicySchema } },
    problems: ['not_found'],
  }),
};
