import type { TokenUsage } from './token-usage';

/** What the split needs to know of one call of the turn. */
export interface TurnCallWeight {
  /** Length of the call's arguments serialized as JSON (characters). */
  argumentsLength: number;
}

/**
 * Splits a model turn's tokens over the calls it made, so that each count of the shares adds up
 * to the turn's exactly (whole tokens, no rounding loss):
 * - `input`, `cache_read` and `cache_write` evenly: every call was made from the same prompt;
 * - `output` and `reasoning` in proportion to each call's serialized argument length: the model
 *   generated each call's arguments, so a long call cost more output (evenly when all are empty).
 * Remainders go to the calls with the largest fractional parts, the earlier call on a tie
 * (largest remainder method). A turn without calls has no shares.
 */
export function splitTurnTokens(
  tokens: TokenUsage,
  calls: readonly TurnCallWeight[],
): TokenUsage[] {
  const even = calls.map(() => 1);
  const byLength = calls.map((call) => Math.max(0, call.argumentsLength));
  const output = byLength.some((length) => length > 0) ? byLength : even;
  const input = apportion(tokens.input, even);
  const cacheRead = apportion(tokens.cache_read, even);
  const cacheWrite = apportion(tokens.cache_write, even);
  const outputShares = apportion(tokens.output, output);
  const reasoning = apportion(tokens.reasoning, output);
  return calls.map((_call, index) => ({
    input: input[index] ?? 0,
    output: outputShares[index] ?? 0,
    cache_read: cacheRead[index] ?? 0,
    cache_write: cacheWrite[index] ?? 0,
    reasoning: reasoning[index] ?? 0,
  }));
}

/** Whole shares of `total` proportional to `weights` (positive in sum), adding up to `total`. */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((accumulated, weight) => accumulated + weight, 0);
  if (weights.length === 0 || sum === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((accumulated, share) => accumulated + share, 0);
  const order = exact
    .map((value, index) => ({ index, fraction: value - Math.floor(value) }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    shares[index] = (shares[index] ?? 0) + 1;
    left -= 1;
  }
  return shares;
}
