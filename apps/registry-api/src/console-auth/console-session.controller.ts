import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PublicRoute } from '../auth/require-scopes.decorator';
import { ZodValidationPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException, ToolExceptionCode } from '../problem/tool.exception';
import { SignInSchema, type ConsoleSessionDto, type SignInDto } from './console-auth.dto';
import {
  clearedSessionCookie,
  csrfMatches,
  CSRF_HEADER,
  readSessionCookie,
  sessionCookie,
} from './console-session-token';
import { ConsoleSessionsService } from './console-sessions.service';

// Session routes authenticate by the cookie themselves: sign-in has none yet, and signing out
// must clear the cookie even when its session is already gone.
@ApiTags('console')
@Controller('console/session')
@PublicRoute()
export class ConsoleSessionController {
  private readonly secureCookie: boolean;

  constructor(
    @Inject(ConsoleSessionsService) private readonly sessions: ConsoleSessionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secureCookie = config.TOOLGATE_COOKIE_SECURE;
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign a console user in; sets the httpOnly session cookie.' })
  @ApiBody({ schema: z.toJSONSchema(SignInSchema, { io: 'input' }) as object })
  async signIn(
    @Req() request: FastifyRequest,
    @Body(new ZodValidationPipe(SignInSchema)) body: SignInDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionDto> {
    const started = await this.sessions.signIn(body, request.ip);
    void reply.header(
      'set-cookie',
      sessionCookie(started.token, { secure: this.secureCookie, expiresAt: started.expiresAt }),
    );
    void reply.header('cache-control', 'no-store');
    return started.body;
  }

  @Get()
  @ApiOperation({ summary: 'The signed-in console user and the CSRF token, or 401.' })
  async current(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionDto> {
    const token = readSessionCookie(request.headers.cookie);
    const session = token === null ? null : await this.sessions.resolve(token);
    if (session === null) {
      throw new ToolException(ToolExceptionCode.Unauthenticated, 'No console session; sign in.');
    }
    void reply.header('cache-control', 'no-store');
    return session.body;
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({ summary: 'Sign out: ends the session and clears the cookie.' })
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const token = readSessionCookie(request.headers.cookie);
    if (token !== null && (await this.sessions.resolve(token)) !== null) {
      // A live session is only ended by its own page: another site cannot sign a user out.
      if (!csrfMatches(token, request.headers[CSRF_HEADER])) {
        throw new ToolException(
          ToolExceptionCode.Forbidden,
          `Send the session's csrf_token in the ${CSRF_HEADER} header.`,
          { extensions: { reason: 'csrf' } },
        );
      }
      await this.sessions.signOut(token);
    }
    void reply.header('set-cookie', clearedSessionCookie(this.secureCookie));
  }
}
