import { isRecord } from '@toolgate/toolir';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape } from '../shared/wire-boundary';
import {
  AnthropicBlockSchema,
  AnthropicMessageSchema,
  AnthropicToolUseBlockSchema,
} from './anthropic-api';

/** The content blocks of a Message, a message param, or a content array, with their pointer. */
export function locateAnthropicBlocks(payload: unknown): Array<{ block: unknown; path: string }> {
  const root = { provider: 'anthropic' as const, path: '/' };
  const messages: Array<{ content: unknown[]; path: string }> = [];
  if (
    Array.isArray(payload) &&
    payload.every(
      (item) =>
        isRecord(item) && 'content' in item && !('type' in item && item['type'] !== 'message'),
    )
  ) {
    payload.forEach((message, index) => {
      const parsed = parseWire(AnthropicMessageSchema, message, {
        provider: 'anthropic',
        path: joinPointer('', index),
      });
      messages.push({
        content: typeof parsed.content === 'string' ? [] : parsed.content,
        path: joinPointer('', index, 'content'),
      });
    });
  } else if (Array.isArray(payload)) {
    messages.push({ content: payload, path: '' });
  } else if (isRecord(payload) && 'content' in payload) {
    const parsed = parseWire(AnthropicMessageSchema, payload, root);
    messages.push({
      content: typeof parsed.content === 'string' ? [] : parsed.content,
      path: '/content',
    });
  } else {
    unknownShape(root, 'a Message, a message param, a list of messages or a content array');
  }
  return messages.flatMap((message) =>
    message.content.map((block, index) => ({ block, path: joinPointer(message.path, index) })),
  );
}

/**
 * Reads every `tool_use` block, wherever it sits in the content (text and thinking blocks may
 * come between them); `input` must be an object. Names mapped back when the tools are given.
 */
export function parseAnthropicToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const lookup = callLookup('anthropic', options);
  const calls = locateAnthropicBlocks(payload).flatMap(({ block, path }) => {
    const location = { provider: 'anthropic' as const, path };
    if (parseWire(AnthropicBlockSchema, block, location).type !== 'tool_use') return [];
    const call = parseWire(AnthropicToolUseBlockSchema, block, location);
    return [
      makeCall({ id: call.id, name: lookUpTool(call.name, lookup).name, arguments: call.input }),
    ];
  });
  return { calls, errors: [] };
}
