import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';

/** The console's session cookie; the console proxies /v1, so it belongs to the console origin. */
export const SESSION_COOKIE = 'toolgate_session';
/** The header every cookie-authenticated mutation must carry (double submit, bound to the session). */
export const CSRF_HEADER = 'x-csrf-token';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** 256 random bits: the whole credential, shown to the browser only in Set-Cookie. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session's key in the database: a leaked table does not hand out live sessions. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The CSRF token of a session, derived from its secret token: another site can neither read the
 * cookie nor this value, so a forged request cannot carry it. Nothing extra is stored.
 */
export function csrfTokenOf(token: string): string {
  return createHash('sha256').update(`toolgate-csrf:${token}`, 'utf8').digest('base64url');
}

/** Compares a presented CSRF header with the session's token in constant time. */
export function csrfMatches(token: string, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(token));
  const actual = Buffer.from(presented);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The well-formed session token in a Cookie header, if any. */
export function readSessionCookie(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = parseCookies(header)[SESSION_COOKIE];
  return value !== undefined && TOKEN_PATTERN.test(value) ? value : null;
}

export interface SessionCookieOptions {
  secure: boolean;
  expiresAt: Date;
}

/** `Set-Cookie` that starts a session: HttpOnly, SameSite=Strict, whole-origin path. */
export function sessionCookie(token: string, options: SessionCookieOptions): string {
  return serializeCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: options.secure,
    expires: options.expiresAt,
    maxAge: Math.max(0, Math.floor((options.expiresAt.getTime() - Date.now()) / 1000)),
  });
}

/** `Set-Cookie` that ends a session in the browser. */
export function clearedSessionCookie(secure: boolean): string {
  return serializeCookie(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure,
    expires: new Date(0),
    maxAge: 0,
  });
}
