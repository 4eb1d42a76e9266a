import type { Attributes } from '@opentelemetry/api';
import { GEN_AI_ATTRIBUTES, TOOLGATE_ATTRIBUTES, genAiProviderName } from '@toolgate/engine';
import type { CallRecord } from '@toolgate/persistence';

/** What a recorded call says about itself on its spans: the tool, who called, in which conversation and format. */
export function callTraceAttributes(record: CallRecord): Attributes {
  const provider = record.provider === undefined ? undefined : genAiProviderName(record.provider);
  return {
    [TOOLGATE_ATTRIBUTES.toolId]: record.tool.id,
    [TOOLGATE_ATTRIBUTES.toolVersion]: record.tool.version,
    [TOOLGATE_ATTRIBUTES.teamId]: record.caller.team,
    [TOOLGATE_ATTRIBUTES.keyId]: record.caller.key_id,
    ...(record.conversation_id === undefined
      ? {}
      : { [GEN_AI_ATTRIBUTES.conversationId]: record.conversation_id }),
    ...(record.provider === undefined
      ? {}
      : { [TOOLGATE_ATTRIBUTES.providerFormat]: record.provider }),
    ...(provider === undefined ? {} : { [GEN_AI_ATTRIBUTES.providerName]: provider }),
    ...tokenCostAttributes(record),
  };
}

/**
 * The call's share of its model turn's tokens, as GenAI usage attributes (the share, not the
 * turn's total: the spans of a turn's calls add up to the turn), and its price.
 */
function tokenCostAttributes(record: CallRecord): Attributes {
  const cost = record.token_cost;
  if (cost === undefined) return {};
  const { tokens } = cost;
  return {
    [GEN_AI_ATTRIBUTES.usageInputTokens]: tokens.input + tokens.cache_read + tokens.cache_write,
    [GEN_AI_ATTRIBUTES.usageOutputTokens]: tokens.output,
    [TOOLGATE_ATTRIBUTES.costCacheReadTokens]: tokens.cache_read,
    [TOOLGATE_ATTRIBUTES.costCacheWriteTokens]: tokens.cache_write,
    [TOOLGATE_ATTRIBUTES.costReasoningTokens]: tokens.reasoning,
    ...(cost.model === null ? {} : { [GEN_AI_ATTRIBUTES.requestModel]: cost.model }),
    ...(cost.usd === null ? {} : { [TOOLGATE_ATTRIBUTES.costTokensUsd]: cost.usd }),
  };
}
