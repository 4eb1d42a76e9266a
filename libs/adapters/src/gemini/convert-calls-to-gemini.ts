import type { ToolCallIR } from '@toolgate/toolir';
import { toWireName } from '../shared/names/tool-name-map';
import { synthesizeCallId } from '../shared/synthesize-call-id';
import type { GeminiModelContent } from './gemini-api';

/** The model turn with one `functionCall` part per call; an id that was synthesized is not sent. */
export function convertCallsToGemini(calls: readonly ToolCallIR[]): GeminiModelContent {
  return {
    role: 'model',
    parts: calls.map((call, ordinal) => {
      const name = toWireName(call.name, 'gemini');
      const id = call.provider_call_id ?? call.id;
      const synthesized = id === synthesizeCallId({ name, ordinal, arguments: call.arguments });
      return { functionCall: { ...(synthesized ? {} : { id }), name, args: call.arguments } };
    }),
  };
}
