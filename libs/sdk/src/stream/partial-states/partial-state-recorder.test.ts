import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ToolCallStreamEvent } from '@toolgate/adapters';
import { PARTIAL_STATES_LIMITS, PartialArgumentStatesSchema } from '@toolgate/contract';
import { describe, expect, it } from 'vitest';
import { openAIChatToolCallStream } from '../../../test/support/fake-provider';
import { ToolgateSdkError } from '../../errors/toolgate-sdk-error';
import { streamToolCalls } from '../stream-tool-calls';
import { recordPartialStates } from './partial-state-recorder';

/** A clock the test moves: each read returns the next time given. */
function clockOf(...times: number[]): () => number {
  let index = 0;
  return () => times[Math.min(index++, times.length - 1)] ?? 0;
}

const start = (id: string, name = 'get_weather'): ToolCallStreamEvent => ({
  type: 'tool_call_start',
  id,
  name,
  index: 0,
});
const delta = (id: string, completePaths: string[]): ToolCallStreamEvent => ({
  type: 'tool_call_delta',
  id,
  partial: {},
  completePaths,
});
const end = (id: string, error?: 'incomplete_arguments'): ToolCallStreamEvent => ({
  type: 'tool_call_end',
  call: { id, name: 'get_weather', arguments: {} },
  ...(error === undefined
    ? {}
    : { error: { code: error, message: 'cut off', retryable: false as const } }),
});

/** A Chat Completions stream of `get_weather({"city":"Paris","days":[1,2]})`, its arguments in three deltas. */
function chatStream(): ReadableStream<Uint8Array> {
  const sse = openAIChatToolCallStream([
    { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } },
  ]);
  return new Blob([sse]).stream();
}

describe('recordPartialStates', () => {
  it('records the completed pointers of each delta with the time since the call’s first delta', () => {
    const recorder = recordPartialStates({ now: clockOf(1000, 1012, 1012, 1050) });
    for (const event of [
      start('call_1'),
      delta('call_1', []),
      delta('call_1', ['/city']),
      delta('call_1', []),
      delta('call_1', ['/days/0', '/days', '']),
      end('call_1'),
    ])
      recorder.observe(event);
    const states = recorder.statesOf('call_1');
    expect(states).toEqual({
      entries: [
        { offset_ms: 12, pointers: ['/city'] },
        { offset_ms: 50, pointers: ['/days/0', '/days', ''] },
      ],
      truncated: false,
    });
    // What it records is what the gateway accepts.
    expect(PartialArgumentStatesSchema.safeParse(states).success).toBe(true);
  });

  it('stops at its entry cap and marks the record truncated', () => {
    const recorder = recordPartialStates({ maxEntries: 2, now: clockOf(0, 1, 2, 3, 4) });
    recorder.observe(start('call_1'));
    for (const pointer of ['/a', '/b', '/c', '/d']) recorder.observe(delta('call_1', [pointer]));
    expect(recorder.statesOf('call_1')).toEqual({
      entries: [
        { offset_ms: 0, pointers: ['/a'] },
        { offset_ms: 1, pointers: ['/b'] },
      ],
      truncated: true,
    });
  });

  it('stops at its byte cap, counting the pointers as UTF-8', () => {
    const recorder = recordPartialStates({ maxBytes: 6, now: () => 0 });
    recorder.observe(start('call_1'));
    recorder.observe(delta('call_1', ['/ü'])); // 3 bytes
    recorder.observe(delta('call_1', ['/a'])); // 5
    recorder.observe(delta('call_1', ['/bb'])); // 8: past the cap
    recorder.observe(delta('call_1', ['/c'])); // would fit, but the record stopped growing
    expect(recorder.statesOf('call_1')).toEqual({
      entries: [
        { offset_ms: 0, pointers: ['/ü'] },
        { offset_ms: 0, pointers: ['/a'] },
      ],
      truncated: true,
    });
  });

  it('never lets an offset go back when the clock does', () => {
    const recorder = recordPartialStates({ now: clockOf(100, 140, 120) });
    recorder.observe(start('call_1'));
    recorder.observe(delta('call_1', ['/a']));
    recorder.observe(delta('call_1', ['/b']));
    recorder.observe(delta('call_1', ['/c']));
    expect(recorder.statesOf('call_1')?.entries.map((entry) => entry.offset_ms)).toEqual([
      0, 40, 40,
    ]);
  });

  it('refuses caps past the gateway’s limits', () => {
    expect(() => recordPartialStates({ maxEntries: PARTIAL_STATES_LIMITS.maxEntries + 1 })).toThrow(
      ToolgateSdkError,
    );
    expect(() => recordPartialStates({ maxBytes: -1 })).toThrow(/maxBytes must be an integer/);
  });

  it('gives the records to post by call id, leaving out calls that completed nothing', () => {
    const recorder = recordPartialStates({ now: () => 0 });
    recorder.observe(start('call_1'));
    recorder.observe(delta('call_1', ['']));
    recorder.observe(start('__proto__'));
    recorder.observe(delta('__proto__', ['/x']));
    recorder.observe(start('call_text'));
    recorder.observe(delta('call_text', []));
    expect(Object.keys(recorder.byCall())).toEqual(['call_1', '__proto__']);
    expect(recorder.byCall(['call_text', 'call_1', 'unknown'])).toEqual({
      call_1: { entries: [{ offset_ms: 0, pointers: [''] }], truncated: false },
    });
    expect(Object.getPrototypeOf(recorder.byCall())).toBe(Object.prototype);
  });

  it('records a real stream through streamToolCalls, copying paths the parser reuses', async () => {
    const recorder = recordPartialStates({ now: clockOf(0, 5, 9) });
    const seen: ToolCallStreamEvent[] = [];
    for await (const event of streamToolCalls('openai-chat', chatStream(), {
      partialStates: recorder,
    }))
      seen.push(event);
    expect(seen.map((event) => event.type)).toContain('tool_call_end');
    expect(recorder.statesOf('call_1')).toEqual({
      entries: [
        // `1` completes only at the `,` after it.
        { offset_ms: 5, pointers: ['/city'] },
        { offset_ms: 9, pointers: ['/days/0', '/days/1', '/days', ''] },
      ],
      truncated: false,
    });
  });
});

