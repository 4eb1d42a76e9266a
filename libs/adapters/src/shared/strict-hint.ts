import type { ToolIR } from '@toolgate/toolir';

/**
 * Whether a tool asks for strict schemas on a provider family's wire, when it says so:
 * `provider_hints.<family>.strict` (what an import of a strict definition keeps), else
 * `protocol_meta.strict`. The request's `strict` option wins over it.
 */
export function strictHintOf(tool: ToolIR, family: 'openai' | 'anthropic'): boolean | undefined {
  const hint = tool.provider_hints?.[family]?.['strict'] ?? tool.protocol_meta?.['strict'];
  return typeof hint === 'boolean' ? hint : undefined;
}
