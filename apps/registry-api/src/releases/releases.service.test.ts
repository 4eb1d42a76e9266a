import { describe, expect, it, vi } from 'vitest';
import type { ProblemCode } from '@toolgate/toolir';
import type { ActorsService } from '../actors/actors.service';
import type { AuditEntry } from '../audit/audit.repository';
import type { Principal } from '../auth/principal';
import type { ExportCache } from '../exports/export-cache';
import { ToolException } from '../problem/tool.exception';
import type { ToolsService } from '../tools/tools.service';
import type { ReleaseRow, ReleasesRepository, ReleaseState } from './releases.repository';
import { ReleasesService } from './releases.service';

const TOOL_ID = '5b3f3c1e-8a4f-4b7e-9a55-2f1f6d1c0a11';
const principal: Principal = {
  actor: 'key:k1',
  teamId: 't1',
  keyId: 'k1',
  scopes: new Set(['tools:write']),
};

function row(state: Partial<ReleaseState>): ReleaseRow {
  return {
    toolId: TOOL_ID,
    stableVersion: null,
    canaryVersion: null,
    canaryPercent: 0,
    previousStableVersion: null,
    updatedBy: 'key:k0',
    updatedAt: new Date('2026-01-01T00:00:00Z'),
    ...state,
  };
}

/** The service with its repository, tools service and cache mocked. */
function newTestService(current: ReleaseRow | null) {
  const mocks = {
    releases: {
      find: vi.fn(() => Promise.resolve(current)),
      save: vi.fn((_toolId: string, change: { next: ReleaseState }, _audit: AuditEntry) =>
        Promise.resolve<ReleaseRow | null>(row(change.next)),
      ),
    },
    tools: {
      requireOwned: vi.fn(() => Promise.resolve({})),
      requireServable: vi.fn(() => Promise.resolve({})),
      requireVisible: vi.fn(() => Promise.resolve({})),
    },
    cache: { invalidate: vi.fn() },
    actors: { describe: vi.fn(() => Promise.resolve({})) },
  };
  const sut = new ReleasesService(
    mocks.releases as unknown as ReleasesRepository,
    mocks.tools as unknown as ToolsService,
    mocks.cache as unknown as ExportCache,
    mocks.actors as unknown as ActorsService,
  );
  return { sut, mocks };
}

async function expectCode(promise: Promise<unknown>, code: ProblemCode): Promise<void> {
  const error: unknown = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ToolException);
  expect((error as ToolException).code).toBe(code);
}

describe('ReleasesService', () => {
  it('sets the first stable version and invalidates cached exports', async () => {
    const { sut, mocks } = newTestService(null);
    const release = await sut.setStable(principal, TOOL_ID, { version: '1.0.0' });
    expect(release).toMatchObject({ stable_version: '1.0.0', previous_stable_version: null });
    expect(mocks.tools.requireServable).toHaveBeenCalledWith(TOOL_ID, '1.0.0', '/body/version');
    expect(mocks.releases.save.mock.calls[0]?.[2]).toMatchObject({
      action: 'release.stable_set',
      actor: 'key:k1',
      entityId: TOOL_ID,
    });
    expect(mocks.cache.invalidate).toHaveBeenCalledOnce();
  });

  it('refuses a canary before there is a stable version', async () => {
    const { sut, mocks } = newTestService(null);
    await expectCode(
      sut.setCanary(principal, TOOL_ID, { version: '1.1.0', percent: 10 }),
      'conflict',
    );
    expect(mocks.releases.save).not.toHaveBeenCalled();
  });

  it('promotes the canary and remembers the stable it replaced', async () => {
    const { sut } = newTestService(
      row({ stableVersion: '1.0.0', canaryVersion: '1.1.0', canaryPercent: 20 }),
    );
    expect(await sut.promote(principal, TOOL_ID)).toMatchObject({
      stable_version: '1.1.0',
      canary_version: null,
      canary_percent: 0,
      previous_stable_version: '1.0.0',
    });
  });

  it('rolls back a running canary first, then the stable version', async () => {
    const withCanary = newTestService(
      row({
        stableVersion: '1.1.0',
        canaryVersion: '1.2.0',
        canaryPercent: 5,
        previousStableVersion: '1.0.0',
      }),
    );
    expect(await withCanary.sut.rollback(principal, TOOL_ID)).toMatchObject({
      stable_version: '1.1.0',
      canary_version: null,
    });
    const withoutCanary = newTestService(
      row({ stableVersion: '1.1.0', previousStableVersion: '1.0.0' }),
    );
    expect(await withoutCanary.sut.rollback(principal, TOOL_ID)).toMatchObject({
      stable_version: '1.0.0',
      previous_stable_version: null,
    });
    const nothing = newTestService(row({ stableVersion: '1.0.0' }));
    await expectCode(nothing.sut.rollback(principal, TOOL_ID), 'conflict');
  });

  it('refuses to overwrite a release changed by someone else meanwhile', async () => {
    const { sut, mocks } = newTestService(row({ stableVersion: '1.0.0' }));
    mocks.releases.save.mockResolvedValueOnce(null);
    await expectCode(sut.setStable(principal, TOOL_ID, { version: '1.1.0' }), 'conflict');
    expect(mocks.cache.invalidate).not.toHaveBeenCalled();
  });
});
