import { isRecord } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from '../shared/adapter-error';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { readArgumentsText, undoStrictNulls } from '../shared/read-arguments';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape, type WireLocation } from '../shared/wire-boundary';
import { makeTextCall } from '../shared/free-text/free-text-tools';
import {
  OpenAIResponsesCustomToolCallSchema,
  OpenAIResponsesFunctionCallSchema,
  OpenAIResponsesItemSchema,
  OpenAIResponsesResponseSchema,
} from './openai-responses-api';

/** The items of a Response, an item list or a single item, each with its JSON Pointer. */
export function locateOpenAIResponsesItems(
  payload: unknown,
): Array<{ item: unknown; path: string }> {
  const root: WireLocation = { provider: 'openai-responses', path: '/' };
  if (Array.isArray(payload))
    return Array.from(payload as unknown[], (item, index) => ({
      item,
      path: joinPointer('', index),
    }));
  if (isRecord(payload) && 'output' in payload && !('type' in payload)) {
    return parseWire(OpenAIResponsesResponseSchema, payload, root).output.map((item, index) => ({
      item,
      path: joinPointer('/output', index),
    }));
  }
  if (isRecord(payload) && 'type' in payload) return [{ item: payload, path: '/' }];
  return unknownShape(root, 'a Response, a list of items or one item');
}

/**
 * Reads every `function_call` item of a Response, an item list or one item (other known item
 * types are skipped, unknown ones rejected): arguments parsed, names mapped back, strict nulls
 * undone. A `custom_tool_call` is a free-text call: its `input` is the `input` argument.
 */
export function parseOpenAIResponsesToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const lookup = callLookup('openai-responses', options);
  const result: ParsedToolCalls = { calls: [], errors: [] };
  for (const { item: raw, path } of locateOpenAIResponsesItems(payload)) {
    const location = { provider: 'openai-responses' as const, path };
    const type = parseWire(OpenAIResponsesItemSchema, raw, location).type;
    if (type === 'custom_tool_call') {
      const custom = parseWire(OpenAIResponsesCustomToolCallSchema, raw, location);
      const { name } = lookUpTool(custom.name, lookup);
      result.calls.push(makeTextCall({ id: custom.call_id, name, input: custom.input }));
      continue;
    }
    if (type !== 'function_call') continue;
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
      continue;
    }
    result.calls.push(
      makeCall({
        id: call.call_id,
        name,
        arguments: undoStrictNulls(args, tool),
        raw: call.arguments,
      }),
    );
  }
  return result;
}
