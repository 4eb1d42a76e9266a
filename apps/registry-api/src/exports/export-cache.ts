import { Inject, Injectable } from '@nestjs/common';
import { AuditRepository } from '../audit/audit.repository';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';

const MAX_ENTRIES = 2_000;

/**
 * Resolved exports in memory, so the read path is a map lookup. Every change to tools,
 * versions or releases appends an audit event, so the audit chain's head sequence is the
 * registry's revision: a change on this replica clears the cache at once, a change on another
 * is noticed within EXPORT_CACHE_REVALIDATE_MS.
 */
@Injectable()
export class ExportCache {
  private readonly entries = new Map<string, unknown>();
  private revision: bigint | null = null;
  private checkedAt = 0;
  private pendingCheck: Promise<void> | null = null;
  private readonly revalidateMs: number;
  private readonly invalidationListeners = new Set<() => void>();

  constructor(
    @Inject(AuditRepository) private readonly audit: AuditRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.revalidateMs = config.EXPORT_CACHE_REVALIDATE_MS;
  }

  /** Told after a change to tools, versions or releases committed on this replica. */
  invalidate(): void {
    this.entries.clear();
    // Force the next read to fetch the new revision, so entries are never keyed by a stale one.
    this.checkedAt = 0;
    for (const listener of this.invalidationListeners) listener();
  }

  /** Every committed catalog change on this replica passes through `invalidate`, so others hook in here. */
  onInvalidate(listener: () => void): () => void {
    this.invalidationListeners.add(listener);
    return () => this.invalidationListeners.delete(listener);
  }

  /** Clears the cache when the database moved on since the last check. */
  async revalidate(): Promise<void> {
    if (Date.now() - this.checkedAt < this.revalidateMs && this.revision !== null) return;
    // One query at a time, however many requests arrive together.
    this.pendingCheck ??= this.audit
      .head()
      .then((head) => {
        if (head.seq !== this.revision) this.entries.clear();
        this.revision = head.seq;
        this.checkedAt = Date.now();
      })
      .finally(() => {
        this.pendingCheck = null;
      });
    await this.pendingCheck;
  }

  get<TValue>(key: string): TValue | undefined {
    return this.entries.get(key) as TValue | undefined;
  }

  set(key: string, value: unknown): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}
