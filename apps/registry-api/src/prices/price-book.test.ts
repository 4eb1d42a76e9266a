import { describe, expect, it } from 'vitest';
import { PriceBook } from './price-book';
import type { CustomPriceRow, PricesRepository } from './prices.repository';

/** A price book over a stand-in for the table, counting its reads. */
function bookOver(rows: CustomPriceRow[]) {
  const reads = { count: 0 };
  const repository = {
    list: () => {
      reads.count += 1;
      return Promise.resolve(rows);
    },
  } as unknown as PricesRepository;
  return { book: new PriceBook(repository), reads };
}

const custom: CustomPriceRow = {
  provider: 'openai',
  model: 'gpt-4o',
  input: 1,
  output: 2,
  cache_read: 0.5,
  cache_write: 1,
  updatedBy: 'admin',
  updatedAt: new Date(0),
};

describe('PriceBook', () => {
  it('prices a dated snapshot as its model, a custom price over the default', async () => {
    const { book } = bookOver([custom]);
    expect(await book.lookup('anthropic', 'claude-sonnet-4-5-20250929')).toEqual({
      ok: true,
      source: 'default',
      prices: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
    });
    expect(await book.lookup('openai', 'gpt-4o-2024-08-06')).toMatchObject({
      ok: true,
      source: 'custom',
      prices: { input: 1 },
    });
  });

  it('gives a reason, not a price, for an unknown model', async () => {
    const { book } = bookOver([]);
    const lookup = await book.lookup('google', 'gemini-9-ultra');
    expect(lookup.ok).toBe(false);
    expect(lookup.ok ? '' : lookup.reason).toContain('gemini-9-ultra');
  });

  it('reads the table once, and again after a change', async () => {
    const { book, reads } = bookOver([]);
    await Promise.all([book.lookup('openai', 'gpt-4o'), book.lookup('openai', 'o3')]);
    await book.lookup('openai', 'gpt-4.1');
    expect(reads.count).toBe(1);
    book.invalidate();
    await book.lookup('openai', 'gpt-4.1');
    expect(reads.count).toBe(2);
  });

  it('splits and prices a turn, and has nothing for a payload without usage or for MCP', async () => {
    const { book } = bookOver([]);
    const usage = {
      model: 'gpt-4o-mini',
      tokens: { input: 1000, output: 100, cache_read: 0, cache_write: 0, reasoning: 0 },
    };
    const costs = await book.costTurn({
      provider: 'openai-chat',
      usage,
      arguments: [{ a: 1 }, { a: 'longer value' }],
    });
    expect(costs?.map((cost) => cost.tokens.input)).toEqual([500, 500]);
    expect(costs?.reduce((sum, cost) => sum + (cost.usd ?? 0), 0)).toBeCloseTo(
      (1000 * 0.15 + 100 * 0.6) / 1e6,
      12,
    );
    expect(
      await book.costTurn({ provider: 'openai-chat', usage: undefined, arguments: [{}] }),
    ).toBeUndefined();
    expect(await book.costTurn({ provider: 'mcp', usage, arguments: [{}] })).toBeUndefined();
  });
});
