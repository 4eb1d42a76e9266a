import { defineRoute } from '../route/route';
import { ProtectedResourceMetadataSchema } from './oauth.schemas';

const tags = ['mcp'] as const;

const DESCRIPTION =
  'Served only when the server accepts OAuth access tokens at `/mcp` (`TOOLGATE_OAUTH_ISSUER` is set); otherwise 404. A 401 from `/mcp` names this document in its `WWW-Authenticate: Bearer resource_metadata="..."` challenge.';

export const oauthRoutes = {
  getProtectedResourceMetadata: defineRoute({
    operationId: 'getProtectedResourceMetadata',
    method: 'get',
    path: '/.well-known/oauth-protected-resource',
    summary: 'OAuth Protected Resource Metadata (RFC 9728) of the MCP endpoint.',
    description: DESCRIPTION,
    tags,
    security: 'public',
    responses: { 200: { description: 'The metadata.', schema: ProtectedResourceMetadataSchema } },
    problems: ['not_found'],
  }),
  getMcpProtectedResourceMetadata: defineRoute({
    operationId: 'getMcpProtectedResourceMetadata',
    method: 'get',
    path: '/.well-known/oauth-protected-resource/mcp',
    summary:
      'The same metadata at the path-suffixed URL RFC 9728 §3.1 derives from the resource `/mcp`.',
    description: DESCRIPTION,
    tags,
    security: 'public',
    responses: { 200: { description: 'The metadata.', schema: ProtectedResourceMetadataSchema } },
    problems: ['not_found'],
  }),
};
