import { isRecord } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from '../shared/adapter-error';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { argumentsFromWire } from '../shared/names/property-names';
import { readArgumentsText } from '../shared/read-arguments';
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
 * An `input` that is still text (a streamed block whose `input_json_delta`s were cut off, e.g. by
 * `max_tokens`) is read like OpenAI's arguments text: what does not parse is an error beside the
 * good calls, for an `invalid_arguments` result the model can act on.
 */
export function parseAnthropicToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const lookup = callLookup('anthropic', options);
  const result: ParsedToolCalls = { calls: [], errors: [] };
  for (const { block, path } of locateAnthropicBlocks(payload)) {
    const location = { provider: 'anthropic' as const, path };
    if (parseWire(AnthropicBlockSchema, block, location).type !== 'tool_use') continue;
    const streamed = textInputOf(block);
    const call = parseWire(
      AnthropicToolUseBlockSchema,
      streamed === undefined ? block : { ...(block as object), input: {} },
      location,
    );
    const { name, tool } = lookUpTool(call.name, lookup);
    const args =
      streamed === undefined
        ? call.input
        : readArgumentsText(streamed, {
            provider: 'anthropic',
            path: joinPointer(path, 'input'),
            callId: call.id,
            name,
            tool,
          });
    if (args instanceof InvalidToolArgumentsError) result.errors.push(args);
    else
      result.calls.push(
        makeCall({ id: call.id, name, arguments: argumentsFromWire(args, tool, 'anthropic') }),
      );
  }
  return result;
}

function textInputOf(block: unknown): string | undefined {
  const input = isRecord(block) ? block['input'] : undefined;
  return typeof input === 'string' ? input : undefined;
}
