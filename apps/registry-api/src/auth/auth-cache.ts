import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import type { Principal } from './principal';

const MAX_ENTRIES = 10_000;

/**
 * Verified keys for a few seconds (AUTH_CACHE_TTL_MS), keyed by the digest of the whole token,
 * so the read path does not query the database on every request. Revoking on this replica
 * evicts at once; other replicas notice within the TTL.
 */
@Injectable()
export class AuthCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly ttlMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ttlMs = config.AUTH_CACHE_TTL_MS;
  }

  get(digest: string): Principal | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(digest);
      return undefined;
    }
    return entry.principal;
  }

  set(digest: string, principal: Principal): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(digest, { principal, expiresAt: Date.now() + this.ttlMs });
  }

  evictKey(keyId: string): void {
    for (const [digest, entry] of this.entries) {
      if (entry.principal.keyId === keyId) this.entries.delete(digest);
    }
  }
}
