import { describe, expect, it } from 'vitest';
import type { Type } from '@nestjs/common';
import { ApiKeysController } from '../api-keys/api-keys.controller';
import { ApprovalsController } from '../approvals/approvals.controller';
import { AuditController } from '../audit/audit.controller';
import { hasScope, type Principal, type Scope } from '../auth/principal';
import { consoleNeededScopes, isSafeMethod } from './console-access';
import { consoleActor, scopesOfRole } from './console-roles';
import { ConsoleUsersController } from './console-users.controller';

function user(role: 'viewer' | 'approver' | 'admin'): Principal {
  return {
    actor: consoleActor(`${role}@example.com`),
    teamId: null,
    keyId: null,
    userId: role,
    scopes: scopesOfRole(role),
  };
}

describe('console roles', () => {
  it('maps roles to scopes: viewer reads, approver also decides, admin does everything', () => {
    expect(hasScope(user('viewer'), 'tools:read')).toBe(true);
    expect(hasScope(user('viewer'), 'approvals:decide')).toBe(false);
    expect(hasScope(user('approver'), 'approvals:decide')).toBe(true);
    expect(hasScope(user('approver'), 'tools:write')).toBe(false);
    expect(hasScope(user('admin'), 'tools:write')).toBe(true);
    expect(user('viewer').actor).toBe('user:viewer@example.com');
  });

  it('lets console users read what the console shows with tools:read; changes keep their scopes', () => {
    const read = (declared: Scope[], controller: Type<unknown>) =>
      consoleNeededScopes(declared, { method: 'GET', controller });
    expect(read(['approvals:decide'], ApprovalsController)).toEqual(['tools:read']);
    expect(read(['admin'], AuditController)).toEqual(['tools:read']);
    expect(read(['admin'], ConsoleUsersController)).toEqual(['admin']);
    expect(read(['admin'], ApiKeysController)).toEqual(['admin']);
    expect(
      consoleNeededScopes(['approvals:decide'], {
        method: 'POST',
        controller: ApprovalsController,
      }),
    ).toEqual(['approvals:decide']);
    expect(isSafeMethod('head')).toBe(true);
    expect(isSafeMethod('DELETE')).toBe(false);
  });
});
