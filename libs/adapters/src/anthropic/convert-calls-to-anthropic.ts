import type { ToolCallIR } from '@toolgate/toolir';
import { toWireCallId } from '../shared/names/call-id';
import { toWireName } from '../shared/names/tool-name-map';
import type { AnthropicAssistantMessage } from './anthropic-api';

/** The assistant message with one `tool_use` block per call; ids fitted to `^[a-zA-Z0-9_-]+$`. */
export function convertCallsToAnthropic(calls: readonly ToolCallIR[]): AnthropicAssistantMessage {
  return {
    role: 'assistant',
    content: calls.map((call) => ({
      type: 'tool_use',
      id: toWireCallId(call.provider_call_id ?? call.id, 'anthropic'),
      name: toWireName(call.name, 'anthropic'),
      input: call.arguments,
    })),
  };
}
