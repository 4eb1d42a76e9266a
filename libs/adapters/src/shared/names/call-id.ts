import type { Provider } from '../provider';
import { mangleName } from './mangle-name';
import { CALL_ID_RULES } from './name-rules';

/**
 * The call id as `provider` accepts it (Anthropic `^[a-zA-Z0-9_-]+$`, Responses 1–64 chars):
 * the same rewrite on both halves of a pair, so a result always finds its call.
 */
export function toWireCallId(id: string, provider: Provider): string {
  const rules = CALL_ID_RULES[provider];
  return rules === undefined ? id : mangleName(id, rules);
}
