import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { readBearerToken } from '../auth/bearer-token';
import { CredentialsService } from '../auth/credentials.service';
import type { Principal, Scope } from '../auth/principal';
import { AccessTokenRefusal, AccessTokenVerifier } from '../oauth/access-token-verifier';
import { bearerChallenge } from '../oauth/bearer-challenge';
import { grantOf, oauthScopesGranting } from '../oauth/oauth-grant';
import {
  OAuthResourceService,
  requestTargetOf,
  type OAuthResourceSettings,
} from '../oauth/oauth-resource.service';
import { ToolException } from '../problem/tool.exception';
import { TeamsRepository } from '../teams/teams.repository';

const REFUSAL_MESSAGES: Record<
  Exclude<AccessTokenRefusal['reason'], 'issuer_unavailable'>,
  string
> = {
  malformed: 'The access token is not a JWT this server can read.',
  unknown_issuer:
    'The access token was issued by an authorization server this server does not trust.',
  expired: 'The access token has expired; get a new one.',
  not_yet_valid: 'The access token is not valid yet.',
  wrong_audience: 'The access token was not issued for this resource (its aud names another).',
  bad_signature: "The access token's signature does not verify against its issuer's keys.",
  invalid_claims: 'The access token lacks a claim this server needs.',
};

/**
 * Who a request to /mcp is for: a Toolgate API key as on every route, or, when OAuth is on, an
 * access token of a trusted issuer for this resource, mapped to a team and scopes by the scope
 * map. Every refusal carries the Bearer challenge that points an MCP client at the metadata.
 */
@Injectable()
export class McpCredentialsService {
  private readonly teamsSeen = new Map<string, number>();
  private readonly teamCacheMs: number;

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(CredentialsService) private readonly credentials: CredentialsService,
    @Inject(OAuthResourceService) private readonly resource: OAuthResourceService,
    @Inject(AccessTokenVerifier) private readonly verifier: AccessTokenVerifier,
    @Inject(TeamsRepository) private readonly teams: TeamsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.teamCacheMs = config.AUTH_CACHE_TTL_MS;
  }

  async authenticate(request: FastifyRequest): Promise<Principal> {
    const { settings } = this.resource;
    if (settings === undefined) return this.credentials.authenticate(request.headers.authorization);
    const resourceMetadata = this.resource.metadataUrlOf(requestTargetOf(request));
    const token = readBearerToken(request.headers.authorization, {
      'www-authenticate': bearerChallenge({ resourceMetadata }),
    });
    const invalidToken = bearerChallenge({ error: 'invalid_token', resourceMetadata });
    if (this.credentials.looksLikeApiKey(token)) {
      try {
        return await this.credentials.authenticateToken(token);
      } catch (error) {
        if (error instanceof ToolException && error.code === 'unauthenticated') {
          throw new ToolException('unauthenticated', error.message, {
            headers: { 'www-authenticate': invalidToken },
          });
        }
        throw error;
      }
    }
    return this.fromAccessToken(request, { token, settings, invalidToken });
  }

  /** The 403 for scopes the caller lacks, naming what to ask for (RFC 6750 §3.1). */
  insufficientScope(
    request: FastifyRequest,
    principal: Principal,
    missing: readonly Scope[],
  ): ToolException {
    const { settings } = this.resource;
    const resourceMetadata = this.resource.metadataUrlOf(requestTargetOf(request));
    // An OAuth client asks its authorization server for OAuth scopes, a key holder for Toolgate ones.
    const scope =
      principal.oauth !== undefined && settings !== undefined
        ? oauthScopesGranting(settings.scopeMap, missing)
        : missing;
    const subject = principal.oauth === undefined ? 'This key lacks' : 'This access token lacks';
    return new ToolException('forbidden', `${subject} the scope ${missing.join(', ')}.`, {
      extensions: { required_scopes: [...missing] },
      headers: {
        'www-authenticate': bearerChallenge({
          error: 'insufficient_scope',
          scope,
          resourceMetadata,
        }),
      },
    });
  }

  private async fromAccessToken(
    request: FastifyRequest,
    input: { token: string; settings: OAuthResourceSettings; invalidToken: string },
  ): Promise<Principal> {
    const refuse = (message: string) =>
      new ToolException('unauthenticated', message, {
        headers: { 'www-authenticate': input.invalidToken },
      });
    let claims;
    try {
      claims = await this.verifier.verify(
        input.token,
        this.resource.audienceOf(requestTargetOf(request)),
      );
    } catch (error) {
      if (!(error instanceof AccessTokenRefusal)) throw error;
      if (error.reason === 'issuer_unavailable') {
        throw new ToolException(
          'unavailable',
          "The authorization server's keys could not be read; retry later.",
        );
      }
      throw refuse(REFUSAL_MESSAGES[error.reason]);
    }
    const granted = grantOf(claims, input.settings.scopeMap);
    if (!granted.ok) {
      if (granted.refusal === 'no_subject') throw refuse(REFUSAL_MESSAGES.invalid_claims);
      throw new ToolException('forbidden', 'The access token names no team of this server.');
    }
    const { grant } = granted;
    if (!(await this.teamExists(grant.teamId))) {
      throw new ToolException('forbidden', 'The access token names no team of this server.');
    }
    return {
      actor: `oauth:${grant.issuer}#${grant.subject}`,
      teamId: grant.teamId,
      keyId: null,
      scopes: grant.scopes,
      oauth: {
        issuer: grant.issuer,
        subject: grant.subject,
        clientId: grant.clientId,
        scopes: grant.oauthScopes,
      },
    };
  }

  private async teamExists(teamId: string): Promise<boolean> {
    const seenUntil = this.teamsSeen.get(teamId);
    if (seenUntil !== undefined && seenUntil > Date.now()) return true;
    const team = await this.teams.findById(teamId);
    if (team === null) return false;
    if (this.teamCacheMs > 0) {
      // Bounded like the key cache: team ids come from tokens, which a caller chooses.
      if (this.teamsSeen.size >= 10_000) this.teamsSeen.clear();
      this.teamsSeen.set(teamId, Date.now() + this.teamCacheMs);
    }
    return true;
  }
}
