import { expect } from 'vitest';
import type { ConsoleRole } from '../../src/console-auth/console-roles';
import type { InjectOptions, TestApp, TestResponse } from '../support/test-app';
import { uniqueName } from './registry.factory';

export const CONSOLE_PASSWORD = 'correct horse battery staple';

/** A signed-in console browser: its cookie and CSRF token, and requests sent with them. */
export interface ConsoleBrowser {
  email: string;
  cookie: string;
  csrf: string;
  /** Sends the session cookie (no API key); `csrf: false` leaves the CSRF header out. */
  request(options: InjectOptions & { csrf?: boolean | string }): Promise<TestResponse>;
}

/** The `name=value` of the session cookie in a Set-Cookie response header. */
export function sessionCookieOf(response: TestResponse): string {
  const header = response.headers['set-cookie'];
  const value = Array.isArray(header) ? header[0] : header;
  expect(typeof value, 'set-cookie').toBe('string');
  return String(value).split(';')[0]!;
}

export async function signIn(
  api: TestApp,
  email: string,
  password = CONSOLE_PASSWORD,
): Promise<ConsoleBrowser> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/console/session',
    key: null,
    body: { email, password },
  });
  expect(response.status, response.text).toBe(200);
  const cookie = sessionCookieOf(response);
  const csrf = response.body.csrf_token as string;
  return {
    email,
    cookie,
    csrf,
    request: (options) => {
      const { csrf: csrfOption = true, ...rest } = options;
      const headers: Record<string, string> = { ...rest.headers, cookie };
      if (csrfOption !== false) headers['x-csrf-token'] = csrfOption === true ? csrf : csrfOption;
      return api.request({ ...rest, key: null, headers });
    },
  };
}

/** Creates a console user with the installation admin key and signs it in. */
export async function createConsoleUser(api: TestApp, role: ConsoleRole): Promise<ConsoleBrowser> {
  const email = `${uniqueName(role)}@example.com`;
  const created = await api.request({
    method: 'POST',
    url: '/v1/console/users',
    body: { email, name: `A ${role}`, role, password: CONSOLE_PASSWORD },
  });
  expect(created.status, created.text).toBe(201);
  return signIn(api, email);
}
