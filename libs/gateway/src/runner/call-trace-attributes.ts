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
  };
}
