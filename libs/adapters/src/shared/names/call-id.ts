import type { Provider } from '../provider';
import { mangleName } from './mangle-name';
import { PROVIDER_LIMITS } from '../provider-limits/provider-limits';

/**
 * The call id as `provider` accepts it (Anthropic `^[a-zA-Z0-9_-]+$`, Responses 1–64 chars):
 * the same rewrite on both halves of a pair, so a result always finds its call.
 */
export function toWireCallId(id: string, provider: Provider): string {
  const rules = PROVIDER_LIMITS[provider].callId;
  return rules === undefined ? id : mangleName(id, rules);
}
