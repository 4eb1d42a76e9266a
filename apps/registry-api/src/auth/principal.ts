import { z } from 'zod';

import { SCOPES, type Scope } from '@toolgate/contract';

export { SCOPES, type Scope };
export const ScopeSchema = z.enum(SCOPES);

/** The authenticated caller of a request. */
export interface Principal {
  /** Written into audit events: `key:<id>`, `admin` for the bootstrap key, `user:<email>` for a console user. */
  actor: string;
  /** The caller's team; null for the bootstrap admin key and console users, which span every team. */
  teamId: string | null;
  keyId: string | null;
  /** The console user signed in with a session cookie; absent for API keys. */
  userId?: string;
  scopes: ReadonlySet<Scope>;
}

export function hasScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has('admin') || principal.scopes.has(scope);
}

/** True when the principal may read or change rows owned by `teamId`. */
export function ownsTeam(principal: Principal, teamId: string): boolean {
  return principal.teamId === null || principal.teamId === teamId;
}
