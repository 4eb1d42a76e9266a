import { describe, expect, it } from 'vitest';
import { truncatePayload, truncateValue } from './truncate-result';

describe('truncateValue', () => {
  it('returns small values unchanged, without a report', () => {
    const value = { a: [1, 2, 3], b: 'short' };
    expect(truncateValue(value, 1000)).toEqual({ value });
  });

  it('keeps the shape: arrays keep their first items, strings their beginning, and every cut is reported', () => {
    const value = {
      title: 'report',
      body: 'word '.repeat(5000),
      rows: Array.from({ length: 1000 }, (_, id) => ({ id, tags: ['a', 'b'] })),
    };
    const { value: cut, report } = truncateValue(value, 4000);
    const result = cut as typeof value;
    expect(result.title).toBe('report');
    expect(typeof result.body).toBe('string');
    expect(result.body.endsWith('…')).toBe(true);
    expect(result.rows[0]).toEqual({ id: 0, tags: ['a', 'b'] });
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(4000);
    expect(report).toMatchObject({ budget_bytes: 4000, omitted_cuts: 0 });
    expect(report?.cuts).toEqual(
      expect.arrayContaining([
        {
          path: '/body',
          kind: 'string',
          original_length: 25_000,
          kept: expect.any(Number) as number,
        },
        { path: '/rows', kind: 'array', original_length: 1000, kept: result.rows.length },
      ]),
    );
    expect(report!.kept_bytes).toBeLessThan(report!.original_bytes);
  });

  it('does not split surrogate pairs', () => {
    const { value } = truncateValue({ text: '😀'.repeat(20_000) }, 1000);
    const text = (value as { text: string }).text;
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
    expect(text.includes('\uFFFD')).toBe(false);
  });

  it('escapes JSON Pointer segments in cut paths', () => {
    const { report } = truncateValue({ 'a/b': 'x'.repeat(50_000) }, 1000);
    expect(report?.cuts[0]?.path).toBe('/a~1b');
  });
});

describe('truncatePayload', () => {
  it('cuts text content blocks to the budget and drops the blocks after them', () => {
    const content = [
      { type: 'text' as const, text: 'intro' },
      { type: 'text' as const, text: 'z'.repeat(10_000) },
      { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' },
    ];
    const { content: cut, report } = truncatePayload({ content }, 500);
    expect(cut?.map((block) => block.type)).toEqual(['text', 'text']);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(500);
    expect(report?.cuts).toEqual([
      {
        path: '/content/1/text',
        kind: 'string',
        original_length: 10_000,
        kept: expect.any(Number) as number,
      },
      { path: '/content', kind: 'array', original_length: 3, kept: 2 },
    ]);
  });

  it('prefixes data cuts with /data and leaves small payloads alone', () => {
    expect(
      truncatePayload({ data: { a: 1 }, content: [{ type: 'text', text: 'ok' }] }, 1000).report,
    ).toBeUndefined();
    const { report } = truncatePayload(
      { data: { list: Array.from({ length: 1000 }, (_, index) => index) } },
      100,
    );
    expect(report?.cuts[0]?.path).toBe('/data/list');
  });
});
