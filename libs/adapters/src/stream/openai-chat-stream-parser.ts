import { ToolgateError } from '@toolgate/toolir';
import { errorEvent, EventReader, guardStream, providerErrorEvent } from './stream-event-shape';
import {
  StreamContext,
  type StreamedToolCall,
  type ToolCallStreamOptions,
} from './streamed-tool-call';
import type { ToolCallStream, ToolCallStreamEvent } from './tool-call-stream-event';

/** One `tool_calls[]` slot of a choice: a call whose name may not have arrived yet. */
interface ChatSlot {
  choice: number;
  id: string | undefined;
  wireName: string | undefined;
  /** Argument text received before the name (the call cannot start without one). */
  pending: string;
  call: StreamedToolCall | undefined;
}

/**
 * Reads OpenAI Chat Completions stream chunks (`chat.completion.chunk`, as the SDK yields them):
 * `choices[].delta.tool_calls[]` keyed by `index`, id and name on the first delta, argument
 * fragments after. A call ends on the choice's `finish_reason`, on a new id at its index, or at `end()`.
 */
export function createOpenAIChatStreamParser(options: ToolCallStreamOptions = {}): ToolCallStream {
  const context = new StreamContext('openai-chat', options);
  const read = new EventReader('openai-chat');
  const slots = new Map<string, ChatSlot>();
  const lastKey = new Map<number, string>();

  const finish = (key: string, events: ToolCallStreamEvent[]): void => {
    const slot = slots.get(key);
    if (slot === undefined) return;
    slots.delete(key);
    if (slot.call !== undefined) {
      slot.call.end(events, { how: 'signalled' });
      return;
    }
    events.push(
      errorEvent(
        new ToolgateError(
          'adapter_error',
          `openai-chat stream: the tool call at ${key} ended without a function name`,
          {
            details: { provider: 'openai-chat', slot: key, id: slot.id, arguments: slot.pending },
          },
        ),
      ),
    );
  };

  const slotKey = (
    choice: number,
    fields: { index: number | undefined; id: string | undefined; path: string },
  ): string => {
    if (fields.index !== undefined) return `${choice}:${fields.index}`;
    // Some OpenAI-compatible servers leave out `index`: the id, or else the last call of the choice, says which call it is.
    if (fields.id !== undefined) {
      for (const [key, slot] of slots) if (slot.id === fields.id) return key;
      return `${choice}:${fields.id}`;
    }
    const last = lastKey.get(choice);
    if (last === undefined)
      throw read.wrong(undefined, {
        path: `${fields.path}/index`,
        expected: 'an index (or id) identifying the tool call',
      });
    return last;
  };

  const toolCallDelta = (
    choice: number,
    at: { value: unknown; path: string },
    events: ToolCallStreamEvent[],
  ): void => {
    const path = at.path;
    const delta = read.record(at.value, path);
    const index = read.optionalIndex(delta['index'], `${path}/index`);
    const id = nonEmpty(read.optionalString(delta['id'], `${path}/id`));
    const fn = read.optionalRecord(delta['function'], `${path}/function`);
    const name = nonEmpty(read.optionalString(fn?.['name'], `${path}/function/name`));
    const fragment = read.optionalString(fn?.['arguments'], `${path}/function/arguments`) ?? '';
    const key = slotKey(choice, { index, id, path });
    let slot = slots.get(key);
    if (slot !== undefined && id !== undefined && slot.id !== undefined && id !== slot.id) {
      // A new id on an index in use is a new call: the previous one is finished.
      finish(key, events);
      slot = undefined;
    }
    if (slot === undefined) {
      slot = { choice, id, wireName: name, pending: '', call: undefined };
      slots.set(key, slot);
    } else {
      slot.id ??= id;
      slot.wireName ??= name;
    }
    lastKey.set(choice, key);
    if (slot.call === undefined && slot.wireName !== undefined) {
      slot.call = context.startCall(
        { id: slot.id ?? `call_${key.replace(':', '_')}`, wireName: slot.wireName },
        events,
      );
      slot.call.append(slot.pending, events);
      slot.pending = '';
    }
    if (slot.call !== undefined) slot.call.append(fragment, events);
    else slot.pending += fragment;
  };

  return guardStream({
    push(event, events) {
      const chunk = read.record(event, '');
      if (chunk['error'] !== undefined && chunk['error'] !== null) {
        events.push(providerErrorEvent('openai-chat', chunk['error']));
        return;
      }
      const choices = read.optionalArray(chunk['choices'], '/choices') ?? [];
      choices.forEach((value, position) => {
        const path = `/choices/${position}`;
        const choice = read.record(value, path);
        const choiceIndex = read.optionalIndex(choice['index'], `${path}/index`) ?? position;
        const delta = read.optionalRecord(choice['delta'], `${path}/delta`);
        if (delta !== undefined) {
          const content = read.optionalString(delta['content'], `${path}/delta/content`);
          if (content !== undefined && content !== '')
            events.push({ type: 'text_delta', text: content });
          const toolCalls =
            read.optionalArray(delta['tool_calls'], `${path}/delta/tool_calls`) ?? [];
          toolCalls.forEach((toolCall, at) =>
            toolCallDelta(
              choiceIndex,
              { value: toolCall, path: `${path}/delta/tool_calls/${at}` },
              events,
            ),
          );
        }
        if (read.optionalString(choice['finish_reason'], `${path}/finish_reason`) !== undefined) {
          for (const [key, slot] of [...slots])
            if (slot.choice === choiceIndex) finish(key, events);
        }
      });
    },
    end(events) {
      // The end of the stream is an end signal for Chat Completions (a stream may stop without finish_reason).
      for (const key of [...slots.keys()]) finish(key, events);
    },
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}
