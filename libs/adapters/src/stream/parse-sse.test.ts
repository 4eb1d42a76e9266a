import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { createRandom } from './__fixtures__/random-json-document';
import { parseSSE } from './parse-sse';

const fixtures = join(import.meta.dirname, '__fixtures__');

function decodeAll(chunks: ReadonlyArray<string | Uint8Array>): {
  events: unknown[];
  done: boolean;
} {
  const decoder = parseSSE();
  const events = chunks.flatMap((chunk) => decoder.push(chunk));
  events.push(...decoder.end());
  return { events, done: decoder.done };
}

describe('parseSSE', () => {
  it('joins data lines with LF and reads event names, ignoring comments, id and retry', () => {
    const decoder = parseSSE();
    const events = decoder.push(
      ': keep-alive\nevent: message_start\nid: 7\nretry: 1000\ndata: {"a":\ndata:  1}\n\n',
    );
    expect(events).toEqual([{ a: 1 }]);
    expect(decoder.lastEventName).toBe('message_start');
  });

  it('accepts CRLF, CR and LF line ends, mixed and split across chunks', () => {
    const body = 'data: {"n":1}\r\n\r\ndata: {"n":2}\r\rdata: {"n":3}\n\ndata:{"n":4}\r\n\r\n';
    for (let cut = 0; cut <= body.length; cut++) {
      expect(decodeAll([body.slice(0, cut), body.slice(cut)]).events, `cut at ${cut}`).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
        { n: 4 },
      ]);
    }
  });

  it('splits UTF-8 bytes anywhere, even inside a multi-byte character', () => {
    const body = new TextEncoder().encode('data: {"t":"héllo 😀 中文"}\n\n');
    for (let cut = 0; cut <= body.length; cut++) {
      expect(decodeAll([body.slice(0, cut), body.slice(cut)]).events).toEqual([
        { t: 'héllo 😀 中文' },
      ]);
    }
  });

  it('drops a leading BOM and removes only one space after the colon', () => {
    expect(decodeAll(['\uFEFFdata: "x"\n\n']).events).toEqual(['x']);
    const decoder = parseSSE();
    decoder.push('event:  two\ndata: 1\n\n');
    expect(decoder.lastEventName).toBe(' two');
  });

  it('recognizes the [DONE] sentinel without returning it', () => {
    const result = decodeAll(['data: {"a":1}\n\ndata: [DONE]\n\n']);
    expect(result.events).toEqual([{ a: 1 }]);
    expect(result.done).toBe(true);
  });

  it('discards an event the body ends before dispatching', () => {
    expect(decodeAll(['data: {"a":1}\n\ndata: {"b":2}\n']).events).toEqual([{ a: 1 }]);
  });

  it('returns undecodable data as an invalid_json ToolgateError value, never throws', () => {
    const { events } = decodeAll(['event: x\ndata: {oops\n\ndata: {"ok":true}\n\n']);
    expect(ToolgateError.isInstance(events[0])).toBe(true);
    expect((events[0] as ToolgateError).code).toBe('invalid_json');
    expect(events[1]).toEqual({ ok: true });
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'])(
    'decodes the %s fixtures identically at random split points',
    (provider) => {
      for (const calls of [1, 2, 3]) {
        const body = readFileSync(join(fixtures, `${provider}-${calls}-calls.sse.txt`));
        const expected = JSON.parse(
          readFileSync(join(fixtures, `${provider}-${calls}-calls.events.json`), 'utf8'),
        ) as unknown[];
        expect(decodeAll([body]).events).toEqual(expected);
        const random = createRandom(calls);
        for (let sample = 0; sample < 60; sample++) {
          const chunks: Uint8Array[] = [];
          for (let index = 0; index < body.length;) {
            const size = 1 + Math.floor(random() * 64);
            chunks.push(body.subarray(index, index + size));
            index += size;
          }
          expect(decodeAll(chunks).events).toEqual(expected);
        }
      }
    },
  );
});
