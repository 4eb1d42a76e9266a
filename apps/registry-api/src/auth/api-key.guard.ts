import { Injectable, type CanActivate, type ExecutionContext, Inject } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';
import { CredentialsService } from './credentials.service';
import { setPrincipal } from './current-principal.decorator';
import { hasScope, type Scope } from './principal';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from './require-scopes.decorator';

/** Authenticates the bearer key of every request and checks the route's scopes. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(CredentialsService) private readonly credentials: CredentialsService,
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
    const principal = await this.credentials.authenticate(request.headers.authorization);
    setPrincipal(request, principal);
    // Secure by default: a route that forgot to declare its scopes needs admin.
    const needed: readonly Scope[] = required ?? ['admin'];
    const missing = needed.filter((scope) => !hasScope(principal, scope));
    if (missing.length > 0) {
      throw new ToolException(
        ToolExceptionCode.Forbidden,
        `This key lacks the scope ${missing.join(', ')}.`,
        {
          extensions: { required_scopes: missing },
        },
      );
    }
    return true;
  }
}
