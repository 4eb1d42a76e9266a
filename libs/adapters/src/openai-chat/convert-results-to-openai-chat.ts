import type { ToolResultIR } from '@toolgate/toolir';
import { dataToText, describeBlock, errorToText } from '../shared/result-text';
import type { OpenAIChatToolMessage } from './openai-chat-api';

/**
 * One `role:'tool'` message per result. A failure is the JSON `{"error":{code,message,retryable}}`
 * the model can act on; content blocks become text parts (images cannot go in a tool message,
 * so they are described instead); otherwise the data as JSON text.
 */
export function convertResultsToOpenAIChat(
  results: readonly ToolResultIR[],
): OpenAIChatToolMessage[] {
  return results.map((result) => {
    let content: OpenAIChatToolMessage['content'];
    if (!result.ok && result.error !== undefined) content = errorToText(result.error);
    else if (result.content !== undefined && result.content.length > 0)
      content = result.content.map((block) => ({
        type: 'text' as const,
        text: describeBlock(block),
      }));
    else content = dataToText(result.data);
    return { role: 'tool', tool_call_id: result.call_id, content };
  });
}
