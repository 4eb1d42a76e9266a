import { isRecord } from '@toolgate/toolir';
import type { ToolResultIR } from '@toolgate/toolir';
import { makeResult, resultName } from '../shared/call-context';
import { parseErrorText, textToSuccess } from '../shared/result-text';
import type { ResultsFromWireOptions } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape } from '../shared/wire-boundary';
import { OpenAIChatToolMessageSchema } from './openai-chat-api';

const OTHER_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** Reads `role:'tool'` messages (one, or a list in which other messages are skipped) back into results. */
export function parseOpenAIChatToolResults(
  payload: unknown,
  options: ResultsFromWireOptions = {},
): ToolResultIR[] {
  const messages = Array.isArray(payload) ? payload : [payload];
  if (!Array.isArray(payload) && !isRecord(payload))
    unknownShape({ provider: 'openai-chat', path: '/' }, 'a tool message or a list of messages');
  const results: ToolResultIR[] = [];
  messages.forEach((item, index) => {
    const path = Array.isArray(payload) ? joinPointer('', index) : '/';
    if (isRecord(item) && typeof item['role'] === 'string' && OTHER_ROLES.has(item['role'])) return;
    const message = parseWire(OpenAIChatToolMessageSchema, item, { provider: 'openai-chat', path });
    const name = resultName(message.tool_call_id, undefined, { provider: 'openai-chat', options });
    if (typeof message.content !== 'string') {
      results.push(
        makeResult({
          call_id: message.tool_call_id,
          name,
          ok: true,
          content: message.content.map((part) => ({ type: 'text', text: part.text })),
        }),
      );
      return;
    }
    const error = parseErrorText(message.content);
    results.push(
      error !== undefined
        ? makeResult({ call_id: message.tool_call_id, name, ok: false, error })
        : makeResult({
            call_id: message.tool_call_id,
            name,
            ok: true,
            ...textToSuccess(message.content),
          }),
    );
  });
  return results;
}
