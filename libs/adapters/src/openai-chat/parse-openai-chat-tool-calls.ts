import { isRecord } from '@toolgate/toolir';
import { InvalidToolArgumentsError } from '../shared/adapter-error';
import { callLookup, lookUpTool, makeCall } from '../shared/call-context';
import { readArgumentsText, undoStrictNulls } from '../shared/read-arguments';
import type { CallsFromWireOptions, ParsedToolCalls } from '../shared/tool-adapter';
import { joinPointer, parseWire, unknownShape, type WireLocation } from '../shared/wire-boundary';
import { makeTextCall } from '../shared/free-text/free-text-tools';
import {
  OpenAIChatAssistantMessageSchema,
  OpenAIChatCustomToolCallSchema,
  OpenAIChatCompletionSchema,
  OpenAIChatToolCallSchema,
} from './openai-chat-api';

function locateToolCalls(payload: unknown): { calls: unknown[]; path: string } {
  const root: WireLocation = { provider: 'openai-chat', path: '/' };
  if (Array.isArray(payload)) return { calls: payload, path: '' };
  if (isRecord(payload) && 'choices' in payload) {
    const completion = parseWire(OpenAIChatCompletionSchema, payload, root);
    const message = completion.choices[0]?.message;
    return { calls: message?.tool_calls ?? [], path: '/choices/0/message/tool_calls' };
  }
  if (isRecord(payload) && ('tool_calls' in payload || 'role' in payload)) {
    const message = parseWire(OpenAIChatAssistantMessageSchema, payload, root);
    return { calls: message.tool_calls ?? [], path: '/tool_calls' };
  }
  return unknownShape(root, 'a ChatCompletion, an assistant message or a tool_calls array');
}

/**
 * Reads every tool call from a ChatCompletion, an assistant message or a `tool_calls` array:
 * `arguments` text parsed (`""` is `{}`), wire names mapped back and strict-mode nulls undone
 * when the tools are given; unparseable arguments come back as errors carrying the raw text.
 * A `type: 'custom'` call is a free-text call: its `custom.input` is the `input` argument.
 */
export function parseOpenAIChatToolCalls(
  payload: unknown,
  options: CallsFromWireOptions = {},
): ParsedToolCalls {
  const { calls: wireCalls, path } = locateToolCalls(payload);
  const lookup = callLookup('openai-chat', options);
  const result: ParsedToolCalls = { calls: [], errors: [] };
  wireCalls.forEach((item, index) => {
    const location = { provider: 'openai-chat' as const, path: joinPointer(path, index) };
    if (isRecord(item) && item['type'] === 'custom') {
      const custom = parseWire(OpenAIChatCustomToolCallSchema, item, location);
      const { name } = lookUpTool(custom.custom.name, lookup);
      result.calls.push(makeTextCall({ id: custom.id, name, input: custom.custom.input }));
      return;
    }
    const call = parseWire(OpenAIChatToolCallSchema, item, location);
    const { name, tool } = lookUpTool(call.function.name, lookup);
    const args = readArgumentsText(call.function.arguments, {
      provider: 'openai-chat',
      path: joinPointer(location.path, 'function', 'arguments'),
      callId: call.id,
      name,
      tool,
    });
    if (args instanceof InvalidToolArgumentsError) {
      result.errors.push(args);
      return;
    }
    result.calls.push(
      makeCall({
        id: call.id,
        name,
        arguments: undoStrictNulls(args, tool),
        raw: call.function.arguments,
      }),
    );
  });
  return result;
}
