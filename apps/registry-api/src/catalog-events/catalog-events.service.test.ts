import { describe, expect, it, vi } from 'vitest';
import type { AuditRepository } from '../audit/audit.repository';
import type { AppConfig } from '../config/app-config';
import { ExportCache } from '../exports/export-cache';
import type { StoredAuditEvent } from '../audit/audit-hash';
import type { ToolsRepository } from '../tools/tools.repository';
import { CANARY_AUTO_ROLLBACK_ACTION } from '../canary-guard/canary-guard.service';
import {
  CATALOG_CHANGE_ACTIONS,
  CatalogEventsService,
  concernsTeam,
  type CatalogChange,
} from './catalog-events.service';
import type { CatalogSignalRepository } from './catalog-signal.repository';

function event(seq: number, action: string, entityType = 'tool'): StoredAuditEvent {
  return {
    seq: BigInt(seq),
    id: `event-${seq}`,
    occurredAt: new Date(0),
    actor: 'key:a',
    teamId: 'team-a',
    action,
    entityType,
    entityId: `tool-${seq}`,
    data: {},
    prevHash: '',
    hash: '',
  };
}

function newTestService(events: StoredAuditEvent[]) {
  const stopListening = vi.fn(() => Promise.resolve());
  let onSignal: () => void = () => undefined;
  const mocks = {
    audit: {
      head: vi.fn(() => Promise.resolve({ seq: 10n, hash: '' })),
      batchAfter: vi.fn((after: bigint) =>
        Promise.resolve(events.filter((stored) => stored.seq > after)),
      ),
    },
    tools: {
      findVisible: vi.fn((id: string) =>
        Promise.resolve({ id, teamId: 'team-a', visibility: 'private' }),
      ),
    },
    signals: {
      signal: vi.fn(() => Promise.resolve()),
      listen: vi.fn((listener: () => void) => {
        onSignal = listener;
        return Promise.resolve(stopListening);
      }),
    },
  };
  const cache = new ExportCache(
    mocks.audit as unknown as AuditRepository,
    { EXPORT_CACHE_REVALIDATE_MS: 1_000 } as AppConfig,
  );
  const sut = new CatalogEventsService(
    mocks.audit as unknown as AuditRepository,
    mocks.tools as unknown as ToolsRepository,
    mocks.signals as unknown as CatalogSignalRepository,
    { catalogPollMs: 60_000 },
    cache,
  );
  return { sut, mocks, cache, stopListening, notify: () => onSignal() };
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
}

describe('CatalogEventsService', () => {
  it('delivers catalog changes committed after the subscription, and only those', async () => {
    const events = [event(9, 'release.promoted')];
    const { sut, mocks, notify } = newTestService(events);
    const changes: CatalogChange[] = [];
    const unsubscribe = await sut.subscribe((change) => changes.push(change));
    events.push(event(11, 'policy.created', 'policy'), event(12, 'release.stable_set'));
    notify();
    await settle();
    expect(changes).toEqual([
      {
        seq: 12n,
        action: 'release.stable_set',
        toolId: 'tool-12',
        teamId: 'team-a',
        visibility: 'private',
      },
    ]);
    expect(mocks.audit.batchAfter).toHaveBeenCalledWith(10n, expect.any(Number));
    unsubscribe();
    await sut.onModuleDestroy();
  });

  it('announces through NOTIFY and stops listening when the last listener leaves', async () => {
    const { sut, mocks, cache, stopListening } = newTestService([]);
    sut.announce();
    expect(mocks.signals.signal).toHaveBeenCalledTimes(1);
    // Every committed change clears the export cache (publish, deprecate, releases, imports, the guard).
    cache.invalidate();
    expect(mocks.signals.signal).toHaveBeenCalledTimes(2);
    const first = await sut.subscribe(() => undefined);
    const second = await sut.subscribe(() => undefined);
    expect(mocks.signals.listen).toHaveBeenCalledTimes(1);
    first();
    await settle();
    expect(stopListening).not.toHaveBeenCalled();
    second();
    await settle();
    expect(stopListening).toHaveBeenCalledTimes(1);
  });
});

describe('CATALOG_CHANGE_ACTIONS', () => {
  it("includes the canary guard's own rollback", () => {
    expect(CATALOG_CHANGE_ACTIONS.has(CANARY_AUTO_ROLLBACK_ACTION)).toBe(true);
  });
});

describe('concernsTeam', () => {
  const change = (fields: Partial<CatalogChange>): CatalogChange => ({
    seq: 1n,
    action: 'release.stable_set',
    toolId: 't',
    teamId: 'team-a',
    visibility: 'private',
    ...fields,
  });

  it('concerns the owning team, the admin key and, for public tools, everyone', () => {
    expect(concernsTeam(change({}), 'team-a')).toBe(true);
    expect(concernsTeam(change({}), null)).toBe(true);
    expect(concernsTeam(change({}), 'team-b')).toBe(false);
    expect(concernsTeam(change({ visibility: 'public' }), 'team-b')).toBe(true);
  });
});
