import type { ContentBlock, ToolResultIR } from '@toolgate/toolir';
import { makeResult, resultName } from '../shared/call-context';
import { parseErrorText, textToSuccess } from '../shared/result-text';
import type { ResultsFromWireOptions } from '../shared/tool-adapter';
import { parseWire } from '../shared/wire-boundary';
import {
  OpenAIResponsesFunctionCallOutputSchema,
  OpenAIResponsesItemSchema,
} from './openai-responses-api';
import { locateOpenAIResponsesItems } from './parse-openai-responses-tool-calls';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** Reads `function_call_output` and `custom_tool_call_output` items (other known items skipped) back into results. */
export function parseOpenAIResponsesToolResults(
  payload: unknown,
  options: ResultsFromWireOptions = {},
): ToolResultIR[] {
  const results: ToolResultIR[] = [];
  for (const { item: raw, path } of locateOpenAIResponsesItems(payload)) {
    const location = { provider: 'openai-responses' as const, path };
    const type = parseWire(OpenAIResponsesItemSchema, raw, location).type;
    if (type !== 'function_call_output' && type !== 'custom_tool_call_output') continue;
    const item = parseWire(OpenAIResponsesFunctionCallOutputSchema, raw, location);
    const name = resultName(item.call_id, undefined, { provider: 'openai-responses', options });
    if (typeof item.output === 'string') {
      const error = parseErrorText(item.output);
      results.push(
        error === undefined
          ? makeResult({ call_id: item.call_id, name, ok: true, ...textToSuccess(item.output) })
          : makeResult({ call_id: item.call_id, name, ok: false, error }),
      );
      continue;
    }
    const content = item.output.map((part): ContentBlock => {
      if (part.type === 'input_text') return { type: 'text', text: part.text };
      const match = part.type === 'input_image' ? DATA_URL.exec(part.image_url ?? '') : null;
      if (match?.[1] !== undefined && match[2] !== undefined)
        return { type: 'image', mimeType: match[1], data: match[2] };
      return { type: 'text', text: `[${part.type} ${part.file_id ?? ''}]`.replace(' ]', ']') };
    });
    results.push(makeResult({ call_id: item.call_id, name, ok: true, content }));
  }
  return results;
}
