import type { ContentBlock, ToolResultIR } from '@toolgate/toolir';
import { toWireCallId } from '../shared/names/call-id';
import { dataToText, describeBlock, errorToText } from '../shared/result-text';
import type {
  AnthropicImageMediaType,
  AnthropicToolResultContent,
  AnthropicToolResultMessage,
} from './anthropic-api';

const IMAGE_TYPES: ReadonlySet<string> = new Set<AnthropicImageMediaType>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

function toResultContent(block: ContentBlock): AnthropicToolResultContent {
  if (block.type === 'image' && IMAGE_TYPES.has(block.mimeType)) {
    return {
      type: 'image',
      source: {
        type: 'base64',
        media_type: block.mimeType as AnthropicImageMediaType,
        data: block.data,
      },
    };
  }
  return { type: 'text', text: describeBlock(block) };
}

/**
 * All results of one assistant turn in one user message of `tool_result` blocks (the API
 * requires them first in that message, before any text). A failure sets `is_error` and carries
 * the JSON error text; content blocks become text/image blocks; otherwise the data as JSON text.
 */
export function convertResultsToAnthropic(
  results: readonly ToolResultIR[],
): AnthropicToolResultMessage {
  return {
    role: 'user',
    content: results.map((result) => {
      let content: string | AnthropicToolResultContent[];
      if (!result.ok && result.error !== undefined) content = errorToText(result.error);
      else if (result.content !== undefined && result.content.length > 0)
        content = result.content.map(toResultContent);
      else content = dataToText(result.data);
      return {
        type: 'tool_result',
        tool_use_id: toWireCallId(result.call_id, 'anthropic'),
        content,
        is_error: !result.ok,
      };
    }),
  };
}
