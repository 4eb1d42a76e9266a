import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearedSessionCookie,
  csrfMatches,
  csrfTokenOf,
  generateSessionToken,
  hashSessionToken,
  readSessionCookie,
  sessionCookie,
} from './console-session-token';

describe('console session tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads back the token it set, with the cookie attributes the console relies on', () => {
    // Max-Age counts whole seconds from now: the clock stands still, or a millisecond passing
    // between the two readings of it would make the hour 3599 seconds.
    vi.useFakeTimers({ now: new Date('2026-11-30T12:00:00.000Z'), toFake: ['Date'] });
    const token = generateSessionToken();
    const expiresAt = new Date(Date.now() + 3_600_000);
    const cookie = sessionCookie(token, { secure: true, expiresAt });
    expect(cookie).toMatch(new RegExp(`^toolgate_session=${token};`));
    for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/', 'Secure', 'Max-Age=3600'])
      expect(cookie).toContain(attribute);
    expect(sessionCookie(token, { secure: false, expiresAt })).not.toContain('Secure');
    expect(readSessionCookie(`theme=dark; ${cookie.split(';')[0]!}; other=1`)).toBe(token);
    expect(clearedSessionCookie(false)).toMatch(/^toolgate_session=;.*Max-Age=0/);
  });

  it.each([undefined, '', 'toolgate_session=', 'toolgate_session=short', 'other=abc'])(
    'finds no session in %j',
    (header) => {
      expect(readSessionCookie(header)).toBeNull();
    },
  );

  it('derives a CSRF token that only the session holder can present', () => {
    const token = generateSessionToken();
    const other = generateSessionToken();
    expect(csrfMatches(token, csrfTokenOf(token))).toBe(true);
    expect(csrfMatches(token, csrfTokenOf(other))).toBe(false);
    expect(csrfMatches(token, undefined)).toBe(false);
    expect(csrfMatches(token, [csrfTokenOf(token)])).toBe(false);
    expect(csrfMatches(token, 'short')).toBe(false);
    expect(hashSessionToken(token)).not.toContain(token);
    expect(csrfTokenOf(token)).not.toBe(token);
  });
});
