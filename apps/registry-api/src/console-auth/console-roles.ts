import { z } from 'zod';
import type { Scope } from '../auth/principal';

/** What a console user may do; each role includes the ones before it. */
export const CONSOLE_ROLES = ['viewer', 'approver', 'admin'] as const;
export const ConsoleRoleSchema = z.enum(CONSOLE_ROLES);
export type ConsoleRole = z.infer<typeof ConsoleRoleSchema>;

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
