import type { ProtectedResourceMetadata } from '@toolgate/contract';
import { API_PATHS } from '../common/api-paths';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The metadata routes (RFC 9728 §3), outside `/v1` as clients derive them from the resource URL. */
export const PROTECTED_RESOURCE_METADATA_ROUTES = [
  WELL_KNOWN.slice(1),
  `${WELL_KNOWN.slice(1)}${API_PATHS.mcp}`,
];

/** Where RFC 9728 §3.1 puts a resource's metadata: the well-known segment between host and path. */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}`;
}

/**
 * The MCP endpoint's URL as clients name it: under the configured public origin, else under the
 * request's own scheme and Host (which the origin guard has checked against the allow-list).
 */
export function mcpResourceUrl(
  publicUrl: string | undefined,
  request: { protocol: string; host: string },
): string {
  return `${publicUrl ?? `${request.protocol}://${request.host}`}${API_PATHS.mcp}`;
}

/** RFC 9728 §2 metadata of the MCP endpoint. */
export function protectedResourceMetadata(input: {
  resource: string;
  issuers: readonly string[];
  scopes: readonly string[];
}): ProtectedResourceMetadata {
  return {
    resource: input.resource,
    authorization_servers: [...input.issuers],
    scopes_supported: [...input.scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Toolgate MCP',
  };
}
