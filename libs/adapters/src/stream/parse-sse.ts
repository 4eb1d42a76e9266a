import { ToolgateError } from '@toolgate/toolir';
import { safeParseJson } from '../shared/safe-parse-json';

/** An incremental Server-Sent Events decoder for provider HTTP bodies. */
export interface SseJsonDecoder {
  /**
   * Takes the next piece of the body (text or bytes, split anywhere) and returns the data of every
   * event it completed, parsed as JSON; data that is not JSON comes back as an `invalid_json`
   * ToolgateError value in its place (a tool-call stream's `push` turns it into an `error` event).
   */
  push(chunk: string | Uint8Array): unknown[];
  /** Ends the body; an event without its closing blank line is discarded, as the SSE spec requires. */
  end(): unknown[];
  /** OpenAI's `data: [DONE]` sentinel was seen (it is not returned as an event). */
  readonly done: boolean;
  /** The `event:` name of the last event returned; informational (Anthropic and Responses data carry their own `type`). */
  readonly lastEventName: string;
}

const LF = 10;
const CR = 13;

/**
 * Creates a decoder of `text/event-stream` bodies per the WHATWG HTML spec (section 9.2.6): lines end
 * in CRLF, CR or LF (also split across chunks), `data:` lines are joined with LF, `:` lines are
 * comments, `event:` names the event, a leading BOM is dropped, and one space after the colon is removed.
 */
export function parseSSE(): SseJsonDecoder {
  return new SseDecoder();
}

class SseDecoder implements SseJsonDecoder {
  done = false;
  lastEventName = '';
  private readonly decoder = new TextDecoder();
  private started = false;
  /** The unfinished line carried over from earlier chunks. */
  private line = '';
  /** The previous chunk ended in CR: an LF at the start of this one belongs to the same line break. */
  private skipLineFeed = false;
  private data: string[] = [];
  private eventName = '';

  push(chunk: string | Uint8Array): unknown[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.feed(text);
  }

  end(): unknown[] {
    const rest = this.decoder.decode();
    const events = rest === '' ? [] : this.feed(rest);
    // The spec discards an event that the body ended before dispatching.
    this.line = '';
    this.data = [];
    this.eventName = '';
    return events;
  }

  private feed(input: string): unknown[] {
    let text = input;
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: unknown[] = [];
    let start = 0;
    if (this.skipLineFeed && text.charCodeAt(0) === LF) start = 1;
    this.skipLineFeed = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== LF && code !== CR) continue;
      const piece = text.slice(start, index);
      const line = this.line === '' ? piece : this.line + piece;
      this.line = '';
      this.processLine(line, events);
      if (code === CR) {
        if (index + 1 === text.length) this.skipLineFeed = true;
        else if (text.charCodeAt(index + 1) === LF) index++;
      }
      start = index + 1;
    }
    if (start < text.length) this.line += text.slice(start);
    return events;
  }

  private processLine(line: string, events: unknown[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' starts a comment (keep-alives)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    // `id` and `retry` matter for reconnection only; unknown fields are ignored by the spec.
  }

  private dispatch(events: unknown[]): void {
    const name = this.eventName;
    this.eventName = '';
    if (this.data.length === 0) return;
    const data = this.data.join('\n');
    this.data = [];
    this.lastEventName = name === '' ? 'message' : name;
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    const parsed = safeParseJson(data);
    if (parsed.ok) {
      events.push(parsed.value);
      return;
    }
    events.push(
      new ToolgateError('invalid_json', `SSE event data is not JSON: ${parsed.error.message}`, {
        details: {
          event: this.lastEventName,
          data: data.length > 200 ? `${data.slice(0, 200)}…` : data,
          position: parsed.error.position,
        },
      }),
    );
  }
}
