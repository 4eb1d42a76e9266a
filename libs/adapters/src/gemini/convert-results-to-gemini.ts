import type { ToolResultIR } from '@toolgate/toolir';
import { toWireName } from '../shared/names/tool-name-map';
import type { GeminiFunctionResponseContent } from './gemini-api';

// synthesizeCallId's shape: a result answering such an id answers a call that came without one.
const SYNTHESIZED_ID = /^call_[0-9a-f]{16}$/;

/**
 * The user turn with one `functionResponse` per result: `response.output` (data) and
 * `response.content` (blocks) on success, `response.error` on failure ("Use 'output' key to
 * specify function output and 'error' key to specify error details"); `id` only when the call had a real one.
 */
export function convertResultsToGemini(
  results: readonly ToolResultIR[],
): GeminiFunctionResponseContent {
  return {
    role: 'user',
    parts: results.map((result) => {
      const response: Record<string, unknown> = {};
      if (!result.ok && result.error !== undefined) response['error'] = result.error;
      else {
        if (result.data !== undefined) response['output'] = result.data;
        if (result.content !== undefined) response['content'] = result.content;
        if (result.data === undefined && result.content === undefined) response['output'] = null;
      }
      if (result.truncated !== undefined) response['truncated'] = result.truncated;
      return {
        functionResponse: {
          ...(SYNTHESIZED_ID.test(result.call_id) ? {} : { id: result.call_id }),
          name: toWireName(result.name, 'gemini'),
          response,
        },
      };
    }),
  };
}
