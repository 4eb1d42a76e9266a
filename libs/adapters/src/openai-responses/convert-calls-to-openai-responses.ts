import type { ToolCallIR } from '@toolgate/toolir';
import { toWireCallId } from '../shared/names/call-id';
import { toWireName } from '../shared/names/tool-name-map';
import type { OpenAIResponsesFunctionCall } from './openai-responses-api';

/** The `function_call` items of the calls (to replay them as input); `call_id` fitted to 1–64 characters. */
export function convertCallsToOpenAIResponses(
  calls: readonly ToolCallIR[],
): OpenAIResponsesFunctionCall[] {
  return calls.map((call) => ({
    type: 'function_call',
    call_id: toWireCallId(call.provider_call_id ?? call.id, 'openai-responses'),
    name: toWireName(call.name, 'openai-responses'),
    arguments: call.raw_arguments ?? JSON.stringify(call.arguments),
  }));
}
