import { z } from 'zod';
import { defineRoute } from '../route/route';
import { ToolVersionParamSchema } from '../tool-versions/tool-versions.schemas';
import { ToolIdSchema } from '../tools/tools.schemas';
import { VersionUsageQuerySchema, VersionUsageSchema } from './usage.schemas';

export const usageRoutes = {
  getVersionUsage: defineRoute({
    operationId: 'getVersionUsage',
    method: 'get',
    path: '/v1/tools/{toolId}/versions/{version}/usage',
    summary: 'Which teams, keys and actors called this version in `?window=` (default 7d).',
    description:
      "Only the tool's own team (or a caller spanning teams) may see who calls it; to any other caller the tool is not found.",
    tags: ['versions'],
    security: 'api_key',
    scopes: ['tools:read'],
    params: z.strictObject({ toolId: ToolIdSchema, version: ToolVersionParamSchema }),
    query: VersionUsageQuerySchema,
    responses: { 200: { description: 'The callers of the version.', schema: VersionUsageSchema } },
    problems: ['not_found', 'version_not_found'],
  }),
};
