import { isRecord } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from '../shared/adapter-error';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { readArgumentsText, undoStrictNulls } from '../shared/read-arguments';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape, type WireLocation } from '../shared/wire-boundary';
import {
  OpenAIResponsesFunctionCallSchema,
  OpenAIResponsesItemSchema,
  OpenAIResponsesResponseSchema,
} from './openai-responses-api';

/** The items of a Response, an item list or a single item, with the pointer of the list. */
export function locateOpenAIResponsesItems(payload: unknown): { items: unknown[]; path: string } {
  const root: WireLocation = { provider: 'openai-responses', path: '/' };
  if (Array.isArray(payload)) return { items: payload, path: '' };
  if (isRecord(payload) && 'output' in payload && !('type' in payload)) {
    return {
      items: parseWire(OpenAIResponsesResponseSchema, payload, root).output,
      path: '/output',
    };
  }
  if (isRecord(payload) && 'type' in payload) return { items: [payload], path: '' };
  return unknownShape(root, 'a Response, a list of items or one item');
}

/**
 * Reads every `function_call` item of a Response, an item list or one item (other known item
 * types are skipped, unknown ones rejected): arguments parsed, names mapped back, strict nulls undone.
 */
export function parseOpenAIResponsesToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const { items, path } = locateOpenAIResponsesItems(payload);
  const single =
    !Array.isArray(payload) && !(isRecord(payload) && 'output' in payload && !('type' in payload));
  const lookup = callLookup('openai-responses', options);
  const result: ParsedToolCalls = { calls: [], errors: [] };
  items.forEach((raw, index) => {
    const location = {
      provider: 'openai-responses' as const,
      path: single ? '/' : joinPointer(path, index),
    };
    const item = parseWire(OpenAIResponsesItemSchema, raw, location);
    if (item.type !== 'function_call') return;
    const call = parseWire(OpenAIResponsesFunctionCallSchema, raw, location);
    const { name, tool } = lookUpTool(call.name, lookup);
    const args = readArgumentsText(call.arguments, {
      provider: 'openai-responses',
      path: joinPointer(location.path, 'arguments'),
      callId: call.call_id,
      name,
      tool,
    });
    if (args instanceof InvalidToolArgumentsError) {
      result.errors.push(args);
      return;
    }
    result.calls.push(
      makeCall({
        id: call.call_id,
        name,
        arguments: undoStrictNulls(args, tool),
        raw: call.arguments,
      }),
    );
  });
  return result;
}
