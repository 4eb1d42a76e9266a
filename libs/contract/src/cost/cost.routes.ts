import { defineRoute } from '../route/route';
import { CostQuerySchema, CostReportSchema } from './cost.schemas';

const tags = ['metrics'] as const;

export const costRoutes = {
  getCostReport: defineRoute({
    operationId: 'getCostReport',
    method: 'get',
    path: '/v1/metrics/cost',
    summary:
      'Tool cost and token cost over `?window=1h|24h|7d|30d`, bucketed over time and grouped by `?group_by=team|key|tool|version`.',
    description:
      "A team's key sees its own team's calls; the installation admin key and console users every team's.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: CostQuerySchema,
    responses: { 200: { description: 'The report.', schema: CostReportSchema } },
    problems: [],
  }),
};
