import { isProvider, pricingProviderOf } from '@toolgate/adapters';
import type { CallCost } from '@toolgate/contract';
import type { CallRow } from './call-store';

/**
 * What one call cost, from its row: the tool's own cost (written with its outcome) and its share
 * of the model turn's token cost (priced when it was recorded). The one reading of a call's cost:
 * the call API, budgets and reports add up what this returns. `total_usd` adds the known parts;
 * it is null only when neither is known.
 */
export function callCostOf(row: Pick<CallRow, 'provider' | 'tokenCost' | 'toolCost'>): CallCost {
  const tool = row.toolCost;
  const tokens = row.tokenCost;
  const toolUsd = tool?.usd ?? null;
  const tokensUsd = tokens?.usd ?? null;
  return {
    tool_usd: toolUsd,
    tokens_usd: tokensUsd,
    total_usd: toolUsd === null && tokensUsd === null ? null : (toolUsd ?? 0) + (tokensUsd ?? 0),
    tool_source: tool?.source ?? null,
    tokens: tokens === null ? null : { ...tokens.tokens },
    model: tokens?.model ?? null,
    provider:
      tokens === null || !isProvider(row.provider)
        ? null
        : (pricingProviderOf(row.provider) ?? null),
    tokens_unpriced_reason: tokens?.unpricedReason ?? null,
  };
}
