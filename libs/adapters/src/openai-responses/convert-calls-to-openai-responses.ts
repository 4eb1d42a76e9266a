import type { ToolCallIR } from '@toolgate/toolir';
import { textOfCall } from '../shared/free-text/free-text-tools';
import { toWireCallId } from '../shared/names/call-id';
import { toWireName } from '../shared/names/tool-name-map';
import type { OpenAIResponsesCallItem } from './openai-responses-api';

/**
 * The `function_call` items of the calls (to replay them as input), `custom_tool_call` items for
 * free-text calls; `call_id` fitted to 1–64 characters.
 */
export function convertCallsToOpenAIResponses(
  calls: readonly ToolCallIR[],
): OpenAIResponsesCallItem[] {
  return calls.map((call) => {
    const callId = toWireCallId(call.provider_call_id ?? call.id, 'openai-responses');
    const name = toWireName(call.name, 'openai-responses');
    if (call.input_format === 'text')
      return { type: 'custom_tool_call', call_id: callId, name, input: textOfCall(call) };
    return {
      type: 'function_call',
      call_id: callId,
      name,
      arguments: call.raw_arguments ?? JSON.stringify(call.arguments),
    };
  });
}
