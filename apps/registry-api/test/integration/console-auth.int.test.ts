import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/app-config';
import { MAX_FAILURES_PER_ACCOUNT } from '../../src/console-auth/login-rate-limiter';
import { ConsoleUsersRepository } from '../../src/console-auth/console-users.repository';
import { ConsoleUsersService } from '../../src/console-auth/console-users.service';
import {
  CONSOLE_PASSWORD,
  createConsoleUser,
  sessionCookieOf,
  signIn,
  type ConsoleBrowser,
} from '../factories/console.factory';
import {
  anthropicContent,
  createBuiltinTool,
  waitForCallStatus,
} from '../factories/gateway.factory';
import {
  createTeam,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const ADMIN_EMAIL = 'first.admin@example.com';
const ADMIN_PASSWORD = 'first-admin-password-1';

let api: TestApp;
let team: TestTeam;
let dropTable: TestTool;
let admin: ConsoleBrowser;

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('drop', (args) => ({
    dropped: args['query'],
  }));
  api = await startTestApp(
    // Mixed case on purpose: emails are stored and matched lower-cased.
    {
      TOOLGATE_CONSOLE_ADMIN_EMAIL: 'First.Admin@example.com',
      TOOLGATE_CONSOLE_ADMIN_PASSWORD: ADMIN_PASSWORD,
    },
    { builtins },
  );
  team = await createTeam(api);
  dropTable = await createBuiltinTool(api, team, {
    handler: 'drop',
    behavior: {
      readonly: false,
      destructive: true,
      idempotent: false,
      requires_approval: 'always',
    },
  });
  admin = await signIn(api, ADMIN_EMAIL, ADMIN_PASSWORD);
});
afterAll(async () => {
  await api?.close();
});

async function requestDrop(table: string): Promise<{ callId: string; approvalId: string }> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: {
      provider: 'anthropic',
      payload: anthropicContent([
        { id: uniqueName('toolu'), name: dropTable.name, input: { query: table } },
      ]),
    },
  });
  expect(response.status, response.text).toBe(202);
  const callId = response.body.call_ids[0] as string;
  const approval = await api.database.prisma.approval.findUniqueOrThrow({ where: { callId } });
  return { callId, approvalId: approval.id };
}

