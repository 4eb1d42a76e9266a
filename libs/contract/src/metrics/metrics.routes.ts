import { defineRoute } from '../route/route';
import {
  CallsMetricsQuerySchema,
  CallsMetricsSchema,
  SloQuerySchema,
  SloReportSchema,
} from './metrics.schemas';

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
  getCallsMetrics: defineRoute({
    operationId: 'getCallsMetrics',
    method: 'get',
    path: '/v1/metrics/calls',
    summary:
      "Calls over `?window=1h|24h|7d|30d` in time buckets: volume by status, error rate and p50/p95 latency, and each tool's calls and failures per bucket.",
    description:
      "Counts every recorded call by when it was received, whatever its status. A team's key sees its own team's calls; the installation admin key and console users every team's.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: CallsMetricsQuerySchema,
    responses: { 200: { description: 'The figures.', schema: CallsMetricsSchema } },
    problems: [],
  }),
};
