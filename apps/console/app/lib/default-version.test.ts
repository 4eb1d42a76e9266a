import { describe, expect, it } from 'vitest';
import { defaultVersion } from './default-version';

const versions = [
  { version: '1.4.0', status: 'draft' as const },
  { version: '1.1.0', status: 'published' as const },
  { version: '1.0.0', status: 'published' as const },
];

describe('defaultVersion', () => {
  it('opens on the stable version even when the newest is a draft', () => {
    expect(defaultVersion(versions, '1.0.0')).toBe('1.0.0');
  });

  it('falls back to the newest published version, then to a draft when nothing else exists', () => {
    expect(defaultVersion(versions, null)).toBe('1.1.0');
    expect(defaultVersion(versions, '9.9.9')).toBe('1.1.0');
    expect(defaultVersion([{ version: '0.1.0', status: 'draft' }], null)).toBe('0.1.0');
    expect(defaultVersion([], null)).toBeNull();
  });
});
