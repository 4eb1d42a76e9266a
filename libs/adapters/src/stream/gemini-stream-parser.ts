import { synthesizeCallId } from '../shared/synthesize-call-id';
import { EventReader, guardStream, providerErrorEvent } from './stream-event-shape';
import { StreamContext, type ToolCallStreamOptions } from './streamed-tool-call';
import type { ToolCallStream } from './tool-call-stream-event';

/**
 * Reads Gemini `streamGenerateContent` chunks (GenerateContentResponse objects): whole `functionCall`
 * parts in `candidates[0].content.parts`, possibly several per chunk, each a complete call. Calls
 * without an id get `synthesizeCallId` with their position among the turn's function calls.
 */
export function createGeminiStreamParser(options: ToolCallStreamOptions = {}): ToolCallStream {
  const context = new StreamContext('gemini', options);
  const read = new EventReader('gemini');
  let ordinal = 0;

  return guardStream({
    push(value, events) {
      const chunk = read.record(value, '');
      if (chunk['error'] !== undefined && chunk['error'] !== null) {
        events.push(providerErrorEvent('gemini', chunk['error']));
        return;
      }
      const candidates = read.optionalArray(chunk['candidates'], '/candidates') ?? [];
      if (candidates.length === 0) return;
      // One turn is streamed per request; other candidates (candidateCount > 1) are other turns.
      const candidate = read.record(candidates[0], '/candidates/0');
      const content = read.optionalRecord(candidate['content'], '/candidates/0/content');
      const parts = read.optionalArray(content?.['parts'], '/candidates/0/content/parts') ?? [];
      parts.forEach((value, position) => {
        const path = `/candidates/0/content/parts/${position}`;
        const part = read.record(value, path);
        if (part['functionCall'] !== undefined && part['functionCall'] !== null) {
          const functionCall = read.record(part['functionCall'], `${path}/functionCall`);
          const wireName = read.string(functionCall['name'], `${path}/functionCall/name`);
          const args = functionCall['args'] ?? {};
          const id =
            read.optionalString(functionCall['id'], `${path}/functionCall/id`) ||
            synthesizeCallId({ name: wireName, ordinal, arguments: args });
          ordinal++;
          const call = context.startCall({ id, wireName }, events);
          events.push({ type: 'tool_call_delta', id, partial: args, completePaths: [''] });
          call.endWith(args, events);
          return;
        }
        const text = read.optionalString(part['text'], `${path}/text`);
        // Thought summaries are not the answer's text.
        if (text !== undefined && text !== '' && part['thought'] !== true)
          events.push({ type: 'text_delta', text });
      });
    },
    end() {
      // Every Gemini call ends with its own part: nothing is left open.
    },
  });
}
