import { EventReader, guardStream, providerErrorEvent } from './stream-event-shape';
import {
  StreamContext,
  type StreamedToolCall,
  type ToolCallStreamOptions,
} from './streamed-tool-call';
import type { ToolCallStream, ToolCallStreamEvent } from './tool-call-stream-event';

/** An open content block: a client tool call, or another block (text, thinking, server tool) whose deltas carry no call. */
type OpenBlock = { call: StreamedToolCall; input: Record<string, unknown> | undefined } | 'other';

/**
 * Reads Anthropic Messages stream events (as the SDK yields them): a `tool_use` block from
 * `content_block_start`, `input_json_delta.partial_json` fragments, ended by `content_block_stop`.
 * Block indexes are shared with text and thinking blocks; a tool without input streams `""`, which is `{}`.
 */
export function createAnthropicStreamParser(options: ToolCallStreamOptions = {}): ToolCallStream {
  const context = new StreamContext('anthropic', options);
  const read = new EventReader('anthropic');
  const blocks = new Map<number, OpenBlock>();

  const cutOpenCalls = (events: ToolCallStreamEvent[]): void => {
    for (const block of blocks.values())
      if (block !== 'other' && !block.call.isEnded) block.call.end(events, { how: 'cut' });
    blocks.clear();
  };

  return guardStream({
    push(value, events) {
      const event = read.record(value, '');
      const type = read.string(event['type'], '/type');
      switch (type) {
        case 'message_start':
          // A new message restarts block indexes; a call left open by the previous one never got its stop.
          cutOpenCalls(events);
          return;
        case 'content_block_start': {
          const index = read.index(event['index'], '/index');
          const block = read.record(event['content_block'], '/content_block');
          const blockType = read.string(block['type'], '/content_block/type');
          const previous = blocks.get(index);
          if (previous !== undefined && previous !== 'other')
            previous.call.end(events, { how: 'cut' });
          if (blockType === 'tool_use') {
            const call = context.startCall(
              {
                id: read.string(block['id'], '/content_block/id'),
                wireName: read.string(block['name'], '/content_block/name'),
              },
              events,
            );
            blocks.set(index, {
              call,
              input: read.optionalRecord(block['input'], '/content_block/input'),
            });
            return;
          }
          blocks.set(index, 'other');
          if (blockType === 'text') {
            const text = read.optionalString(block['text'], '/content_block/text');
            if (text !== undefined && text !== '') events.push({ type: 'text_delta', text });
          }
          return;
        }
        case 'content_block_delta': {
          const index = read.index(event['index'], '/index');
          const delta = read.record(event['delta'], '/delta');
          const deltaType = read.string(delta['type'], '/delta/type');
          if (deltaType === 'text_delta') {
            events.push({ type: 'text_delta', text: read.string(delta['text'], '/delta/text') });
          } else if (deltaType === 'input_json_delta') {
            const fragment = read.string(delta['partial_json'], '/delta/partial_json');
            const block = blocks.get(index);
            if (block === undefined)
              throw read.wrong(index, {
                path: '/index',
                expected: 'the index of an open content block',
              });
            if (block !== 'other') block.call.append(fragment, events);
          }
          return;
        }
        case 'content_block_stop': {
          const index = read.index(event['index'], '/index');
          const block = blocks.get(index);
          blocks.delete(index);
          if (block === undefined || block === 'other') return;
          // Without deltas the block's own `input` is the whole input (replays, some proxies).
          if (
            block.call.text === '' &&
            block.input !== undefined &&
            Object.keys(block.input).length > 0
          )
            block.call.endWith(block.input, events);
          else block.call.end(events, { how: 'signalled' });
          return;
        }
        case 'error':
          events.push(providerErrorEvent('anthropic', event['error'] ?? event));
          return;
        default:
          // message_delta, message_stop, ping and future events carry no tool-call content.
          return;
      }
    },
    end(events) {
      cutOpenCalls(events);
    },
  });
}
