import { z } from 'zod';
import { defineRoute } from '../route/route';
import { ToolIdSchema } from '../tools/tools.schemas';
import {
  ReleaseActionBodySchema,
  ReleaseSchema,
  ReleaseWithActorsSchema,
  SetCanaryVersionSchema,
  SetStableVersionSchema,
} from './releases.schemas';

const tags = ['releases'] as const;
const params = z.strictObject({ toolId: ToolIdSchema });

export const releasesRoutes = {
  getRelease: defineRoute({
    operationId: 'getRelease',
    method: 'get',
    path: '/v1/tools/{toolId}/release',
    summary: "A tool's release state: stable, canary and canary percent.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params,
    responses: {
      200: {
        description: 'The release; every version null before one is set.',
        schema: ReleaseWithActorsSchema,
      },
    },
    problems: ['not_found'],
  }),
  setStableVersion: defineRoute({
    operationId: 'setStableVersion',
    method: 'put',
    path: '/v1/tools/{toolId}/release/stable',
    summary: 'Set the stable version.',
    description:
      'The stable version it replaces is kept for rollback; a canary of the same version ends, any other canary keeps running.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    body: SetStableVersionSchema,
    bodyExamples: { stable: { version: '1.1.0' } },
    responses: { 200: { description: 'The release after the change.', schema: ReleaseSchema } },
    problems: ['not_found', 'version_not_found', 'version_sunset', 'conflict'],
  }),
  setCanaryVersion: defineRoute({
    operationId: 'setCanaryVersion',
    method: 'put',
    path: '/v1/tools/{toolId}/release/canary',
    summary: 'Set the canary version and the percentage of subjects that get it.',
    description:
      'Needs a stable version; the canary guard rolls back a canary doing clearly worse.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    body: SetCanaryVersionSchema,
    bodyExamples: { tenPercent: { version: '1.2.0', percent: 10 } },
    responses: { 200: { description: 'The release after the change.', schema: ReleaseSchema } },
    problems: ['not_found', 'version_not_found', 'version_sunset', 'conflict'],
  }),
  promoteCanary: defineRoute({
    operationId: 'promoteCanary',
    method: 'post',
    path: '/v1/tools/{toolId}/release/promote',
    summary: 'Make the canary the stable version.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    body: ReleaseActionBodySchema,
    bodyExamples: { empty: {} },
    responses: { 200: { description: 'The release after the change.', schema: ReleaseSchema } },
    problems: ['not_found', 'conflict'],
  }),
  rollbackRelease: defineRoute({
    operationId: 'rollbackRelease',
    method: 'post',
    path: '/v1/tools/{toolId}/release/rollback',
    summary: 'Stop the canary, or return stable to the previous version.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    body: ReleaseActionBodySchema,
    bodyExamples: { empty: {} },
    responses: { 200: { description: 'The release after the change.', schema: ReleaseSchema } },
    problems: ['not_found', 'conflict'],
  }),
};