describe('partial states as span events', () => {
  it('gives each streamed call a span whose events are its states', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const recorder = recordPartialStates({
      tracer: provider.getTracer('partial-states-test'),
      now: clockOf(0, 5, 9),
    });
    for await (const event of streamToolCalls('openai-chat', chatStream(), {
      partialStates: recorder,
    }))
      void event;
    const [span, ...others] = exporter.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span?.name).toBe('stream_tool_call get_weather');
    expect(span?.attributes).toEqual({
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.tool.call.id': 'call_1',
      'toolgate.partial_states.entries': 2,
      'toolgate.partial_states.truncated': false,
    });
    expect(span?.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'toolgate.arguments.completed',
        { 'toolgate.arguments.pointers': ['/city'], 'toolgate.arguments.offset_ms': 5 },
      ],
      [
        'toolgate.arguments.completed',
        {
          'toolgate.arguments.pointers': ['/days/0', '/days/1', '/days', ''],
          'toolgate.arguments.offset_ms': 9,
        },
      ],
    ]);
    expect(span?.status.code).toBe(0);
  });

  it('marks truncation with one event and a failed call with an error status', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const recorder = recordPartialStates({
      tracer: provider.getTracer('partial-states-test'),
      maxEntries: 1,
      now: clockOf(0, 3, 7),
    });
    recorder.observe(start('call_1'));
    recorder.observe(delta('call_1', ['/a']));
    recorder.observe(delta('call_1', ['/b']));
    recorder.observe(delta('call_1', ['/c']));
    recorder.observe(end('call_1', 'incomplete_arguments'));
    const [span] = exporter.getFinishedSpans();
    expect(span?.events.map((event) => event.name)).toEqual([
      'toolgate.arguments.completed',
      'toolgate.arguments.truncated',
    ]);
    expect(span?.attributes).toMatchObject({
      'toolgate.partial_states.truncated': true,
      'error.type': 'incomplete_arguments',
    });
    expect(span?.status).toEqual({ code: 2, message: 'cut off' });
  });
});
