import { z } from 'zod';

const DISCOVERY_TIMEOUT_MS = 5_000;

/** The members of an issuer's metadata (RFC 8414 §2, OpenID Discovery §3) this server uses. */
const AuthorizationServerMetadataSchema = z.looseObject({
  issuer: z.string(),
  jwks_uri: z.url({ protocol: /^https?$/ }),
});

/**
 * Where an issuer's metadata may be, in the order the MCP authorization spec (2025-11-25, "Authorization
 * Server Metadata Discovery") asks clients to try: RFC 8414 first, then OpenID Connect Discovery,
 * with the well-known segment inserted before the issuer's path, then OIDC's appended form.
 */
export function metadataUrlsOf(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      `${url.origin}/.well-known/oauth-authorization-server`,
      `${url.origin}/.well-known/openid-configuration`,
    ];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** Thrown when no metadata document of an issuer could be read; the message is for the log only. */
export class IssuerDiscoveryError extends Error {
  override readonly name = 'IssuerDiscoveryError';
}

/**
 * The `jwks_uri` of an issuer, from the first metadata document that answers and names the same
 * issuer (RFC 8414 §3.3: a document for another issuer must not be used).
 */
export async function discoverJwksUri(
  issuer: string,
  fetchImpl: typeof fetch = fetch,
): Promise<URL> {
  const failures: string[] = [];
  for (const candidate of metadataUrlsOf(issuer)) {
    try {
      const response = await fetchImpl(candidate, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
        redirect: 'error',
      });
      if (!response.ok) {
        failures.push(`${candidate}: HTTP ${response.status}`);
        continue;
      }
      const metadata = AuthorizationServerMetadataSchema.safeParse(await response.json());
      if (!metadata.success) {
        failures.push(`${candidate}: no jwks_uri`);
        continue;
      }
      if (metadata.data.issuer !== issuer) {
        failures.push(`${candidate}: names issuer ${metadata.data.issuer}`);
        continue;
      }
      return new URL(metadata.data.jwks_uri);
    } catch (error) {
      failures.push(`${candidate}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new IssuerDiscoveryError(`no metadata for issuer ${issuer} (${failures.join('; ')})`);
}
