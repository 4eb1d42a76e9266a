import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  ConsoleSessionSchema,
  ConsoleSignInSchema,
  ConsoleUserDetailSchema,
  ConsoleUserIdSchema,
  ConsoleUserListSchema,
  CreateConsoleUserSchema,
  UpdateConsoleUserSchema,
} from './console.schemas';

const tags = ['console'] as const;

const noStore = {
  'cache-control': {
    description: '`no-store`: the body carries the CSRF token.',
    schema: z.literal('no-store'),
  },
} as const;

export const consoleRoutes = {
  createConsoleSession: defineRoute({
    operationId: 'createConsoleSession',
    method: 'post',
    path: '/v1/console/session',
    summary: 'Sign a console user in; sets the httpOnly session cookie.',
    description:
      'A wrong password, an unknown email and a disabled user get the same 401 (`unauthenticated`). Repeated failures for one email or from one address are throttled with a 429 (`rate_limited`) and `Retry-After`.',
    tags,
    security: 'public',
    body: ConsoleSignInSchema,
    bodyExamples: { admin: { email: 'ada@example.com', password: 'correct horse battery staple' } },
    responses: {
      200: {
        description: 'Signed in: the user, the CSRF token of the session and when it expires.',
        schema: ConsoleSessionSchema,
        headers: {
          'set-cookie': {
            description:
              'The session cookie: `toolgate_session=<token>; Max-Age=<seconds>; Path=/; Expires=<date>; HttpOnly; SameSite=Strict`, with `Secure` when TOOLGATE_COOKIE_SECURE is set.',
            schema: z.string(),
          },
          ...noStore,
        },
      },
    },
    // A public route lists every code it answers: the common ones are not implied.
    problems: [
      'invalid_request',
      'unauthenticated',
      'rate_limited',
      'payload_too_large',
      'unsupported_media_type',
      'unavailable',
    ],
  }),
  getConsoleSession: defineRoute({
    operationId: 'getConsoleSession',
    method: 'get',
    path: '/v1/console/session',
    summary: 'The signed-in console user and the CSRF token, or 401.',
    description:
      'Reads the `toolgate_session` cookie only; an Authorization header is ignored here.',
    tags,
    security: 'console_session',
    responses: {
      200: { description: 'The live session.', schema: ConsoleSessionSchema, headers: noStore },
    },
    problems: [],
  }),
  deleteConsoleSession: defineRoute({
    operationId: 'deleteConsoleSession',
    method: 'delete',
    path: '/v1/console/session',
    summary: 'Sign out: ends the session and clears the cookie.',
    description:
      'A live session is ended only with its `x-csrf-token` (else 403 `forbidden`, reason `csrf`). Without a cookie, or with one whose session is already gone, the answer is still 204 and clears the cookie.',
    tags,
    security: 'console_session',
    responses: {
      204: {
        description: 'Signed out.',
        headers: {
          'set-cookie': {
            description:
              'Clears the cookie: `toolgate_session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict`.',
            schema: z.string(),
          },
        },
      },
    },
    problems: [],
  }),
  listConsoleUsers: defineRoute({
    operationId: 'listConsoleUsers',
    method: 'get',
    path: '/v1/console/users',
    summary: 'Every console user (admin only).',
    description: 'For an admin API key, or the session of a console user with the `admin` role.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    responses: { 200: { description: 'Every user, by email.', schema: ConsoleUserListSchema } },
    problems: [],
  }),
  createConsoleUser: defineRoute({
    operationId: 'createConsoleUser',
    method: 'post',
    path: '/v1/console/users',
    summary: 'Create a console user with a role (admin only); audited.',
    description:
      'For an admin API key, or the session of a console user with the `admin` role. The email is stored lower-cased; a taken one is a 409.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    body: CreateConsoleUserSchema,
    bodyExamples: {
      approver: {
        email: 'grace@example.com',
        name: 'Grace Hopper',
        role: 'approver',
        password: 'a long passphrase of words',
      },
    },
    responses: { 201: { description: 'The new user.', schema: ConsoleUserDetailSchema } },
    problems: ['conflict'],
  }),
  updateConsoleUser: defineRoute({
    operationId: 'updateConsoleUser',
    method: 'patch',
    path: '/v1/console/users/{userId}',
    summary: "Change a console user's role or disable it (admin only); audited.",
    description:
      'For an admin API key, or the session of a console user with the `admin` role. A change that would leave no active admin is refused with a 409.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: z.strictObject({ userId: ConsoleUserIdSchema }),
    body: UpdateConsoleUserSchema,
    bodyExamples: { promote: { role: 'admin' }, disable: { disabled: true } },
    responses: { 200: { description: 'The user as changed.', schema: ConsoleUserDetailSchema } },
    problems: ['not_found', 'conflict'],
  }),
};
