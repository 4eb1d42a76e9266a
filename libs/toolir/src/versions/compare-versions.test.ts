import { describe, expect, it } from 'vitest';
import { compareVersions } from './compare-versions';

describe('compareVersions', () => {
  it.each([
    ['1.0.0', '2.0.0', -1],
    ['2.0.0', '1.9.9', 1],
    ['1.10.0', '1.9.0', 1],
    ['1.0.0', '1.0.0', 0],
    ['1.0.0-alpha', '1.0.0', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.beta', '1.0.0-beta', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0-rc.1', '1.0.0', -1],
    ['1.0.0+build.1', '1.0.0+build.2', 0],
  ] as const)('%s vs %s is %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(expected === 0 ? 0 : -expected);
  });

  it('sorts by semver precedence', () => {
    expect(['1.0.0', '1.0.0-rc.1', '0.9.0', '1.0.0-alpha', '1.1.0'].sort(compareVersions)).toEqual([
      '0.9.0',
      '1.0.0-alpha',
      '1.0.0-rc.1',
      '1.0.0',
      '1.1.0',
    ]);
  });

  it.each(['1.0', 'v1.0.0', '', ' 1.0.0', '1.0.0.0', 'latest'])(
    'throws invalid_version for %j',
    (bad) => {
      expect(() => compareVersions(bad, '1.0.0')).toThrow(
        expect.objectContaining({ code: 'invalid_version' }),
      );
      expect(() => compareVersions('1.0.0', bad)).toThrow(
        expect.objectContaining({ code: 'invalid_version' }),
      );
    },
  );
});
