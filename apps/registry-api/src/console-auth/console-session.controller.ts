import { Controller, Inject, Req, Res } from '@nestjs/common';
import { routes, type ConsoleSession, type RouteInput } from '@toolgate/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicRoute } from '../auth/require-scopes.decorator';
import type { AppConfig } from '../config/app-config';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import {
  clearedSessionCookie,
  csrfMatches,
  CSRF_HEADER,
  readSessionCookie,
  sessionCookie,
} from './console-session-token';
import { ConsoleSessionsService } from './console-sessions.service';

// Session routes authenticate by the cookie themselves: sign-in has none yet, and signing out
// must clear the cookie even when its session is already gone. Endpoint marks only `public` routes
// so; without this the guard would ask the scope-less console_session routes for an admin key.
@Controller()
@PublicRoute()
export class ConsoleSessionController {
  private readonly secureCookie: boolean;

  constructor(
    @Inject(ConsoleSessionsService) private readonly sessions: ConsoleSessionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secureCookie = config.TOOLGATE_COOKIE_SECURE;
  }

  @Endpoint(routes.createConsoleSession)
  async signIn(
    @Req() request: FastifyRequest,
    @Input() input: RouteInput<typeof routes.createConsoleSession>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    const started = await this.sessions.signIn(input.body, request.ip);
    void reply.header(
      'set-cookie',
      sessionCookie(started.token, { secure: this.secureCookie, expiresAt: started.expiresAt }),
    );
    void reply.header('cache-control', 'no-store');
    return started.body;
  }

  @Endpoint(routes.getConsoleSession)
  async current(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSession> {
    const token = readSessionCookie(request.headers.cookie);
    const session = token === null ? null : await this.sessions.resolve(token);
    if (session === null) {
      throw new ToolException('unauthenticated', 'No console session; sign in.');
    }
    void reply.header('cache-control', 'no-store');
    return session.body;
  }

  @Endpoint(routes.deleteConsoleSession)
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const token = readSessionCookie(request.headers.cookie);
    if (token !== null && (await this.sessions.resolve(token)) !== null) {
      // A live session is only ended by its own page: another site cannot sign a user out.
      if (!csrfMatches(token, request.headers[CSRF_HEADER])) {
        throw new ToolException(
          'forbidden',
          `Send the session's csrf_token in the ${CSRF_HEADER} header.`,
          { extensions: { reason: 'csrf' } },
        );
      }
      await this.sessions.signOut(token);
    }
    void reply.header('set-cookie', clearedSessionCookie(this.secureCookie));
  }
}
