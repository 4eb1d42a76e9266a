import { z } from 'zod';

/** What an API key may do; `admin` implies every other scope. */
export const SCOPES = [
  'tools:read',
  'tools:write',
  'calls:execute',
  'approvals:decide',
  'admin',
] as const;
export const ScopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof ScopeSchema>;

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
