import { z } from 'zod';

import { SCOPES, type Scope } from '@toolgate/contract';
import type { PolicyOAuth } from '@toolgate/engine';

export { SCOPES, type Scope };
export const ScopeSchema = z.enum(SCOPES);

/** Who an OAuth access token speaks for (only at /mcp, the one OAuth resource of this server). */
export interface OAuthIdentity {
  /** The token's `iss`. */
  issuer: string;
  /** The token's `sub` (for a client acting for itself without one, its client id). */
  subject: string;
  /** The token's `client_id`, else `azp`; null when it names neither. */
  clientId: string | null;
  /** The token's OAuth scopes as issued (before the scope map turned them into `scopes`). */
  scopes: readonly string[];
}

/** The authenticated caller of a request. */
export interface Principal {
  /**
   * Written into audit events: `key:<id>`, `admin` for the bootstrap key, `user:<email>` for a
   * console user, `oauth:<issuer>#<subject>` for an OAuth access token.
   */
  actor: string;
  /** The caller's team; null for the bootstrap admin key and console users, which span every team. */
  teamId: string | null;
  keyId: string | null;
  /** The API key's and its team's names, for traces: people read names, not UUIDs. */
  keyName?: string;
  teamName?: string;
  /** The console user signed in with a session cookie; absent for API keys. */
  userId?: string;
  /** Present when the caller presented an OAuth access token instead of an API key. */
  oauth?: OAuthIdentity;
  scopes: ReadonlySet<Scope>;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has('admin') || principal.scopes.has(scope);
}

/** True when the principal may read or change rows owned by `teamId`. */
export function ownsTeam(principal: Principal, teamId: string): boolean {
  return principal.teamId === null || principal.teamId === teamId;
}

/** What policies see of an OAuth caller's token (the engine's `principal.oauth`); null for a key. */
export function policyOAuthOf(principal: Principal): PolicyOAuth | null {
  const { oauth } = principal;
  if (oauth === undefined) return null;
  return {
    issuer: oauth.issuer,
    subject: oauth.subject,
    client_id: oauth.clientId,
    scopes: [...oauth.scopes],
  };
}
