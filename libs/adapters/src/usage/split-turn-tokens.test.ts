import { describe, expect, it } from 'vitest';
import { priceKeysOf, priceTokens, pricingProviderOf } from './price-tokens';
import { splitTurnTokens } from './split-turn-tokens';
import type { TokenUsage } from './token-usage';

const turn: TokenUsage = {
  input: 1001,
  output: 97,
  cache_read: 2048,
  cache_write: 5,
  reasoning: 31,
};

function sum(shares: TokenUsage[]): TokenUsage {
  return shares.reduce(
    (total, share) => ({
      input: total.input + share.input,
      output: total.output + share.output,
      cache_read: total.cache_read + share.cache_read,
      cache_write: total.cache_write + share.cache_write,
      reasoning: total.reasoning + share.reasoning,
    }),
    { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 },
  );
}

describe('splitTurnTokens', () => {
  it('splits input evenly and output by argument length, adding up to the turn exactly', () => {
    const shares = splitTurnTokens(turn, [
      { argumentsLength: 10 },
      { argumentsLength: 30 },
      { argumentsLength: 60 },
    ]);
    expect(shares).toEqual([
      { input: 334, output: 10, cache_read: 683, cache_write: 2, reasoning: 3 },
      { input: 334, output: 29, cache_read: 683, cache_write: 2, reasoning: 9 },
      { input: 333, output: 58, cache_read: 682, cache_write: 1, reasoning: 19 },
    ]);
    expect(sum(shares)).toEqual(turn);
  });

  it('adds up exactly for any turn and any argument lengths', () => {
    let seed = 7;
    const next = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % max;
    };
    for (let round = 0; round < 500; round += 1) {
      const tokens = {
        input: next(100_000),
        output: next(10_000),
        cache_read: next(50_000),
        cache_write: next(5_000),
        reasoning: next(3_000),
      };
      const calls = Array.from({ length: 1 + next(12) }, () => ({ argumentsLength: next(400) }));
      const shares = splitTurnTokens(tokens, calls);
      expect(shares).toHaveLength(calls.length);
      expect(sum(shares)).toEqual(tokens);
      for (const share of shares) {
        for (const count of Object.values(share))
          expect(Number.isInteger(count) && count >= 0).toBe(true);
      }
    }
  });

  it('splits output evenly when every call has empty arguments, and one call takes the whole turn', () => {
    expect(
      splitTurnTokens(turn, [{ argumentsLength: 0 }, { argumentsLength: 0 }]).map(
        (share) => share.output,
      ),
    ).toEqual([49, 48]);
    expect(splitTurnTokens(turn, [{ argumentsLength: 2 }])).toEqual([turn]);
    expect(splitTurnTokens(turn, [])).toEqual([]);
  });
});

describe('priceTokens', () => {
  it('prices each kind of token at its rate per million', () => {
    const prices = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
    expect(
      priceTokens(
        {
          input: 1_000_000,
          output: 100_000,
          cache_read: 1_000_000,
          cache_write: 0,
          reasoning: 50_000,
        },
        prices,
      ),
    ).toBeCloseTo(3 + 1.5 + 0.3, 10);
  });

  it('names the pricing provider of each wire format', () => {
    expect(pricingProviderOf('openai-responses')).toBe('openai');
    expect(pricingProviderOf('gemini')).toBe('google');
    expect(pricingProviderOf('mcp')).toBeUndefined();
  });

  it('prices a dated snapshot or a models/ name under its model', () => {
    expect(priceKeysOf('claude-sonnet-4-5-20250929')).toEqual([
      'claude-sonnet-4-5-20250929',
      'claude-sonnet-4-5',
    ]);
    expect(priceKeysOf('gpt-4o-2024-08-06')).toEqual(['gpt-4o-2024-08-06', 'gpt-4o']);
    expect(priceKeysOf('models/gemini-2.5-flash')).toEqual([
      'models/gemini-2.5-flash',
      'gemini-2.5-flash',
    ]);
    expect(priceKeysOf('gpt-4o-mini')).toEqual(['gpt-4o-mini']);
  });
});
