import type { ContentBlock, ToolResultIR } from '@toolgate/toolir';
import { answersTextCall } from '../shared/free-text/free-text-tools';
import type { ResultsToWireOptions } from '../shared/tool-adapter';
import { toWireCallId } from '../shared/names/call-id';
import { dataToText, describeBlock, errorToText } from '../shared/result-text';
import type { OpenAIResponsesCallOutput, OpenAIResponsesOutputPart } from './openai-responses-api';

function toOutputPart(block: ContentBlock): OpenAIResponsesOutputPart {
  if (block.type === 'image')
    return {
      type: 'input_image',
      image_url: `data:${block.mimeType};base64,${block.data}`,
      detail: 'auto',
    };
  return { type: 'input_text', text: describeBlock(block) };
}

/**
 * One `function_call_output` item per result (`custom_tool_call_output` for a free-text call, known
 * from `options.calls` or `options.tools`): a failure is the JSON error text the model can act
 * on, content blocks become `input_text`/`input_image` parts, otherwise the data as JSON text.
 */
export function convertResultsToOpenAIResponses(
  results: readonly ToolResultIR[],
  options: ResultsToWireOptions = {},
): OpenAIResponsesCallOutput[] {
  return results.map((result) => {
    let output: OpenAIResponsesCallOutput['output'];
    if (!result.ok && result.error !== undefined) output = errorToText(result.error);
    else if (result.content !== undefined && result.content.length > 0)
      output = result.content.map(toOutputPart);
    else output = dataToText(result.data);
    return {
      type: answersTextCall(result, options) ? 'custom_tool_call_output' : 'function_call_output',
      call_id: toWireCallId(result.call_id, 'openai-responses'),
      output,
    };
  });
}
