import { z } from 'zod';
import { ReleaseActionBodySchema } from '../releases/releases.schemas';
import { defineRoute } from '../route/route';
import { ToolIdSchema } from '../tools/tools.schemas';
import {
  CanaryGuardEvaluationSchema,
  ReleaseHealthSchema,
  ReleaseHistoryQuerySchema,
  ReleaseHistorySchema,
} from './canary-guard.schemas';

const tags = ['releases'] as const;
const params = z.strictObject({ toolId: ToolIdSchema });

export const canaryGuardRoutes = {
  getReleaseHealth: defineRoute({
    operationId: 'getReleaseHealth',
    method: 'get',
    path: '/v1/tools/{toolId}/release/health',
    summary: "Stable and canary figures over the guard's window, and the guard's verdict.",
    description: 'Reads only: the canary is not rolled back, whatever the verdict.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params,
    responses: {
      200: { description: 'The figures and the verdict.', schema: ReleaseHealthSchema },
    },
    problems: ['not_found'],
  }),
  getReleaseHistory: defineRoute({
    operationId: 'getReleaseHistory',
    method: 'get',
    path: '/v1/tools/{toolId}/release/history',
    summary:
      "Each version's figures over `?window=1h|24h|7d|30d` in time buckets, as the canary guard judges them, with the share of calls each version served.",
    description:
      "For charts of canary against stable: success rate, p95 latency and validation failures per bucket, and the share of the tool's calls the canary actually got.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params,
    query: ReleaseHistoryQuerySchema,
    responses: {
      200: { description: 'The figures per version.', schema: ReleaseHistorySchema },
    },
    problems: ['not_found'],
  }),
  evaluateCanaryGuard: defineRoute({
    operationId: 'evaluateCanaryGuard',
    method: 'post',
    path: '/v1/tools/{toolId}/release/guard/evaluate',
    summary: 'Evaluate the canary now; a canary doing clearly worse than stable is rolled back.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    body: ReleaseActionBodySchema,
    bodyExamples: { empty: {} },
    responses: {
      200: {
        description: 'The figures, the verdict and what the guard did.',
        schema: CanaryGuardEvaluationSchema,
      },
    },
    problems: ['not_found'],
  }),
};
