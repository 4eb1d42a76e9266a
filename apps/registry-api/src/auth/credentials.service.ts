import { Inject, Injectable } from '@nestjs/common';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import { API_KEY_PREFIX, digestsEqual, hashSecret, parseApiKey } from './api-key-secret';
import { AuthCache } from './auth-cache';
import { readBearerToken } from './bearer-token';
import { describeCallerOnRequestSpan } from '../telemetry/caller-span-attributes';
import { SCOPES, ScopeSchema, type Principal, type Scope } from './principal';

// A digest compared when no key row exists, so unknown ids cost the same time as wrong secrets.
const DECOY_DIGEST = hashSecret('toolgate-decoy');
const LAST_USED_RESOLUTION_MS = 60_000;

/** Turns an Authorization header into a Principal, or refuses with 401. */
@Injectable()
export class CredentialsService {
  private readonly adminDigest: string | null;

  constructor(
    @Inject(ApiKeysRepository) private readonly keys: ApiKeysRepository,
    @Inject(AuthCache) private readonly cache: AuthCache,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.adminDigest =
      config.TOOLGATE_ADMIN_KEY === undefined ? null : hashSecret(config.TOOLGATE_ADMIN_KEY);
  }

  async authenticate(header: string | undefined): Promise<Principal> {
    return this.authenticateToken(readBearerToken(header));
  }

  /** Whether a bearer token is meant as one of this server's keys: the bootstrap key or `tg_...`. */
  looksLikeApiKey(token: string): boolean {
    if (token.startsWith(API_KEY_PREFIX)) return true;
    return this.adminDigest !== null && digestsEqual(hashSecret(token), this.adminDigest);
  }

  /** The principal of a bearer token that should be an API key, or a 401. */
  async authenticateToken(token: string): Promise<Principal> {
    const presented = hashSecret(token);
    if (this.adminDigest !== null && digestsEqual(presented, this.adminDigest)) {
      return { actor: 'admin', teamId: null, keyId: null, scopes: new Set(SCOPES) };
    }
    const cached = this.cache.get(presented);
    if (cached) return describeCallerOnRequestSpan(cached);
    const parsed = parseApiKey(token);
    const row = parsed ? await this.keys.findForAuthentication(parsed.id) : null;
    const matches = digestsEqual(
      parsed ? hashSecret(parsed.secret) : DECOY_DIGEST,
      row?.secretHash ?? DECOY_DIGEST,
    );
    if (!parsed || !row || !matches) {
      throw new ToolException('unauthenticated', 'The API key is not valid.');
    }
    if (row.revokedAt !== null) {
      throw new ToolException('unauthenticated', 'The API key was revoked.');
    }
    const principal: Principal = {
      actor: `key:${row.id}`,
      teamId: row.teamId,
      keyId: row.id,
      keyName: row.name,
      teamName: row.team.name,
      scopes: new Set(
        row.scopes.flatMap((scope): Scope[] => {
          const known = ScopeSchema.safeParse(scope);
          return known.success ? [known.data] : [];
        }),
      ),
    };
    this.cache.set(presented, principal);
    const now = new Date();
    if (
      row.lastUsedAt === null ||
      now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS
    ) {
      // Best effort: a failed bookkeeping write must not fail the request it describes.
      this.keys.touch(row.id, now).catch(() => undefined);
    }
    return describeCallerOnRequestSpan(principal);
  }
}
