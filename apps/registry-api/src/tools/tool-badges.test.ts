import { describe, expect, it } from 'vitest';
import { toolBadgesOf, type BadgeVersionRow } from './tool-badges';

function row(version: string, fields: Partial<BadgeVersionRow> = {}): BadgeVersionRow {
  return {
    toolId: 't',
    version,
    destructive: false,
    sourceKind: null,
    deprecatedAt: null,
    sunsetAt: null,
    ...fields,
  };
}

describe('toolBadgesOf', () => {
  it('describes the stable version, not a newer one', () => {
    const badges = toolBadgesOf('1.0.0', [
      row('1.0.0', { destructive: true, sourceKind: 'openapi' }),
      row('2.0.0', { sourceKind: 'mcp' }),
    ]);
    expect(badges).toEqual({ destructive: true, imported_from: 'openapi', deprecated: [] });
  });

  it('falls back to the newest published version without a stable one (10.0.0 after 9.0.0)', () => {
    const badges = toolBadgesOf(null, [row('9.0.0'), row('10.0.0', { sourceKind: 'mcp' })]);
    expect(badges.imported_from).toBe('mcp');
  });

  it('lists every deprecated version newest first, with its sunset', () => {
    const sunset = new Date('2027-01-01T00:00:00.000Z');
    const badges = toolBadgesOf('2.0.0', [
      row('1.0.0', { deprecatedAt: new Date(), sunsetAt: sunset }),
      row('1.5.0', { deprecatedAt: new Date(), sunsetAt: null }),
      row('2.0.0'),
    ]);
    expect(badges.deprecated).toEqual([
      { version: '1.5.0', sunset_at: null },
      { version: '1.0.0', sunset_at: '2027-01-01T00:00:00.000Z' },
    ]);
  });

  it('has no badges without published versions, and ignores unknown sources', () => {
    expect(toolBadgesOf(null, [])).toEqual({
      destructive: false,
      imported_from: null,
      deprecated: [],
    });
    expect(toolBadgesOf(null, [row('1.0.0', { sourceKind: 'grpc' })]).imported_from).toBeNull();
  });
});
