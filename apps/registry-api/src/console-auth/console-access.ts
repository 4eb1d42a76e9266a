import type { Type } from '@nestjs/common';
import { AuditController } from '../audit/audit.controller';
import type { Scope } from '../auth/principal';
import { PoliciesController } from '../policies/policies.controller';
import { TeamsController } from '../teams/teams.controller';

// RFC 9110 §9.2.1: safe methods only read; everything else changes state and needs the CSRF header.
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Admin-scoped routes whose reads every console user may make: the console shows the audit
 * trail, the policies and team names to viewers. Any other admin read (console users, API keys)
 * stays admin-only, so a new admin route is never opened to viewers by accident.
 */
const CONSOLE_READABLE_ADMIN_CONTROLLERS: ReadonlySet<Type<unknown>> = new Set<Type<unknown>>([
  AuditController,
  PoliciesController,
  TeamsController,
]);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The scopes a console user needs for a route. Every console role may read what the console
 * shows (calls, approvals, policies, audit), whose routes were declared for API keys with
 * narrower purposes; so those reads need only `tools:read`. Changes keep the route's scopes.
 */
export function consoleNeededScopes(
  declared: readonly Scope[],
  request: { method: string; controller: Type<unknown> },
): readonly Scope[] {
  if (!isSafeMethod(request.method)) return declared;
  if (declared.includes('admin') && !CONSOLE_READABLE_ADMIN_CONTROLLERS.has(request.controller))
    return declared;
  return ['tools:read'];
}