describe('console sign-in', () => {
  it('creates the first admin from the environment and never overwrites it', async () => {
    const user = await api.database.prisma.consoleUser.findUniqueOrThrow({
      where: { email: ADMIN_EMAIL },
    });
    expect(user).toMatchObject({ role: 'admin', createdBy: 'system:bootstrap', disabledAt: null });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const created = await api.database.prisma.auditEvent.findFirst({
      where: { action: 'console_user.created', entityId: user.id },
    });
    expect(created?.actor).toBe('system:bootstrap');

    // A restart with another password in the environment leaves the stored user alone.
    const restarted = new ConsoleUsersService(
      api.app.get(ConsoleUsersRepository),
      loadConfig({
        TOOLGATE_CONSOLE_ADMIN_EMAIL: ADMIN_EMAIL,
        TOOLGATE_CONSOLE_ADMIN_PASSWORD: 'a-different-password',
      }),
    );
    await restarted.onApplicationBootstrap();
    const after = await api.database.prisma.consoleUser.findUniqueOrThrow({
      where: { email: ADMIN_EMAIL },
    });
    expect(after.passwordHash).toBe(user.passwordHash);
    expect(await api.database.prisma.consoleUser.count({ where: { email: ADMIN_EMAIL } })).toBe(1);
  });

  it('sets an httpOnly SameSite=Strict session cookie and answers with the user and CSRF token', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/console/session',
      key: null,
      body: { email: ' FIRST.ADMIN@example.com ', password: ADMIN_PASSWORD },
    });
    expect(response.status, response.text).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^toolgate_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    expect(response.body).toEqual({
      user: { id: expect.any(String), email: ADMIN_EMAIL, name: 'Administrator', role: 'admin' },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    // Only a digest of the token is stored.
    const token = sessionCookieOf(response).split('=')[1]!;
    const sessions = await api.database.prisma.consoleSession.findMany();
    expect(sessions.some((session) => session.tokenHash.includes(token))).toBe(false);

    const current = await api.request({
      url: '/v1/console/session',
      key: null,
      headers: { cookie: sessionCookieOf(response) },
    });
    expect(current.status, current.text).toBe(200);
    expect(current.body).toEqual(response.body);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const wrong = await api.request({
      method: 'POST',
      url: '/v1/console/session',
      key: null,
      body: { email: ADMIN_EMAIL, password: 'not-the-password' },
    });
    const unknown = await api.request({
      method: 'POST',
      url: '/v1/console/session',
      key: null,
      body: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(unknown.status).toBe(401);
    // The same answer but for the request's own correlation id.
    expect(unknown.body.request_id).not.toBe(wrong.body.request_id);
    expect({ ...unknown.body, request_id: null }).toEqual({ ...wrong.body, request_id: null });
  });

  it('refuses a disabled user with that same 401 and ends its sessions', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const user = await api.database.prisma.consoleUser.findUniqueOrThrow({
      where: { email: viewer.email },
    });
    const disabled = await admin.request({
      method: 'PATCH',
      url: `/v1/console/users/${user.id}`,
      body: { disabled: true },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ disabled: true, role: 'viewer' });
    expect((await viewer.request({ url: '/v1/tools' })).status).toBe(401);
    const again = await api.request({
      method: 'POST',
      url: '/v1/console/session',
      key: null,
      body: { email: viewer.email, password: CONSOLE_PASSWORD },
    });
    expect(again.status).toBe(401);
    expect(again.body.detail).toBe('The email or password is not correct.');
  });

  it('throttles repeated failures for one email with a 429 problem and Retry-After', async () => {
    const target = await createConsoleUser(api, 'viewer');
    for (let attempt = 0; attempt < MAX_FAILURES_PER_ACCOUNT; attempt += 1) {
      const response = await api.request({
        method: 'POST',
        url: '/v1/console/session',
        key: null,
        body: { email: target.email, password: `wrong-${attempt}` },
      });
      expect(response.status).toBe(401);
    }
    const throttled = await api.request({
      method: 'POST',
      url: '/v1/console/session',
      key: null,
      body: { email: target.email, password: CONSOLE_PASSWORD },
    });
    expect(throttled.status, throttled.text).toBe(429);
    expect(throttled.headers['content-type']).toContain('application/problem+json');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.body).toMatchObject({ status: 429, code: 'rate_limited' });
  });

  it('signs out: 204, the cookie is cleared and the session no longer works', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const forged = await viewer.request({
      method: 'DELETE',
      url: '/v1/console/session',
      csrf: false,
    });
    expect(forged.status).toBe(403);
    const out = await viewer.request({ method: 'DELETE', url: '/v1/console/session' });
    expect(out.status, out.text).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^toolgate_session=;.*Max-Age=0/);
    const current = await viewer.request({ url: '/v1/console/session' });
    expect(current.status).toBe(401);
    expect(current.headers['content-type']).toContain('application/problem+json');
    expect((await viewer.request({ url: '/v1/tools' })).status).toBe(401);
  });

  it('answers bad input with 400 problems', async () => {
    for (const body of [
      {},
      { email: 'not-an-email', password: 'x' },
      { email: ADMIN_EMAIL, password: '' },
      { email: ADMIN_EMAIL, password: 'x', extra: 1 },
    ]) {
      const response = await api.request({
        method: 'POST',
        url: '/v1/console/session',
        key: null,
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const badUser = await admin.request({
      method: 'POST',
      url: '/v1/console/users',
      body: { email: 'x@example.com', name: 'X', role: 'root', password: 'short' },
    });
    expect(badUser.status).toBe(400);
    expect(badUser.body.errors.map((issue: { path: string }) => issue.path).sort()).toEqual([
      '/body/password',
      '/body/role',
    ]);
    expect(
      (
        await admin.request({
          method: 'PATCH',
          url: '/v1/console/users/not-a-uuid',
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin.request({
          method: 'PATCH',
          url: `/v1/console/users/${crypto.randomUUID()}`,
          body: {},
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin.request({
          method: 'PATCH',
          url: `/v1/console/users/${crypto.randomUUID()}`,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('console session on the API', () => {
  it('refuses a cookie mutation without or with a wrong CSRF token, and changes nothing', async () => {
    const before = await api.database.prisma.consoleUser.count();
    const body = {
      email: `${uniqueName('csrf')}@example.com`,
      name: 'C',
      role: 'viewer',
      password: CONSOLE_PASSWORD,
    };
    const missing = await admin.request({
      method: 'POST',
      url: '/v1/console/users',
      body,
      csrf: false,
    });
    expect(missing.status, missing.text).toBe(403);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.body).toMatchObject({ code: 'forbidden', reason: 'csrf' });
    const wrong = await admin.request({
      method: 'POST',
      url: '/v1/console/users',
      body,
      csrf: 'A'.repeat(43),
    });
    expect(wrong.status).toBe(403);
    const { approvalId } = await requestDrop('csrf');
    const decision = await admin.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      body: { decision: 'approve' },
      csrf: false,
    });
    expect(decision.status).toBe(403);
    expect(await api.database.prisma.consoleUser.count()).toBe(before);
    const approval = await api.database.prisma.approval.findUniqueOrThrow({
      where: { id: approvalId },
    });
    expect(approval.status).toBe('pending');

    const ok = await admin.request({ method: 'POST', url: '/v1/console/users', body });
    expect(ok.status, ok.text).toBe(201);
  });

  it('lets a viewer read what the console shows but not decide an approval; an approver decides as user:<email>', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const approver = await createConsoleUser(api, 'approver');
    const { callId, approvalId } = await requestDrop('orders');

    for (const url of [
      '/v1/tools',
      '/v1/approvals?status=pending',
      '/v1/calls',
      `/v1/calls/${callId}`,
      '/v1/audit',
      '/v1/policies',
    ]) {
      const response = await viewer.request({ url });
      expect(response.status, `${url}: ${response.text}`).toBe(200);
    }
    const refused = await viewer.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      body: { decision: 'approve', reason: 'looks fine' },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'forbidden',
      required_scopes: ['approvals:decide'],
    });
    expect(
      (await viewer.request({ method: 'POST', url: '/v1/tools', body: { name: 'x' } })).status,
    ).toBe(403);

    const approved = await approver.request({
      method: 'POST',
      url: `/v1/approvals/${approvalId}/decision`,
      body: { decision: 'approve', reason: 'ticket OPS-1' },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      decided_by: `user:${approver.email}`,
    });
    const event = await api.database.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'approval.approved', entityId: approvalId },
    });
    expect(event.actor).toBe(`user:${approver.email}`);
    await waitForCallStatus(api, { key: team.key, id: callId, statuses: ['succeeded'] });
  });

  it('keeps user management for admins', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const approver = await createConsoleUser(api, 'approver');
    expect((await viewer.request({ url: '/v1/console/users' })).status).toBe(403);
    expect((await approver.request({ url: '/v1/console/users' })).status).toBe(403);
    // Other admin reads stay admin-only too: only what the console shows is opened to every role.
    expect((await viewer.request({ url: '/v1/api-keys' })).status).toBe(403);
    const body = {
      email: `${uniqueName('x')}@example.com`,
      name: 'X',
      role: 'admin',
      password: CONSOLE_PASSWORD,
    };
    expect(
      (await approver.request({ method: 'POST', url: '/v1/console/users', body })).status,
    ).toBe(403);

    const list = await admin.request({ url: '/v1/console/users' });
    expect(list.status).toBe(200);
    const approverRow = list.body.items.find(
      (user: { email: string }) => user.email === approver.email,
    );
    expect(approverRow).toMatchObject({ role: 'approver', disabled: false });
    expect(JSON.stringify(list.body)).not.toContain('argon2');

    const promoted = await admin.request({
      method: 'PATCH',
      url: `/v1/console/users/${approverRow.id}`,
      body: { role: 'admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    // The role applies to the live session at once.
    expect((await approver.request({ url: '/v1/console/users' })).status).toBe(200);
    const event = await api.database.prisma.auditEvent.findFirstOrThrow({
      where: { action: 'console_user.updated', entityId: approverRow.id },
    });
    expect(event.actor).toBe(`user:${ADMIN_EMAIL}`);
    expect(event.data).toMatchObject({ before: { role: 'approver' }, after: { role: 'admin' } });

    const duplicate = await admin.request({
      method: 'POST',
      url: '/v1/console/users',
      body: { ...body, email: viewer.email.toUpperCase() },
    });
    expect(duplicate.status).toBe(409);
  });

  it('refuses to leave no active admin', async () => {
    const admins = await api.database.prisma.consoleUser.findMany({
      where: { role: 'admin', disabledAt: null },
    });
    // Demote every admin but the first; the last demotion must fail.
    const first = admins.find((user) => user.email === ADMIN_EMAIL)!;
    for (const user of admins.filter((row) => row.id !== first.id)) {
      const response = await admin.request({
        method: 'PATCH',
        url: `/v1/console/users/${user.id}`,
        body: { role: 'viewer' },
      });
      expect(response.status, response.text).toBe(200);
    }
    const last = await admin.request({
      method: 'PATCH',
      url: `/v1/console/users/${first.id}`,
      body: { role: 'viewer' },
    });
    expect(last.status, last.text).toBe(409);
    const row = await api.database.prisma.consoleUser.findUniqueOrThrow({
      where: { id: first.id },
    });
    expect(row.role).toBe('admin');
  });

  it('lets an API key win over a cookie, unchanged', async () => {
    const viewer = await createConsoleUser(api, 'viewer');
    const response = await api.request({ url: '/v1/teams', headers: { cookie: viewer.cookie } });
    expect(response.status, response.text).toBe(200);
    const noKey = await api.request({
      url: '/v1/tools',
      key: null,
      headers: { cookie: 'toolgate_session=garbage' },
    });
    expect(noKey.status).toBe(401);
  });
});
