import { z } from 'zod';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728 §2) of the MCP endpoint: where an MCP client
 * learns which authorization servers issue tokens for it and which scopes to ask for.
 */
export const ProtectedResourceMetadataSchema = z
  .object({
    resource: z.url().meta({
      description:
        'The protected resource: the MCP endpoint URL. Clients send it as the `resource` parameter (RFC 8707) when asking for a token, and tokens must name it in `aud`.',
    }),
    authorization_servers: z.array(z.url()).min(1).meta({
      description: 'Issuer identifiers of the authorization servers this resource trusts.',
    }),
    scopes_supported: z.array(z.string()).meta({
      description: 'The OAuth scopes this resource understands (the keys of its scope map).',
    }),
    bearer_methods_supported: z
      .array(z.literal('header'))
      .meta({ description: 'Tokens are accepted only in the Authorization header.' }),
    resource_name: z.string().optional(),
  })
  .meta({
    id: 'ProtectedResourceMetadata',
    description: 'RFC 9728 metadata of the MCP endpoint as an OAuth 2.1 resource server.',
  });
export type ProtectedResourceMetadata = z.infer<typeof ProtectedResourceMetadataSchema>;
