import type { ContentBlock, ToolResultIR } from '@toolgate/toolir';
import { makeResult, resultName } from '../shared/call-context';
import { textToError, textToSuccess } from '../shared/result-text';
import type { ResultsFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import { AnthropicBlockSchema, AnthropicToolResultBlockSchema } from './anthropic-api';
import { locateAnthropicBlocks } from './parse-anthropic-tool-calls';

/** Reads every `tool_result` block of a user message (or messages, or a content array) back into results. */
export function parseAnthropicToolResults(
  payload: unknown,
  options: ResultsFromWireOptions = {},
): ToolResultIR[] {
  return locateAnthropicBlocks(payload).flatMap(({ block, path }) => {
    const location = { provider: 'anthropic' as const, path };
    if (parseWire(AnthropicBlockSchema, block, location).type !== 'tool_result') return [];
    const item = parseWire(AnthropicToolResultBlockSchema, block, location);
    const name = resultName(item.tool_use_id, undefined, { provider: 'anthropic', options });
    const base = { call_id: item.tool_use_id, name };
    if (typeof item.content === 'string' || item.content === undefined) {
      const text = item.content ?? '';
      return [
        item.is_error === true
          ? makeResult({ ...base, ok: false, error: textToError(text) })
          : makeResult({ ...base, ok: true, ...(text === '' ? {} : textToSuccess(text)) }),
      ];
    }
    const content = item.content.map((part): ContentBlock => {
      if (
        part.type === 'image' &&
        part.source?.type === 'base64' &&
        part.source.data !== undefined &&
        part.source.media_type !== undefined
      ) {
        return { type: 'image', data: part.source.data, mimeType: part.source.media_type };
      }
      // A client tool search answers with references to the tools it loads.
      if (part.type === 'tool_reference' && part.tool_name !== undefined)
        return { type: 'text', text: `tool_reference: ${part.tool_name}` };
      return { type: 'text', text: part.text ?? `[${part.type}]` };
    });
    if (item.is_error === true) {
      const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      return [makeResult({ ...base, ok: false, error: textToError(text) })];
    }
    return [makeResult({ ...base, ok: true, content })];
  });
}
