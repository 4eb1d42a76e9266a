import { defineRoute } from '../route/route';
import { SloQuerySchema, SloReportSchema } from './metrics.schemas';

const tags = ['metrics'] as const;

export const metricsRoutes = {
  getSloReport: defineRoute({
    operationId: 'getSloReport',
    method: 'get',
    path: '/v1/metrics/slo',
    summary:
      'Success rate, p50/p95 latency, error codes and approvals per tool over `?window=1h|24h|7d|30d`, with the SLOs met or breached.',
    description:
      "Rates and latencies count only calls the tool answers for (finished, executed, not refused before it ran); calls the result cache answered are counted apart as `cached`; error codes count every failed call. A team's key sees its own team's calls; the installation admin key and console users every team's.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: SloQuerySchema,
    responses: { 200: { description: 'The report.', schema: SloReportSchema } },
    problems: [],
  }),
};
