import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  CreateSecretSchema,
  DeleteSecretQuerySchema,
  RotateSecretSchema,
  SecretListSchema,
  SecretNameSchema,
  SecretSchema,
  SecretTeamQuerySchema,
} from './secrets.schemas';

const tags = ['secrets'] as const;
const params = z.strictObject({ name: SecretNameSchema });
const UNCONFIGURED =
  'Every secrets route answers `secrets_unconfigured` (503) while the server has no TOOLGATE_SECRETS_KEY.';

export const secretsRoutes = {
  createSecret: defineRoute({
    operationId: 'createSecret',
    method: 'post',
    path: '/v1/secrets',
    summary: "Store a secret for the team's tools; its value is never returned.",
    description: `The value is stored encrypted; a name the team already has answers \`conflict\` (rotate it with PUT instead). ${UNCONFIGURED}`,
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    body: CreateSecretSchema,
    bodyExamples: {
      apiKey: { name: 'ORDERS_API_KEY', value: 'sk_live_replace_me' },
      forTeam: {
        name: 'petstore/api_key',
        value: 'replace-me',
        team_id: '3f0b8a52-6f7e-4c1a-9a43-2d2f8b1c9e10',
      },
    },
    responses: { 201: { description: 'The secret, without its value.', schema: SecretSchema } },
    problems: ['not_found', 'conflict', 'secrets_unconfigured'],
  }),
  listSecrets: defineRoute({
    operationId: 'listSecrets',
    method: 'get',
    path: '/v1/secrets',
    summary: 'List secrets: names, times and the tool versions referencing each.',
    description: `A team key lists its own team's; callers spanning teams every team's, or one with \`?team_id=\`. ${UNCONFIGURED}`,
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    query: SecretTeamQuerySchema,
    responses: {
      200: {
        description: 'The secrets, by team and name (at most 1000).',
        schema: SecretListSchema,
      },
    },
    problems: ['not_found', 'secrets_unconfigured'],
  }),
  rotateSecret: defineRoute({
    operationId: 'rotateSecret',
    method: 'put',
    path: '/v1/secrets/{name}',
    summary: "Rotate a secret's value; calls use the new value at once.",
    description: `Callers spanning teams name the team with \`?team_id=\`. ${UNCONFIGURED}`,
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    query: SecretTeamQuerySchema,
    body: RotateSecretSchema,
    bodyExamples: { rotate: { value: 'sk_live_replace_me_too' } },
    responses: { 200: { description: 'The secret, without its value.', schema: SecretSchema } },
    problems: ['not_found', 'secrets_unconfigured'],
  }),
  deleteSecret: defineRoute({
    operationId: 'deleteSecret',
    method: 'delete',
    path: '/v1/secrets/{name}',
    summary:
      'Delete a secret; refused (409) while a stable or canary version references it, unless ?force=true.',
    description: `The \`secret_in_use\` problem lists the served versions in \`referenced_by\` (each a SecretReference). Callers spanning teams name the team with \`?team_id=\`. ${UNCONFIGURED}`,
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params,
    query: DeleteSecretQuerySchema,
    responses: { 204: { description: 'Deleted.' } },
    problems: ['not_found', 'secret_in_use', 'secrets_unconfigured'],
  }),
};
