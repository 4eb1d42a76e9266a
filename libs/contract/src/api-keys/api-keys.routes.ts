import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  ApiKeyIdSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
} from './api-keys.schemas';

const tags = ['api-keys'] as const;

export const apiKeysRoutes = {
  createApiKey: defineRoute({
    operationId: 'createApiKey',
    method: 'post',
    path: '/v1/api-keys',
    summary: 'Create an API key; the secret is in this response only.',
    description:
      "The key belongs to the caller's team, or to `team_id` for the installation admin key (which must name one). A team key naming another team gets `not_found`.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    body: CreateApiKeySchema,
    bodyExamples: {
      ciReader: { name: 'ci', scopes: ['tools:read'] },
      forTeam: {
        name: 'agent',
        scopes: ['tools:read', 'calls:execute'],
        team_id: '3f0b8a52-6f7e-4c1a-9a43-2d2f8b1c9e10',
      },
    },
    responses: {
      201: {
        description: 'The key with its secret (`key`), shown this once: store it now.',
        schema: CreatedApiKeySchema,
      },
    },
    problems: ['not_found'],
  }),
  listApiKeys: defineRoute({
    operationId: 'listApiKeys',
    method: 'get',
    path: '/v1/api-keys',
    summary: "List the team's API keys (never their secrets).",
    description:
      "A team's key sees its own team's keys; the installation admin key and console admins see every team's. Newest first, revoked ones included.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    responses: { 200: { description: 'The keys, newest first.', schema: ApiKeyListSchema } },
    problems: [],
  }),
  revokeApiKey: defineRoute({
    operationId: 'revokeApiKey',
    method: 'post',
    path: '/v1/api-keys/{id}/revoke',
    summary: 'Revoke an API key; it stops working at once.',
    description: 'A key already revoked answers `conflict`; one of another team `not_found`.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: z.strictObject({ id: ApiKeyIdSchema }),
    responses: { 200: { description: 'The key as revoked.', schema: ApiKeySchema } },
    problems: ['not_found', 'conflict'],
  }),
};
