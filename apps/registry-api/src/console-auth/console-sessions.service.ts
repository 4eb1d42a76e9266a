import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConsoleSession, ConsoleSignInInput } from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import { verifyPassword } from './console-password';
import { consoleActor, scopesOfRole } from './console-roles';
import { csrfTokenOf, generateSessionToken, hashSessionToken } from './console-session-token';
import { ConsoleUsersRepository, type ConsoleSessionWithUser } from './console-users.repository';
import { consoleUserToDto } from './console-users.service';
import { LoginRateLimiter } from './login-rate-limiter';

/** A started session: the body for the browser and the token for its cookie. */
export interface StartedConsoleSession {
  body: ConsoleSession;
  token: string;
  expiresAt: Date;
}

/** A session found by its cookie: the caller as a Principal and the session's public body. */
export interface ResolvedConsoleSession {
  principal: Principal;
  body: ConsoleSession;
}

const BAD_CREDENTIALS = 'The email or password is not correct.';

@Injectable()
export class ConsoleSessionsService {
  private readonly logger = new Logger(ConsoleSessionsService.name);
  private readonly ttlMs: number;

  constructor(
    @Inject(ConsoleUsersRepository) private readonly users: ConsoleUsersRepository,
    @Inject(LoginRateLimiter) private readonly limiter: LoginRateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlMs = config.TOOLGATE_CONSOLE_SESSION_TTL_MINUTES * 60_000;
  }

  /**
   * Signs a user in. Unknown email, wrong password and disabled user get the same 401 after the
   * same argon2 work, so the answer does not tell which emails exist.
   */
  async signIn(body: ConsoleSignInInput, address: string): Promise<StartedConsoleSession> {
    const retryAfter = this.limiter.retryAfterSeconds(address, body.email);
    if (retryAfter > 0) {
      this.logger.warn(`console sign-in throttled for ${body.email} from ${address}`);
      throw new ToolException(
        'rate_limited',
        'Too many failed sign-ins; wait before trying again.',
        { headers: { 'retry-after': String(retryAfter) } },
      );
    }
    const user = await this.users.findByEmail(body.email);
    const matches = await verifyPassword(user?.passwordHash ?? null, body.password);
    if (user === null || !matches || user.disabledAt !== null) {
      this.limiter.recordFailure(address, body.email);
      // Failed sign-ins are logged, not audited: the audit trail records changes, not noise.
      this.logger.warn(
        `console sign-in failed for ${body.email} from ${address} (${user === null ? 'unknown email' : user.disabledAt !== null ? 'disabled user' : 'wrong password'})`,
      );
      throw new ToolException('unauthenticated', BAD_CREDENTIALS);
    }
    this.limiter.recordSuccess(address, body.email);
    const token = generateSessionToken();
    const expiresAt = new Date(Date.now() + this.ttlMs);
    await this.users.createSession({
      tokenHash: hashSessionToken(token),
      userId: user.id,
      expiresAt,
    });
    this.logger.log(`console user ${user.email} signed in from ${address}`);
    return {
      token,
      expiresAt,
      body: {
        user: consoleUserToDto(user),
        csrf_token: csrfTokenOf(token),
        expires_at: expiresAt.toISOString(),
      },
    };
  }

  /** The live session of a cookie token, or null (unknown, expired, or its user disabled). */
  async resolve(token: string): Promise<ResolvedConsoleSession | null> {
    const tokenHash = hashSessionToken(token);
    const session = await this.users.findSession(tokenHash);
    if (session === null) return null;
    if (session.expiresAt.getTime() <= Date.now()) {
      await this.users.deleteSession(tokenHash);
      return null;
    }
    if (session.user.disabledAt !== null) return null;
    return { principal: this.principalOf(session), body: this.bodyOf(session, token) };
  }

  async signOut(token: string): Promise<void> {
    await this.users.deleteSession(hashSessionToken(token));
  }

  private principalOf(session: ConsoleSessionWithUser): Principal {
    return {
      actor: consoleActor(session.user.email),
      // Console users work across every team, like the installation admin key.
      teamId: null,
      keyId: null,
      userId: session.user.id,
      scopes: scopesOfRole(session.user.role),
    };
  }

  private bodyOf(session: ConsoleSessionWithUser, token: string): ConsoleSession {
    return {
      user: consoleUserToDto(session.user),
      csrf_token: csrfTokenOf(token),
      expires_at: session.expiresAt.toISOString(),
    };
  }
}
