import { defineRoute } from '../route/route';
import { ApiIndexSchema, LivenessSchema, ReadinessSchema } from './health.schemas';

const tags = ['health'] as const;

export const healthRoutes = {
  getApiIndex: defineRoute({
    operationId: 'getApiIndex',
    method: 'get',
    path: '/v1',
    summary: 'The API index: links to the docs, the OpenAPI document, health and MCP.',
    tags,
    security: 'public',
    responses: { 200: { description: 'The links.', schema: ApiIndexSchema } },
    problems: [],
  }),
  getLiveness: defineRoute({
    operationId: 'getLiveness',
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers.',
    description: 'Reads nothing: a liveness probe must not fail when the database does.',
    tags,
    security: 'public',
    responses: { 200: { description: 'The process answers.', schema: LivenessSchema } },
    problems: [],
  }),
  getReadiness: defineRoute({
    operationId: 'getReadiness',
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database answers too.',
    description:
      'Answers 200 while the database answers a ping, else 503 with an `unavailable` problem document (application/problem+json), so a load balancer stops routing here.',
    tags,
    security: 'public',
    responses: { 200: { description: 'Ready to serve.', schema: ReadinessSchema } },
    problems: ['unavailable'],
  }),
};
