/**
 * The console's own route handlers that its pages call, described like the API's routes (with the
 * contract's `defineRoute`), so `apiRequest` types and checks them the same way.
 */
import { ConsoleSessionSchema, defineRoute } from '@toolgate/contract';
import { z } from 'zod';

/**
 * `GET /session` (app/session/route.ts): GET /v1/console/session asked server-side, with a
 * signed-out visitor answered `{session: null}` instead of a 401 the browser would log.
 */
export const currentSessionRoute = defineRoute({
  operationId: 'consoleCurrentSession',
  method: 'get',
  path: '/session',
  summary: 'The console session of the cookie, or null when signed out.',
  tags: ['console'],
  security: 'console_session',
  responses: {
    200: {
      description: 'The session, or null.',
      schema: z.object({ session: ConsoleSessionSchema.nullable() }),
    },
  },
  problems: ['unavailable'],
});
