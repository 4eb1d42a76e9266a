import { Injectable, type CanActivate, type ExecutionContext, Inject } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { consoleNeededScopes, isSafeMethod } from '../console-auth/console-access';
import { csrfMatches, CSRF_HEADER, readSessionCookie } from '../console-auth/console-session-token';
import { ConsoleSessionsService } from '../console-auth/console-sessions.service';
import { ToolException } from '../problem/tool.exception';
import { CredentialsService } from './credentials.service';
import { setPrincipal } from './current-principal.decorator';
import { hasScope, type Principal, type Scope } from './principal';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from './require-scopes.decorator';

/**
 * Authenticates every request (a bearer API key, else a console session cookie) and checks the
 * route's scopes. A cookie-authenticated change must also carry the session's CSRF token.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(CredentialsService) private readonly credentials: CredentialsService,
    @Inject(ConsoleSessionsService) private readonly sessions: ConsoleSessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, targets) === true)
      return true;
    const required = this.reflector.getAllAndOverride<Scope[] | undefined>(
      REQUIRED_SCOPES,
      targets,
    );
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const principal = await this.authenticate(request);
    setPrincipal(request, principal);
    // Secure by default: a route that forgot to declare its scopes needs admin.
    const declared: readonly Scope[] = required ?? ['admin'];
    const needed =
      principal.userId === undefined
        ? declared
        : consoleNeededScopes(declared, {
            method: request.method,
            controller: context.getClass(),
          });
    const missing = needed.filter((scope) => !hasScope(principal, scope));
    if (missing.length > 0) {
      throw new ToolException(
        'forbidden',
        principal.userId === undefined
          ? `This key lacks the scope ${missing.join(', ')}.`
          : `Your console role does not allow this (needs ${missing.join(', ')}).`,
        {
          extensions: { required_scopes: missing },
        },
      );
    }
    return true;
  }

  /** An Authorization header always wins, so API-key callers behave exactly as before cookies. */
  private async authenticate(request: FastifyRequest): Promise<Principal> {
    const token =
      request.headers.authorization === undefined
        ? readSessionCookie(request.headers.cookie)
        : null;
    if (token === null) return this.credentials.authenticate(request.headers.authorization);
    const session = await this.sessions.resolve(token);
    if (session === null) {
      throw new ToolException(
        'unauthenticated',
        'The console session has expired or was ended; sign in again.',
      );
    }
    if (!isSafeMethod(request.method) && !csrfMatches(token, request.headers[CSRF_HEADER])) {
      throw new ToolException(
        'forbidden',
        `Send the session's csrf_token in the ${CSRF_HEADER} header with every change.`,
        { extensions: { reason: 'csrf' } },
      );
    }
    return session.principal;
  }
}
