import type { ToolCallIR } from '@toolgate/toolir';
import { toWireName } from '../shared/names/tool-name-map';
import type { OpenAIChatAssistantMessage } from './openai-chat-api';

/** The assistant message carrying the calls; the original argument text is replayed when known. */
export function convertCallsToOpenAIChat(calls: readonly ToolCallIR[]): OpenAIChatAssistantMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map((call) => ({
      id: call.provider_call_id ?? call.id,
      type: 'function',
      function: {
        name: toWireName(call.name, 'openai-chat'),
        arguments: call.raw_arguments ?? JSON.stringify(call.arguments),
      },
    })),
  };
}
