import type { ToolCallIR } from '@toolgate/toolir';
import { textOfCall } from '../shared/free-text/free-text-tools';
import { toWireName } from '../shared/names/tool-name-map';
import type { OpenAIChatAssistantMessage } from './openai-chat-api';

/**
 * The assistant message carrying the calls; the original argument text is replayed when known, and
 * a free-text call is a `type: 'custom'` call with its input.
 */
export function convertCallsToOpenAIChat(calls: readonly ToolCallIR[]): OpenAIChatAssistantMessage {
  return {
    role: 'assistant',
    content: null,
    tool_calls: calls.map((call) => {
      const id = call.provider_call_id ?? call.id;
      const name = toWireName(call.name, 'openai-chat');
      if (call.input_format === 'text')
        return { id, type: 'custom' as const, custom: { name, input: textOfCall(call) } };
      return {
        id,
        type: 'function' as const,
        function: { name, arguments: call.raw_arguments ?? JSON.stringify(call.arguments) },
      };
    }),
  };
}
