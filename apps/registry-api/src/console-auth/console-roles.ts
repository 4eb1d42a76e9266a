import { CONSOLE_ROLES, ConsoleRoleSchema, type ConsoleRole } from '@toolgate/contract';
import type { Scope } from '../auth/principal';

export { CONSOLE_ROLES, ConsoleRoleSchema, type ConsoleRole };

const SCOPES_BY_ROLE: Record<ConsoleRole, readonly Scope[]> = {
  viewer: ['tools:read'],
  approver: ['tools:read', 'approvals:decide'],
  admin: ['admin'],
};

/** The API scopes a console role grants (`admin` implies every other scope). */
export function scopesOfRole(role: ConsoleRole): ReadonlySet<Scope> {
  return new Set(SCOPES_BY_ROLE[role]);
}

/** The audit actor of a console user: `user:<email>`. */
export function consoleActor(email: string): string {
  return `user:${email}`;
}
