import { describe, expect, it } from 'vitest';
import { readEventStream, type ServerSentEvent } from './read-event-stream';

function body(chunks: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: readonly string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readEventStream(body(chunks))) events.push(event);
  return events;
}

describe('readEventStream', () => {
  it('joins lines split across chunks, CRLF split between chunks included', async () => {
    await expect(
      read(['\uFEFFid: 1\r\nevent: star', 'ted\r', '\ndata: {"a"', ':1}\r', '\n\r', '\n']),
    ).resolves.toEqual([{ event: 'started', data: '{"a":1}', id: '1' }]);
  });

  it('joins multi-line data, skips comments and defaults the event name', async () => {
    await expect(
      read([': keep-alive\n\ndata: one\ndata: two\n\nevent: finished\ndata:{}\n\n']),
    ).resolves.toEqual([
      { event: 'message', data: 'one\ntwo', id: undefined },
      { event: 'finished', data: '{}', id: undefined },
    ]);
  });

  it('drops an event the body ended before dispatching', async () => {
    await expect(read(['data: whole\n\ndata: cut'])).resolves.toEqual([
      { event: 'message', data: 'whole', id: undefined },
    ]);
  });
});
