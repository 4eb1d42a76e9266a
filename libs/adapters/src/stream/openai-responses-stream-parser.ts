import { isRecord } from '@toolgate/toolir';
import { EventReader, guardStream, providerErrorEvent } from './stream-event-shape';
import {
  StreamContext,
  type StreamedToolCall,
  type ToolCallStreamOptions,
} from './streamed-tool-call';
import type { ToolCallStream, ToolCallStreamEvent } from './tool-call-stream-event';

/**
 * Reads OpenAI Responses stream events (as the SDK yields them): a `function_call` item announced by
 * `response.output_item.added`, argument fragments in `response.function_call_arguments.delta`
 * (keyed by `item_id`, else `output_index`), ended by `.done` or `response.output_item.done`,
 * whose full `arguments` text is authoritative. A `custom_tool_call` item is a free-text call, its
 * input streamed by `response.custom_tool_call_input.delta` / `.done`. Calls still open at `end()`
 * are incomplete.
 */
export function createOpenAIResponsesStreamParser(
  options: ToolCallStreamOptions = {},
): ToolCallStream {
  const context = new StreamContext('openai-responses', options);
  const read = new EventReader('openai-responses');
  const calls = new Map<string, StreamedToolCall>();
  const itemAt = new Map<number, string>();

  const start = (
    item: Record<string, unknown>,
    outputIndex: number | undefined,
    events: ToolCallStreamEvent[],
  ): StreamedToolCall => {
    const itemId = read.string(item['id'], '/item/id');
    const callId = read.optionalString(item['call_id'], '/item/call_id') ?? itemId;
    const text = item['type'] === 'custom_tool_call';
    const call = context.startCall(
      { id: callId, wireName: read.string(item['name'], '/item/name'), text },
      events,
    );
    calls.set(itemId, call);
    if (outputIndex !== undefined) itemAt.set(outputIndex, itemId);
    call.append(
      read.optionalString(
        item[text ? 'input' : 'arguments'],
        `/item/${text ? 'input' : 'arguments'}`,
      ) ?? '',
      events,
    );
    return call;
  };

  const find = (event: Record<string, unknown>): StreamedToolCall => {
    const itemId = read.optionalString(event['item_id'], '/item_id');
    const outputIndex = read.optionalIndex(event['output_index'], '/output_index');
    const key =
      itemId !== undefined && calls.has(itemId)
        ? itemId
        : outputIndex === undefined
          ? undefined
          : itemAt.get(outputIndex);
    const call = key === undefined ? undefined : calls.get(key);
    if (call === undefined) {
      throw read.wrong(itemId, {
        path: '/item_id',
        expected:
          'the id of a function_call or custom_tool_call item announced by response.output_item.added',
      });
    }
    return call;
  };

  const isFunctionCall = (event: Record<string, unknown>): Record<string, unknown> | undefined => {
    const item = read.record(event['item'], '/item');
    return item['type'] === 'function_call' || item['type'] === 'custom_tool_call'
      ? item
      : undefined;
  };

  return guardStream({
    push(value, events) {
      const event = read.record(value, '');
      const type = read.string(event['type'], '/type');
      switch (type) {
        case 'response.output_item.added': {
          const item = isFunctionCall(event);
          if (item !== undefined)
            start(item, read.optionalIndex(event['output_index'], '/output_index'), events);
          return;
        }
        case 'response.function_call_arguments.delta':
        case 'response.custom_tool_call_input.delta':
          find(event).append(read.string(event['delta'], '/delta'), events);
          return;
        case 'response.custom_tool_call_input.done':
          find(event).end(events, {
            how: 'signalled',
            finalText: read.optionalString(event['input'], '/input'),
          });
          return;
        case 'response.function_call_arguments.done':
          find(event).end(events, {
            how: 'signalled',
            finalText: read.optionalString(event['arguments'], '/arguments'),
          });
          return;
        case 'response.output_item.done': {
          const item = isFunctionCall(event);
          if (item === undefined) return;
          const itemId = read.string(item['id'], '/item/id');
          const field = item['type'] === 'custom_tool_call' ? 'input' : 'arguments';
          const finalText = read.optionalString(item[field], `/item/${field}`);
          const call =
            calls.get(itemId) ??
            start(
              { ...item, [field]: '' },
              read.optionalIndex(event['output_index'], '/output_index'),
              events,
            );
          call.end(events, { how: 'signalled', finalText });
          return;
        }
        case 'response.output_text.delta':
          events.push({ type: 'text_delta', text: read.string(event['delta'], '/delta') });
          return;
        case 'error':
          events.push(providerErrorEvent('openai-responses', event));
          return;
        case 'response.failed': {
          const response = isRecord(event['response']) ? event['response'] : {};
          events.push(providerErrorEvent('openai-responses', response['error'] ?? event));
          return;
        }
        default:
          // Lifecycle, reasoning, refusal and hosted-tool events carry no function calls.
          return;
      }
    },
    end(events) {
      for (const call of calls.values()) if (!call.isEnded) call.end(events, { how: 'cut' });
    },
  });
}
