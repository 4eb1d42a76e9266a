import { describe, expect, it } from 'vitest';
import { ToolgateError, type ToolgateErrorCode } from '../errors/toolgate-error';
import { canaryBucket, isInCanary } from './canary-bucket';
import { resolveVersion, type ResolveVersionInput, type VersionCandidate } from './resolve-version';

const toolId = '0b6f3f5e-3c1a-4c39-9f4e-2f1f7b1d2a10';
const now = new Date('2026-06-01T00:00:00Z');
const past = '2026-01-01T00:00:00Z';
const future = '2027-01-01T00:00:00Z';

const versions: VersionCandidate[] = [
  { version: '1.0.0', sunset_at: past },
  { version: '1.4.2', deprecated_at: '2026-03-01T00:00:00Z', sunset_at: future },
  { version: '2.0.0' },
  { version: '2.1.0' },
  { version: '2.1.3' },
  { version: '2.2.0-rc.1' },
  { version: '3.0.0-beta.1', status: 'draft' },
];

function input(patch: Partial<ResolveVersionInput> = {}): ResolveVersionInput {
  return { versions, stable: '2.1.3', subject: 'app-1', toolId, now, ...patch };
}

function failure(run: () => unknown): ToolgateError {
  try {
    run();
  } catch (error) {
    if (ToolgateError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolgateError');
}

function expectCode(run: () => unknown, code: ToolgateErrorCode): ToolgateError {
  const error = failure(run);
  expect(error.code).toBe(code);
  return error;
}

describe('resolveVersion without pins', () => {
  it('serves the stable version', () => {
    expect(resolveVersion(input())).toEqual({ version: '2.1.3', reason: 'stable' });
  });

  it('serves a deprecated stable with its deprecation and sunset dates', () => {
    expect(resolveVersion(input({ stable: '1.4.2' }))).toEqual({
      version: '1.4.2',
      reason: 'stable',
      deprecated: { at: new Date('2026-03-01T00:00:00Z') },
      sunset_at: new Date(future),
    });
  });

  it('flags a version deprecated by status only', () => {
    const result = resolveVersion(
      input({ versions: [{ version: '1.0.0', status: 'deprecated' }], stable: '1.0.0' }),
    );
    expect(result.deprecated).toEqual({});
  });

  it('uses the current time when `now` is not given', () => {
    const { now: _now, ...withoutNow } = input({ stable: '1.4.2' });
    expect(resolveVersion(withoutNow).version).toBe('1.4.2');
  });
});

describe('resolveVersion canary', () => {
  const canary = { version: '2.2.0-rc.1', percent: 10 };

  it('puts 9-11% of 10,000 subjects on a 10% canary', () => {
    let onCanary = 0;
    for (let index = 0; index < 10_000; index += 1) {
      const result = resolveVersion(input({ canary, subject: `user-${index}` }));
      if (result.reason === 'canary') onCanary += 1;
    }
    expect(onCanary).toBeGreaterThanOrEqual(900);
    expect(onCanary).toBeLessThanOrEqual(1100);
  });

  it('spreads buckets evenly over [0, 10000)', () => {
    const deciles = new Array<number>(10).fill(0);
    for (let index = 0; index < 20_000; index += 1) {
      const bucket = canaryBucket(`subject-${index}`, toolId);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(10_000);
      deciles[Math.floor(bucket / 1000)]! += 1;
    }
    for (const count of deciles) expect(count).toBeGreaterThan(1800);
  });

  it('keeps a subject on the same version across calls', () => {
    for (let index = 0; index < 200; index += 1) {
      const subject = `key-${index}`;
      const first = resolveVersion(input({ canary, subject }));
      for (let again = 0; again < 3; again += 1)
        expect(resolveVersion(input({ canary, subject }))).toEqual(first);
    }
  });

  it('keeps canary subjects on the canary as the percentage grows', () => {
    for (let index = 0; index < 500; index += 1) {
      const subject = `s-${index}`;
      if (isInCanary(subject, toolId, 10)) expect(isInCanary(subject, toolId, 50)).toBe(true);
    }
  });

  it('buckets per tool, so one subject is not on every canary at once', () => {
    const otherTool = '7d9f2c4e-1b3a-4f5e-8d7c-6b5a4e3d2c1b';
    let differ = 0;
    for (let index = 0; index < 100; index += 1) {
      if (canaryBucket(`u-${index}`, toolId) !== canaryBucket(`u-${index}`, otherTool)) differ += 1;
    }
    expect(differ).toBeGreaterThan(95);
  });

  it('gives a stable, known bucket for a known subject (the hash is part of the contract)', () => {
    // Changing the hash would move live subjects between stable and canary mid-rollout.
    expect(canaryBucket('app-1', toolId)).toBe(7167);
    expect(canaryBucket('user-42', 'search')).toBe(6925);
  });

  it('serves nobody at 0% and everybody at 100%', () => {
    for (let index = 0; index < 1000; index += 1) {
      expect(
        resolveVersion(input({ canary: { ...canary, percent: 0 }, subject: `u${index}` })).reason,
      ).toBe('stable');
      expect(
        resolveVersion(input({ canary: { ...canary, percent: 100 }, subject: `u${index}` })),
      ).toMatchObject({
        version: '2.2.0-rc.1',
        reason: 'canary',
      });
    }
  });

  it('reports the bucket it used', () => {
    const result = resolveVersion(input({ canary }));
    expect(result.bucket).toBe(canaryBucket('app-1', toolId));
  });

  it('skips a sunset canary', () => {
    const sunsetCanary = [...versions, { version: '2.3.0', sunset_at: past }];
    expect(
      resolveVersion(input({ versions: sunsetCanary, canary: { version: '2.3.0', percent: 100 } })),
    ).toEqual({
      version: '2.1.3',
      reason: 'stable',
    });
  });

  it('serves a live canary to everyone once the stable version is sunset', () => {
    const result = resolveVersion(input({ stable: '1.0.0', canary: { ...canary, percent: 0 } }));
    expect(result).toMatchObject({ version: '2.2.0-rc.1', reason: 'canary' });
  });

  it('rejects a percentage outside 0-100', () => {
    for (const percent of [-1, 101, Number.NaN]) {
      expectCode(
        () => resolveVersion(input({ canary: { ...canary, percent } })),
        'invalid_version',
      );
    }
  });

  it('rejects a canary version that is not published', () => {
    expectCode(
      () => resolveVersion(input({ canary: { version: '9.9.9', percent: 5 } })),
      'version_not_found',
    );
  });
});

describe('resolveVersion pins', () => {
  const canary = { version: '2.2.0-rc.1', percent: 100 };

  it('serves an exact pin, even over a 100% canary', () => {
    expect(resolveVersion(input({ pin: '2.0.0', canary }))).toEqual({
      version: '2.0.0',
      reason: 'pinned',
    });
  });

  it('serves an exact pin to a deprecated version with its notice', () => {
    expect(resolveVersion(input({ pin: '1.4.2' }))).toMatchObject({
      version: '1.4.2',
      reason: 'pinned',
      sunset_at: new Date(future),
    });
  });

  it('serves a draft only to an exact pin', () => {
    expect(resolveVersion(input({ pin: '3.0.0-beta.1' })).version).toBe('3.0.0-beta.1');
    expectCode(() => resolveVersion(input({ pin: '>=3.0.0-beta.0' })), 'version_not_found');
  });

  it.each([
    ['^2.1', '2.1.3'],
    ['~2.1.0', '2.1.3'],
    ['~2.0', '2.0.0'],
    ['2.x', '2.1.3'],
    ['2', '2.1.3'],
    ['*', '2.1.3'],
    ['>=1 <2', '1.4.2'],
    ['^1', '1.4.2'],
    ['1.0.x || 2.0.x', '2.0.0'],
    ['2.0', '2.0.0'],
  ])('resolves the range %s to the highest live match %s', (pin, version) => {
    expect(resolveVersion(input({ pin }))).toMatchObject({ version, reason: 'pinned' });
  });

  it('excludes prereleases from ranges unless the range names one', () => {
    expect(resolveVersion(input({ pin: '^2.2.0-rc.0' })).version).toBe('2.2.0-rc.1');
  });

  it('resolves the stable label, skipping the canary', () => {
    expect(resolveVersion(input({ pin: 'stable', canary }))).toEqual({
      version: '2.1.3',
      reason: 'stable',
    });
  });

  it('resolves the canary label to the canary for everyone', () => {
    expect(resolveVersion(input({ pin: 'canary', canary: { ...canary, percent: 0 } }))).toEqual({
      version: '2.2.0-rc.1',
      reason: 'canary',
    });
  });

  it('falls back to stable for a canary label when no canary runs', () => {
    expect(resolveVersion(input({ pin: 'canary' }))).toEqual({
      version: '2.1.3',
      reason: 'stable',
    });
  });

  it('treats a null pin and null canary like none', () => {
    expect(resolveVersion(input({ pin: null, canary: null }))).toEqual({
      version: '2.1.3',
      reason: 'stable',
    });
  });
});

describe('resolveVersion errors', () => {
  it('version_not_found for a pin to an unknown version, with details', () => {
    const error = expectCode(() => resolveVersion(input({ pin: '9.0.0' })), 'version_not_found');
    expect(error.details).toEqual({ toolId, requested: '9.0.0' });
  });

  it('version_not_found for a range nothing matches', () => {
    expectCode(() => resolveVersion(input({ pin: '^5' })), 'version_not_found');
  });

  it('version_not_found for an unknown stable version, yet an exact or range pin still resolves', () => {
    expectCode(() => resolveVersion(input({ stable: '4.0.0' })), 'version_not_found');
    expect(resolveVersion(input({ stable: '4.0.0', pin: '2.0.0' })).version).toBe('2.0.0');
    expect(
      resolveVersion(
        input({ stable: '4.0.0', pin: '^2', canary: { version: '9.9.9', percent: 50 } }),
      ).version,
    ).toBe('2.1.3');
  });

  it('version_sunset for an exact pin past its sunset, with details', () => {
    const error = expectCode(() => resolveVersion(input({ pin: '1.0.0' })), 'version_sunset');
    expect(error.details).toEqual({
      toolId,
      version: '1.0.0',
      sunset_at: past.replace('Z', '.000Z'),
    });
  });

  it('version_sunset for a range whose matches are all sunset', () => {
    expectCode(() => resolveVersion(input({ pin: '~1.0' })), 'version_sunset');
  });

  it('version_sunset for a sunset stable and no live alternative', () => {
    expectCode(() => resolveVersion(input({ stable: '1.0.0' })), 'version_sunset');
  });

  it('never serves a sunset version: the instant of sunset already counts', () => {
    expectCode(
      () => resolveVersion(input({ stable: '1.0.0', now: new Date(past) })),
      'version_sunset',
    );
    expect(
      resolveVersion(input({ stable: '1.0.0', now: new Date('2025-12-31T23:59:59Z') })).version,
    ).toBe('1.0.0');
  });

  it('takes Date objects as well as ISO strings', () => {
    const dated = [
      { version: '1.0.0', sunset_at: new Date(past) },
      { version: '1.1.0', deprecated_at: new Date(past), sunset_at: null },
    ];
    expectCode(() => resolveVersion(input({ versions: dated, stable: '1.0.0' })), 'version_sunset');
    expect(resolveVersion(input({ versions: dated, stable: '1.1.0' }))).toEqual({
      version: '1.1.0',
      reason: 'stable',
      deprecated: { at: new Date(past) },
    });
  });

  it('treats a retired status as sunset', () => {
    const retired = [{ version: '1.0.0', status: 'retired' }];
    expectCode(
      () => resolveVersion(input({ versions: retired, stable: '1.0.0' })),
      'version_sunset',
    );
  });

  it.each(['latest', 'v2.0.0', '=2.0.0', '', '>>2', '2.0.0.0'])(
    'invalid_version for the pin %j',
    (pin) => {
      expectCode(() => resolveVersion(input({ pin })), 'invalid_version');
    },
  );

  it('invalid_version for malformed versions, stable or dates', () => {
    expectCode(() => resolveVersion(input({ versions: [{ version: 'one' }] })), 'invalid_version');
    expectCode(() => resolveVersion(input({ stable: '2.1' })), 'invalid_version');
    expectCode(
      () => resolveVersion(input({ canary: { version: 'x', percent: 1 } })),
      'invalid_version',
    );
    expectCode(
      () => resolveVersion(input({ versions: [{ version: '2.1.3', sunset_at: 'soon' }] })),
      'invalid_version',
    );
  });
});
