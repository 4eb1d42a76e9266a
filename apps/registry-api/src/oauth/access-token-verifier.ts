import { Inject, Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { AccessTokenClaimsSchema, type AccessTokenClaims } from './oauth-grant';
import { discoverJwksUri } from './authorization-server-metadata';

// Asymmetric algorithms only: keys come from a JWKS, and a symmetric `alg` would let anyone who
// knows a public key sign with it.
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
// After an issuer's metadata could not be read, requests wait this long before it is asked again.
const DISCOVERY_RETRY_MS = 10_000;

/** Why an access token is refused; `issuer_unavailable` is the server's trouble, not the token's. */
export type AccessTokenRefusalReason =
  | 'malformed'
  | 'unknown_issuer'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_audience'
  | 'bad_signature'
  | 'invalid_claims'
  | 'issuer_unavailable';

/** A token this server will not take, with the reason (safe to show: it names no internals). */
export class AccessTokenRefusal extends Error {
  override readonly name = 'AccessTokenRefusal';
  constructor(
    readonly reason: AccessTokenRefusalReason,
    options?: { cause?: unknown },
  ) {
    super(`access token refused: ${reason}`, options);
  }
}

interface IssuerKeys {
  keys?: JWTVerifyGetKey;
  pending?: Promise<JWTVerifyGetKey>;
  failedAt?: number;
}

/**
 * Verifies JWT access tokens against the keys of the configured issuers: the issuer's `jwks_uri`
 * is discovered once from its metadata (or taken from TOOLGATE_OAUTH_JWKS_URL) and the key set is
 * cached by jose, which fetches it again when a token names a key it does not hold.
 */
@Injectable()
export class AccessTokenVerifier {
  private readonly logger = new Logger(AccessTokenVerifier.name);
  private readonly issuers: ReadonlySet<string>;
  private readonly byIssuer = new Map<string, IssuerKeys>();
  private readonly jwksUrl: string | undefined;
  private readonly clockToleranceSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.issuers = new Set(config.TOOLGATE_OAUTH_ISSUER);
    this.jwksUrl = config.TOOLGATE_OAUTH_JWKS_URL;
    this.clockToleranceSeconds = config.TOOLGATE_OAUTH_CLOCK_SKEW_SECONDS;
  }

  /** The token's claims once its signature, `iss`, `aud`, `exp` and `nbf` check out. */
  async verify(token: string, audience: string): Promise<AccessTokenClaims> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(token).iss;
    } catch (error) {
      throw new AccessTokenRefusal('malformed', { cause: error });
    }
    // Only configured issuers are asked for keys: a token cannot make this server fetch a URL.
    if (typeof issuer !== 'string' || !this.issuers.has(issuer)) {
      throw new AccessTokenRefusal('unknown_issuer');
    }
    const keys = await this.keysOf(issuer);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ALGORITHMS,
        clockTolerance: this.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      const claims = AccessTokenClaimsSchema.safeParse(payload);
      if (!claims.success) throw new AccessTokenRefusal('invalid_claims');
      return claims.data;
    } catch (error) {
      if (error instanceof AccessTokenRefusal) throw error;
      throw new AccessTokenRefusal(reasonOf(error), { cause: error });
    }
  }

  private async keysOf(issuer: string): Promise<JWTVerifyGetKey> {
    const entry = this.byIssuer.get(issuer) ?? {};
    this.byIssuer.set(issuer, entry);
    if (entry.keys !== undefined) return entry.keys;
    if (entry.failedAt !== undefined && Date.now() - entry.failedAt < DISCOVERY_RETRY_MS) {
      throw new AccessTokenRefusal('issuer_unavailable');
    }
    entry.pending ??= this.discover(issuer);
    try {
      entry.keys = await entry.pending;
      delete entry.failedAt;
      return entry.keys;
    } catch (error) {
      entry.failedAt = Date.now();
      this.logger.warn(`OAuth issuer ${issuer}: ${String(error)}`);
      throw new AccessTokenRefusal('issuer_unavailable', { cause: error });
    } finally {
      delete entry.pending;
    }
  }

  private async discover(issuer: string): Promise<JWTVerifyGetKey> {
    const jwksUri =
      this.jwksUrl === undefined ? await discoverJwksUri(issuer) : new URL(this.jwksUrl);
    return createRemoteJWKSet(jwksUri);
  }
}

function reasonOf(error: unknown): AccessTokenRefusalReason {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'wrong_audience';
    if (error.claim === 'iss') return 'unknown_issuer';
    if (error.claim === 'nbf') return 'not_yet_valid';
    return 'invalid_claims';
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return 'bad_signature';
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'malformed';
  // The key set could not be fetched or read (timeout, HTTP error, not JSON).
  return 'issuer_unavailable';
}
