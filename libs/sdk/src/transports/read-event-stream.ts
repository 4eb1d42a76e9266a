/** One dispatched Server-Sent Event. */
export interface ServerSentEvent {
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with LF. */
  data: string;
  /** The last `id:` seen, for `Last-Event-ID` on reconnect. */
  id: string | undefined;
}

/**
 * Decodes a `text/event-stream` body per the WHATWG HTML spec (§9.2.6): CR, LF or CRLF line ends split
 * anywhere across chunks, `:` comments, multi-line `data`, and an event dispatched only at its blank line.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && buffer !== '') {
        first = false;
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      }
      // A trailing CR may pair with an LF at the start of the next chunk: hold it back.
      const carry = !done && buffer.endsWith('\r') ? '\r' : '';
      const lines = (carry === '' ? buffer : buffer.slice(0, -1)).split(/\r\n|\r|\n/);
      // The last piece is an unfinished line, unless the body ended.
      buffer = (done ? '' : (lines.pop() ?? '')) + carry;
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0)
            yield { event: event === '' ? 'message' : event, data: data.join('\n'), id };
          data = [];
          event = '';
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let fieldValue = colon === -1 ? '' : line.slice(colon + 1);
        if (fieldValue.startsWith(' ')) fieldValue = fieldValue.slice(1);
        if (field === 'data') data.push(fieldValue);
        else if (field === 'event') event = fieldValue;
        else if (field === 'id' && !fieldValue.includes('\0')) id = fieldValue;
      }
      if (done) return;
    }
  } finally {
    // Stops the download when the consumer leaves early (every call finished, or an error).
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
