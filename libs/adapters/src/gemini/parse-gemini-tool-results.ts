import { ContentBlockSchema, ToolResultErrorSchema, type ToolResultIR } from '@toolgate/toolir';
import { z } from 'zod';
import { makeResult, resultName } from '../shared/call-context';
import { toWireName } from '../shared/names/tool-name-map';
import type { ResultsFromWireOptions } from '../shared/tool-adapter';
import { joinPointer, parseWire } from '../shared/wire-boundary';
import { GeminiFunctionResponseSchema, GeminiPartSchema } from './gemini-api';
import { locateGeminiParts } from './parse-gemini-tool-calls';

const ContentListSchema = z.array(ContentBlockSchema);

/**
 * Reads every `functionResponse` part back into results. A response without an id is matched to
 * the given calls by name, in order; without calls it gets the id `unmatched:<name>:<n>`.
 */
export function parseGeminiToolResults(
  payload: unknown,
  options: ResultsFromWireOptions = {},
): ToolResultIR[] {
  const { parts, path } = locateGeminiParts(payload);
  const seen = new Map<string, number>();
  return parts.flatMap((part, index) => {
    const location = { provider: 'gemini' as const, path: joinPointer(path, index) };
    const checked = parseWire(GeminiPartSchema, part, location);
    if (checked['functionResponse'] === undefined) return [];
    const responsePath = joinPointer(location.path, 'functionResponse');
    const item = parseWire(GeminiFunctionResponseSchema, checked['functionResponse'], {
      provider: 'gemini',
      path: responsePath,
    });
    const occurrence = seen.get(item.name) ?? 0;
    seen.set(item.name, occurrence + 1);
    const matching = options.calls?.filter((call) => toWireName(call.name, 'gemini') === item.name)[
      occurrence
    ];
    const callId = item.id ?? matching?.id ?? `unmatched:${item.name}:${occurrence}`;
    const name = matching?.name ?? resultName(callId, item.name, { provider: 'gemini', options });
    const response = item.response ?? {};
    const truncated =
      typeof response['truncated'] === 'boolean' ? response['truncated'] : undefined;
    const base = { call_id: callId, name, ...(truncated === undefined ? {} : { truncated }) };
    if (response['error'] !== undefined) {
      const error = ToolResultErrorSchema.safeParse(response['error']);
      return [
        makeResult({
          ...base,
          ok: false,
          error: error.success
            ? error.data
            : {
                code: 'tool_error',
                message:
                  typeof response['error'] === 'string'
                    ? response['error']
                    : JSON.stringify(response['error']),
                retryable: false,
              },
        }),
      ];
    }
    const content =
      response['content'] === undefined
        ? undefined
        : parseWire(ContentListSchema, response['content'], {
            provider: 'gemini',
            path: joinPointer(responsePath, 'response', 'content'),
          });
    // "If 'output' and 'error' keys are not specified, then whole 'response' is treated as function output."
    let data: unknown;
    if ('output' in response) data = response['output'];
    else if (content === undefined) data = response;
    return [
      makeResult({
        ...base,
        ok: true,
        ...(data === undefined ? {} : { data }),
        ...(content === undefined ? {} : { content }),
      }),
    ];
  });
}
