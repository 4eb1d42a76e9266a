import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AuditRepository } from '../audit/audit.repository';
import type { StoredAuditEvent } from '../audit/audit-hash';
import { ExportCache } from '../exports/export-cache';
import { MCP_OPTIONS, type McpOptions } from '../mcp/mcp-options';
import { ToolsRepository } from '../tools/tools.repository';
import { CatalogSignalRepository } from './catalog-signal.repository';

/** Audit actions after which a caller's resolved catalog may differ. */
export const CATALOG_CHANGE_ACTIONS: ReadonlySet<string> = new Set([
  'tool.created',
  'tool_version.published',
  'tool_version.deprecated',
  'release.stable_set',
  'release.canary_set',
  'release.promoted',
  'release.rolled_back',
  'release.canary_auto_rollback',
]);

const BATCH_SIZE = 200;

/** One committed change to a tool's versions or release. */
export interface CatalogChange {
  seq: bigint;
  action: string;
  toolId: string;
  /** The team owning the tool; a change to it concerns that team, admins and, if public, everyone. */
  teamId: string | null;
  visibility: 'private' | 'public' | 'unknown';
}

export type CatalogListener = (change: CatalogChange) => void;

/**
 * "The catalog changed" for listeners on this replica (MCP sessions). Every catalog change appends
 * an audit event in its own transaction, so the chain is the feed: it holds only committed changes,
 * in commit order, from every replica and every code path. While anyone listens the chain is read
 * every `catalogPollMs` (MCP_CATALOG_POLL_MS), and at once when the catalog changes here (`announce`, hooked to the export cache's invalidation) or a
 * Postgres NOTIFY says it changed on another replica.
 */
@Injectable()
export class CatalogEventsService implements OnModuleDestroy {
  private readonly logger = new Logger(CatalogEventsService.name);
  private readonly listeners = new Set<CatalogListener>();
  private cursor: bigint | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  // Start and stop run one after the other, however subscriptions come and go.
  private lifecycle: Promise<void> = Promise.resolve();
  private scanning: Promise<void> | null = null;
  private scanAgain = false;

  // eslint-disable-next-line max-params -- Nest injects each dependency through its own constructor parameter
  constructor(
    @Inject(AuditRepository) private readonly audit: AuditRepository,
    @Inject(ToolsRepository) private readonly tools: ToolsRepository,
    @Inject(CatalogSignalRepository) private readonly signals: CatalogSignalRepository,
    @Inject(MCP_OPTIONS) private readonly options: Pick<McpOptions, 'catalogPollMs'>,
    @Inject(ExportCache) cache: ExportCache,
  ) {
    // Every catalog change committed here clears the export cache; that is the moment to announce it.
    cache.onInvalidate(() => this.announce());
  }

  /** Listens from now on; resolves once changes after this moment will be delivered. */
  async subscribe(listener: CatalogListener): Promise<() => void> {
    this.listeners.add(listener);
    try {
      await this.runLifecycle(() => this.start());
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.runLifecycle(() => this.stop());
    };
  }

  /** Called after a catalog change committed on this replica: wakes listeners here and elsewhere. */
  announce(): void {
    if (this.cursor !== null) this.requestScan();
    this.signals.signal().catch((error: unknown) => {
      this.logger.warn(`catalog NOTIFY failed: ${String(error)}`);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.listeners.clear();
    await this.runLifecycle(() => this.stop());
    await this.scanning;
  }

  private runLifecycle(step: () => Promise<void>): Promise<void> {
    const next = this.lifecycle.then(step);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private async start(): Promise<void> {
    if (this.cursor !== null || this.listeners.size === 0) return;
    this.cursor = (await this.audit.head()).seq;
    try {
      this.stopListening = await this.signals.listen(() => this.requestScan());
    } catch (error) {
      this.logger.warn(`catalog LISTEN failed, polling only: ${String(error)}`);
    }
    this.timer = setInterval(() => this.requestScan(), this.options.catalogPollMs);
    this.timer.unref();
  }

  private async stop(): Promise<void> {
    if (this.listeners.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.cursor = null;
    const stopListening = this.stopListening;
    this.stopListening = undefined;
    await stopListening?.();
  }

  /** One scan at a time; a request during a scan runs one more after it. */
  private requestScan(): void {
    if (this.scanning !== null) {
      this.scanAgain = true;
      return;
    }
    this.scanning = this.scan()
      .catch((error: unknown) => {
        this.logger.warn(`reading catalog changes failed: ${String(error)}`);
      })
      .finally(() => {
        this.scanning = null;
        if (this.scanAgain) {
          this.scanAgain = false;
          this.requestScan();
        }
      });
  }

  private async scan(): Promise<void> {
    for (;;) {
      if (this.cursor === null) return;
      const batch = await this.audit.batchAfter(this.cursor, BATCH_SIZE);
      for (const event of batch) {
        if (this.cursor === null) return;
        this.cursor = event.seq;
        if (CATALOG_CHANGE_ACTIONS.has(event.action) && event.entityType === 'tool') {
          this.emit(await this.changeOf(event));
        }
      }
      if (batch.length < BATCH_SIZE) return;
    }
  }

  private async changeOf(event: StoredAuditEvent): Promise<CatalogChange> {
    const tool = await this.tools.findVisible(event.entityId, { teamId: null });
    return {
      seq: event.seq,
      action: event.action,
      toolId: event.entityId,
      teamId: tool?.teamId ?? event.teamId,
      visibility: tool?.visibility ?? 'unknown',
    };
  }

  private emit(change: CatalogChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.logger.warn(`a catalog listener failed: ${String(error)}`);
      }
    }
  }
}

/** Whether a change can alter what `teamId`'s keys see (null: the installation admin, sees all). */
export function concernsTeam(change: CatalogChange, teamId: string | null): boolean {
  return (
    teamId === null ||
    change.teamId === teamId ||
    change.visibility === 'public' ||
    // A tool that is gone or unreadable: telling too many clients to re-list is harmless.
    change.visibility === 'unknown'
  );
}
