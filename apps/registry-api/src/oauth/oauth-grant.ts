import { z } from 'zod';
import type { Scope } from '../auth/principal';
import type { OAuthScopeMap } from './oauth-settings';

/**
 * The claims of a verified access token this server reads (RFC 9068 §2.2, RFC 8693 §4.2-4.3);
 * loose, since authorization servers add their own. `scp` is how some servers spell `scope`.
 */
export const AccessTokenClaimsSchema = z.looseObject({
  iss: z.string().min(1),
  sub: z.string().min(1).max(512).optional(),
  client_id: z.string().min(1).max(512).optional(),
  azp: z.string().min(1).max(512).optional(),
  scope: z.string().optional(),
  scp: z.union([z.string(), z.array(z.string())]).optional(),
});
export type AccessTokenClaims = z.infer<typeof AccessTokenClaimsSchema>;

/** What a token grants at /mcp once the scope map has been applied. */
export interface OAuthGrant {
  issuer: string;
  /** `sub`; for a client acting for itself without one, its client id. */
  subject: string;
  clientId: string | null;
  /** The token's own OAuth scopes, as the authorization server wrote them. */
  oauthScopes: string[];
  /** The Toolgate scopes those OAuth scopes map to. */
  scopes: Set<Scope>;
  /** The team named by the token's team claim, else the map's fixed team. */
  teamId: string;
}

/** Why a verified token still grants nothing here. */
export type OAuthGrantRefusal = 'no_subject' | 'no_team';

/** The OAuth scopes of a token: `scope` (space-separated) or `scp` (a list or a string). */
export function oauthScopesOf(claims: AccessTokenClaims): string[] {
  const raw = claims.scope ?? claims.scp ?? [];
  const list = Array.isArray(raw) ? raw : raw.split(' ');
  return [...new Set(list.map((scope) => scope.trim()).filter((scope) => scope !== ''))];
}

const TeamClaimSchema = z.uuid();

/** Applies the scope map to a verified token's claims. */
export function grantOf(
  claims: AccessTokenClaims,
  map: OAuthScopeMap,
): { ok: true; grant: OAuthGrant } | { ok: false; refusal: OAuthGrantRefusal } {
  const clientId = claims.client_id ?? claims.azp ?? null;
  const subject = claims.sub ?? clientId;
  if (subject === null) return { ok: false, refusal: 'no_subject' };
  const claimed = map.team_claim === undefined ? undefined : claims[map.team_claim];
  // A token naming a team the map cannot read does not fall back to the fixed team: that would
  // let a token meant for another team act for the default one.
  let teamId: string | undefined;
  if (claimed === undefined) teamId = map.team;
  else {
    const parsed = TeamClaimSchema.safeParse(claimed);
    teamId = parsed.success ? parsed.data : undefined;
  }
  if (teamId === undefined) return { ok: false, refusal: 'no_team' };
  const oauthScopes = oauthScopesOf(claims);
  const scopes = new Set<Scope>(oauthScopes.flatMap((scope) => map.scopes[scope] ?? []));
  return {
    ok: true,
    grant: { issuer: claims.iss, subject, clientId, oauthScopes, scopes, teamId },
  };
}

/**
 * The OAuth scopes a client should ask for to gain `missing` Toolgate scopes: for each, the first
 * OAuth scope of the map granting it (RFC 6750 §3 `scope` of an `insufficient_scope` challenge).
 */
export function oauthScopesGranting(map: OAuthScopeMap, missing: readonly Scope[]): string[] {
  const entries = Object.entries(map.scopes);
  const needed = missing.flatMap((scope) => {
    const granting = entries.find(([, granted]) => (granted as readonly Scope[]).includes(scope));
    return granting === undefined ? [] : [granting[0]];
  });
  return [...new Set(needed)];
}
