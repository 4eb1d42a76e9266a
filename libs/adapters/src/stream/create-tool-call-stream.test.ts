import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError, type ToolCallIR, type ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { parseGeminiToolCalls } from '../gemini/parse-gemini-tool-calls';
import { toWireName } from '../shared/names/tool-name-map';
import { synthesizeCallId } from '../shared/synthesize-call-id';
import { createToolCallStream } from './create-tool-call-stream';
import { parseSSE } from './parse-sse';
import type { ToolCallEndEvent, ToolCallStreamEvent } from './tool-call-stream-event';

type StreamProvider = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini';
const PROVIDERS: StreamProvider[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini'];
const fixtures = join(import.meta.dirname, '__fixtures__');

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as unknown;
}

function run(
  provider: StreamProvider,
  events: readonly unknown[],
  options: Parameters<typeof createToolCallStream>[1] = {},
): ToolCallStreamEvent[] {
  const stream = createToolCallStream(provider, options);
  const out = events.flatMap((event) => stream.push(event));
  out.push(...stream.end());
  return out;
}

const ends = (events: ToolCallStreamEvent[]): ToolCallEndEvent[] =>
  events.filter((event): event is ToolCallEndEvent => event.type === 'tool_call_end');
const calls = (events: ToolCallStreamEvent[]): ToolCallIR[] =>
  ends(events).map((event) => event.call);
const errors = (events: ToolCallStreamEvent[]): ToolgateError[] =>
  events.flatMap((event) => (event.type === 'error' ? [event.error] : []));

function expectedCalls(provider: StreamProvider, count: number): ToolCallIR[] {
  const expected = readJson(`${provider}-${count}-calls.expected.json`) as Array<
    ToolCallIR & { id: string | null }
  >;
  // Gemini sends no ids: the stream must mint the ids the Gemini adapter mints.
  return expected.map((call, ordinal) => ({
    ...call,
    id: call.id ?? synthesizeCallId({ name: call.name, ordinal, arguments: call.arguments }),
  }));
}

/** Builds a provider's events for calls whose argument text arrives in the given fragments. */
function eventsFor(
  provider: StreamProvider,
  specs: Array<{ id: string; name: string; fragments: string[] }>,
): unknown[] {
  switch (provider) {
    case 'openai-chat':
      return [
        ...specs.flatMap((spec, index) => [
          {
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    {
                      index,
                      id: spec.id,
                      type: 'function',
                      function: { name: spec.name, arguments: '' },
                    },
                  ],
                },
                finish_reason: null,
              },
            ],
          },
          ...spec.fragments.map((fragment) => ({
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index, function: { arguments: fragment } }] },
                finish_reason: null,
              },
            ],
          })),
        ]),
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      ];
    case 'openai-responses':
      return specs.flatMap((spec, index) => [
        {
          type: 'response.output_item.added',
          output_index: index,
          item: {
            id: `fc_${index}`,
            type: 'function_call',
            call_id: spec.id,
            name: spec.name,
            arguments: '',
          },
        },
        ...spec.fragments.map((delta) => ({
          type: 'response.function_call_arguments.delta',
          item_id: `fc_${index}`,
          output_index: index,
          delta,
        })),
        {
          type: 'response.function_call_arguments.done',
          item_id: `fc_${index}`,
          output_index: index,
          arguments: spec.fragments.join(''),
        },
      ]);
    case 'anthropic':
      return specs.flatMap((spec, index) => [
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: spec.id, name: spec.name, input: {} },
        },
        ...spec.fragments.map((partial_json) => ({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json },
        })),
        { type: 'content_block_stop', index },
      ]);
    case 'gemini':
      return [
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: specs.map((spec) => ({
                  functionCall: {
                    id: spec.id,
                    name: spec.name,
                    args: JSON.parse(spec.fragments.join('') || '{}') as unknown,
                  },
                })),
              },
            },
          ],
        },
      ];
  }
}

function tool(name: string, parameters: Record<string, unknown>): ToolIR {
  return {
    schema_version: '1.0',
    id: '6f1c2f0e-3c1a-4d2b-9e8f-0a1b2c3d4e5f',
    name,
    version: '1.0.0',
    description: `The ${name} tool.`,
    parameters,
    behavior: {
      readonly: true,
      destructive: false,
      idempotent: true,
      open_world: true,
      requires_approval: 'never',
    },
    constraints: { timeout_ms: 1000, max_retries: 0 },
  };
}

const WEATHER = tool('get_weather', {
  type: 'object',
  properties: { location: { type: 'string' }, unit: { enum: ['celsius', 'fahrenheit'] } },
  required: ['location'],
  additionalProperties: false,
});

describe.each(PROVIDERS)('%s fixtures', (provider) => {
  it.each([1, 2, 3])(
    'streams %i parallel call(s) to the same calls as the whole payload',
    (count) => {
      const events = readJson(`${provider}-${count}-calls.events.json`) as unknown[];
      const out = run(provider, events);
      expect(errors(out)).toEqual([]);
      expect(calls(out)).toEqual(expectedCalls(provider, count));
      expect(ends(out).every((event) => event.error === undefined)).toBe(true);

      // Order per call: start, deltas, end; starts numbered from 0 in stream order.
      const starts = out.filter((event) => event.type === 'tool_call_start');
      expect(starts.map((event) => event.index)).toEqual([...Array(count).keys()]);
      for (const start of starts) {
        const own = out.filter(
          (event) =>
            ('id' in event && event.id === start.id) ||
            (event.type === 'tool_call_end' && event.call.id === start.id),
        );
        expect(own[0]).toBe(start);
        expect(own.at(-1)?.type).toBe('tool_call_end');
        const last = own.filter((event) => event.type === 'tool_call_delta').at(-1);
        expect(last?.type === 'tool_call_delta' ? last.partial : undefined).toEqual(
          (own.at(-1) as ToolCallEndEvent).call.arguments,
        );
      }
    },
  );

  it.each([1, 2, 3])(
    'reads the raw SSE body of %i call(s) through parseSSE to the same result',
    (count) => {
      const body = readFileSync(join(fixtures, `${provider}-${count}-calls.sse.txt`));
      const decoder = parseSSE();
      const stream = createToolCallStream(provider);
      const out: ToolCallStreamEvent[] = [];
      // Small byte chunks, as a network delivers them.
      for (let index = 0; index < body.length; index += 7)
        for (const event of decoder.push(body.subarray(index, index + 7)))
          out.push(...stream.push(event));
      for (const event of decoder.end()) out.push(...stream.push(event));
      out.push(...stream.end());
      expect(calls(out)).toEqual(expectedCalls(provider, count));
      if (provider === 'openai-chat') expect(decoder.done).toBe(true);
    },
  );
});

describe.each(PROVIDERS.filter((provider) => provider !== 'gemini'))(
  '%s argument fragments',
  (provider) => {
    const text = '{"location": "Zürich \\"HB\\" 🚉", "unit": "celsius"}';
    const value = JSON.parse(text) as Record<string, unknown>;

    it('gives the same call for every 2-split of the argument text', () => {
      for (let cut = 0; cut <= text.length; cut++) {
        const out = run(
          provider,
          eventsFor(provider, [
            { id: 'call_1', name: 'get_weather', fragments: [text.slice(0, cut), text.slice(cut)] },
          ]),
          { tools: [WEATHER] },
        );
        expect(ends(out)).toEqual([
          {
            type: 'tool_call_end',
            call: { id: 'call_1', name: 'get_weather', arguments: value, raw_arguments: text },
          },
        ]);
      }
    });

    it('gives the same call for a sample of 3-splits', () => {
      for (let first = 0; first <= text.length; first += 3) {
        for (let second = first; second <= text.length; second += 5) {
          const fragments = [text.slice(0, first), text.slice(first, second), text.slice(second)];
          const out = run(
            provider,
            eventsFor(provider, [{ id: 'call_1', name: 'get_weather', fragments }]),
          );
          expect(calls(out)).toEqual([
            { id: 'call_1', name: 'get_weather', arguments: value, raw_arguments: text },
          ]);
        }
      }
    });

    it('never ends a call because its buffer parses: only the end signal ends it', () => {
      const events = eventsFor(provider, [
        { id: 'call_1', name: 'get_weather', fragments: ['{"location": "Oslo"}'] },
      ]);
      const stream = createToolCallStream(provider);
      const before = events.slice(0, -1).flatMap((event) => stream.push(event));
      expect(ends(before)).toEqual([]);
      expect(ends(stream.push(events.at(-1)))).toHaveLength(1);
    });

    it('reports arguments that are not JSON as invalid_arguments with the position', () => {
      const out = run(
        provider,
        eventsFor(provider, [
          { id: 'call_1', name: 'get_weather', fragments: ['{"location": ', 'Oslo}'] },
        ]),
      );
      const [end] = ends(out);
      expect(end?.call).toEqual({
        id: 'call_1',
        name: 'get_weather',
        arguments: {},
        raw_arguments: '{"location": Oslo}',
      });
      expect(end?.error).toMatchObject({
        code: 'invalid_arguments',
        retryable: false,
        details: { position: 13, found: 'O' },
      });
    });

    it('reports arguments cut off before the end signal as incomplete_arguments', () => {
      const out = run(
        provider,
        eventsFor(provider, [
          { id: 'call_1', name: 'get_weather', fragments: ['{"location": "Os'] },
        ]),
      );
      expect(ends(out)[0]?.error).toMatchObject({ code: 'incomplete_arguments', retryable: false });
      // The call says it was cut and carries what arrived, so the app can send it to the gateway.
      expect(ends(out)[0]?.call).toMatchObject({ cut: true, raw_arguments: '{"location": "Os' });
    });

    it('reports arguments that are not an object as invalid_arguments', () => {
      const out = run(
        provider,
        eventsFor(provider, [{ id: 'call_1', name: 'get_weather', fragments: ['[1, 2]'] }]),
      );
      expect(ends(out)[0]?.error).toMatchObject({
        code: 'invalid_arguments',
        details: { expected: 'object' },
      });
    });

    it('ends a call with empty arguments as {}', () => {
      const out = run(
        provider,
        eventsFor(provider, [{ id: 'call_1', name: 'get_time', fragments: [''] }]),
      );
      expect(ends(out)).toEqual([
        { type: 'tool_call_end', call: { id: 'call_1', name: 'get_time', arguments: {} } },
      ]);
    });
  },
);

describe('validation against the tools', () => {
  it.each(PROVIDERS)(
    '%s: validates arguments, maps wire names back and rejects unknown tools',
    (provider) => {
      const dotted = tool('billing.refund', {
        type: 'object',
        properties: { amount: { type: 'number', maximum: 100 } },
        required: ['amount'],
      });
      const wire = toWireName('billing.refund', provider);
      const out = run(
        provider,
        eventsFor(provider, [
          {
            id: 'call_a',
            name: 'get_weather',
            fragments: ['{"location": "Rome", ', '"unit": "kelvin"}'],
          },
          { id: 'call_b', name: wire, fragments: ['{"amount": 20}'] },
          { id: 'call_c', name: 'launch_rockets', fragments: ['{}'] },
          { id: 'call_d', name: 'get_weather', fragments: ['{"location": "Rome"}'] },
        ]),
        { tools: [WEATHER, dotted] },
      );
      const [invalid, mapped, unknown, valid] = ends(out);
      expect(invalid?.error).toMatchObject({
        code: 'invalid_arguments',
        retryable: false,
        details: { errors: [expect.objectContaining({ path: '/unit' })] },
      });
      expect(invalid?.error?.message).toContain('/unit');
      expect(mapped?.call.name).toBe('billing.refund');
      expect(mapped?.error).toBeUndefined();
      expect(unknown?.error).toMatchObject({
        code: 'unknown_tool',
        details: { name: 'launch_rockets', available: ['get_weather', 'billing.refund'] },
      });
      expect(valid?.error).toBeUndefined();
      expect(
        out.find((event) => event.type === 'tool_call_start' && event.id === 'call_b'),
      ).toMatchObject({ name: 'billing.refund' });
    },
  );
});

describe('openai-chat specifics', () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const fragment = (index: number, text: string, extra: Record<string, unknown> = {}): unknown =>
    chunk({ tool_calls: [{ index, ...extra, function: { arguments: text } }] });

  it('handles indexes that do not start at 0 and interleaved calls', () => {
    const out = run('openai-chat', [
      chunk({ content: 'Checking.' }),
      chunk({
        tool_calls: [
          { index: 3, id: 'call_x', type: 'function', function: { name: 'a', arguments: '{"n"' } },
        ],
      }),
      chunk({
        tool_calls: [
          {
            index: 5,
            id: 'call_y',
            type: 'function',
            function: { name: 'b', arguments: '{"m": ' },
          },
        ],
      }),
      fragment(3, ': 1}'),
      fragment(5, '2}'),
      chunk({}, 'tool_calls'),
    ]);
    expect(out[0]).toEqual({ type: 'text_delta', text: 'Checking.' });
    expect(out.filter((event) => event.type === 'tool_call_start')).toEqual([
      { type: 'tool_call_start', id: 'call_x', name: 'a', index: 0 },
      { type: 'tool_call_start', id: 'call_y', name: 'b', index: 1 },
    ]);
    expect(calls(out)).toEqual([
      { id: 'call_x', name: 'a', arguments: { n: 1 }, raw_arguments: '{"n": 1}' },
      { id: 'call_y', name: 'b', arguments: { m: 2 }, raw_arguments: '{"m": 2}' },
    ]);
  });

  it('treats a new id on a reused index as a new call', () => {
    const stream = createToolCallStream('openai-chat');
    stream.push(
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', function: { name: 'a', arguments: '{"x": 1}' } }],
      }),
    );
    const second = stream.push(
      chunk({ tool_calls: [{ index: 0, id: 'call_2', function: { name: 'b', arguments: '{}' } }] }),
    );
    expect(second.map((event) => event.type)).toEqual([
      'tool_call_end',
      'tool_call_start',
      'tool_call_delta',
    ]);
    expect(calls([...second, ...stream.end()]).map((call) => call.id)).toEqual([
      'call_1',
      'call_2',
    ]);
  });

  it('accepts compatible servers that omit index, or repeat id and name on every delta', () => {
    const out = run('openai-chat', [
      chunk({ tool_calls: [{ id: 'call_1', function: { name: 'a', arguments: '{"x"' } }] }),
      chunk({ tool_calls: [{ id: 'call_1', function: { name: 'a', arguments: ': 1}' } }] }),
      chunk({ tool_calls: [{ id: 'call_2', function: { name: 'b', arguments: '{' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '}' } }] }),
    ]);
    expect(calls(out)).toEqual([
      { id: 'call_1', name: 'a', arguments: { x: 1 }, raw_arguments: '{"x": 1}' },
      { id: 'call_2', name: 'b', arguments: {}, raw_arguments: '{}' },
    ]);
  });

  it('waits for the name before starting a call', () => {
    const out = run('openai-chat', [
      chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'late', arguments: ' 1}' } }] }),
    ]);
    expect(out[0]).toEqual({ type: 'tool_call_start', id: 'call_1', name: 'late', index: 0 });
    expect(calls(out)).toEqual([
      { id: 'call_1', name: 'late', arguments: { x: 1 }, raw_arguments: '{"x": 1}' },
    ]);
  });

  it('ends calls at finish_reason, before end()', () => {
    const stream = createToolCallStream('openai-chat');
    stream.push(
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', function: { name: 'a', arguments: '{"q": "ab' } }],
      }),
    );
    const finished = stream.push(chunk({}, 'length'));
    expect(ends(finished)[0]?.error).toMatchObject({ code: 'incomplete_arguments' });
    expect(stream.end()).toEqual([]);
  });

  it('ends open calls at the end of the stream when no finish_reason came', () => {
    const out = run('openai-chat', [
      chunk({
        tool_calls: [{ index: 0, id: 'call_1', function: { name: 'a', arguments: '{"q": 1}' } }],
      }),
    ]);
    expect(ends(out)).toEqual([
      {
        type: 'tool_call_end',
        call: { id: 'call_1', name: 'a', arguments: { q: 1 }, raw_arguments: '{"q": 1}' },
      },
    ]);
  });

  it('reports a call that never got a name as an error event', () => {
    const out = run('openai-chat', [
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
    ]);
    expect(ends(out)).toEqual([]);
    expect(errors(out)[0]?.code).toBe('adapter_error');
  });
});

describe('openai-responses specifics', () => {
  it('prefers the final arguments text of .done over the deltas', () => {
    const out = run('openai-responses', [
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'a', arguments: '' },
      },
      {
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_1',
        output_index: 0,
        delta: '{"x": 1',
      },
      {
        type: 'response.function_call_arguments.done',
        item_id: 'fc_1',
        output_index: 0,
        arguments: '{"x": 12}',
      },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          id: 'fc_1',
          type: 'function_call',
          call_id: 'call_1',
          name: 'a',
          arguments: '{"x": 12}',
        },
      },
    ]);
    expect(calls(out)).toEqual([
      { id: 'call_1', name: 'a', arguments: { x: 12 }, raw_arguments: '{"x": 12}' },
    ]);
  });

  it('finds a call by output_index when item_id is missing, and ends one seen only in output_item.done', () => {
    const out = run('openai-responses', [
      {
        type: 'response.output_item.added',
        output_index: 2,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'a', arguments: '' },
      },
      { type: 'response.function_call_arguments.delta', output_index: 2, delta: '{}' },
      {
        type: 'response.output_item.done',
        output_index: 2,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'a', arguments: '{}' },
      },
      {
        type: 'response.output_item.done',
        output_index: 3,
        item: {
          id: 'fc_2',
          type: 'function_call',
          call_id: 'call_2',
          name: 'b',
          arguments: '{"y": true}',
        },
      },
      {
        type: 'response.output_text.delta',
        item_id: 'msg_1',
        output_index: 4,
        content_index: 0,
        delta: 'Done.',
      },
    ]);
    expect(calls(out)).toEqual([
      { id: 'call_1', name: 'a', arguments: {}, raw_arguments: '{}' },
      { id: 'call_2', name: 'b', arguments: { y: true }, raw_arguments: '{"y": true}' },
    ]);
    expect(out.at(-1)).toEqual({ type: 'text_delta', text: 'Done.' });
  });

  it('marks calls without .done as incomplete at the end of the stream', () => {
    const out = run('openai-responses', [
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'a', arguments: '' },
      },
      {
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_1',
        output_index: 0,
        delta: '{"x": 1}',
      },
    ]);
    expect(ends(out)[0]?.error).toMatchObject({ code: 'incomplete_arguments' });
  });

  it('reports a delta for an unknown item and provider error events as error events', () => {
    const out = run('openai-responses', [
      {
        type: 'response.function_call_arguments.delta',
        item_id: 'fc_9',
        output_index: 0,
        delta: '{}',
      },
      { type: 'error', code: 'server_error', message: 'The server had an error', param: null },
    ]);
    expect(errors(out).map((error) => error.code)).toEqual(['adapter_error', 'adapter_error']);
    expect(errors(out)[1]?.message).toContain('The server had an error');
  });
});

describe('anthropic specifics', () => {
  it('shares block indexes with text and thinking blocks and ignores server tool blocks', () => {
    const out = run('anthropic', [
      {
        type: 'message_start',
        message: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"query": "x"}' },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'On it.' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'a', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 3,
        delta: { type: 'input_json_delta', partial_json: '' },
      },
      { type: 'content_block_stop', index: 3 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ]);
    expect(out).toEqual([
      { type: 'text_delta', text: 'On it.' },
      { type: 'tool_call_start', id: 'toolu_1', name: 'a', index: 0 },
      { type: 'tool_call_end', call: { id: 'toolu_1', name: 'a', arguments: {} } },
    ]);
  });

  it('uses the block input when no deltas come', () => {
    const out = run('anthropic', [
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'a', input: { x: 1 } },
      },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(calls(out)).toEqual([{ id: 'toolu_1', name: 'a', arguments: { x: 1 } }]);
  });

  it('marks a block without content_block_stop as incomplete', () => {
    const out = run('anthropic', [
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'a', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"x": 1}' },
      },
      { type: 'message_stop' },
    ]);
    expect(ends(out)[0]?.error).toMatchObject({ code: 'incomplete_arguments' });
  });

  it('turns an error event into an error event', () => {
    const out = run('anthropic', [
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    expect(errors(out)[0]?.message).toContain('Overloaded');
  });
});

describe('gemini specifics', () => {
  it('keeps ids Gemini sends, synthesizes the rest by ordinal, and skips thoughts', () => {
    const out = run('gemini', [
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'plan', thought: true }, { text: 'Sure.' }] },
          },
        ],
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'fc-1', name: 'a', args: { x: 1 } } },
                { functionCall: { name: 'b' } },
              ],
            },
          },
        ],
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'b', args: { y: [1] } } }] },
            finishReason: 'STOP',
          },
        ],
      },
      { usageMetadata: { promptTokenCount: 1 } },
    ]);
    expect(out[0]).toEqual({ type: 'text_delta', text: 'Sure.' });
    expect(calls(out)).toEqual([
      { id: 'fc-1', name: 'a', arguments: { x: 1 } },
      { id: synthesizeCallId({ name: 'b', ordinal: 1, arguments: {} }), name: 'b', arguments: {} },
      {
        id: synthesizeCallId({ name: 'b', ordinal: 2, arguments: { y: [1] } }),
        name: 'b',
        arguments: { y: [1] },
      },
    ]);
  });
});

describe('gemini ids', () => {
  it.each([1, 2, 3])(
    'match the ids the Gemini adapter gives the whole turn (%i calls)',
    (count) => {
      const events = readJson(`gemini-${count}-calls.events.json`) as Array<{
        candidates: Array<{ content: { parts: unknown[] } }>;
      }>;
      const whole = {
        candidates: [
          {
            content: {
              role: 'model',
              parts: events.flatMap((event) => event.candidates[0]?.content.parts ?? []),
            },
          },
        ],
      };
      expect(calls(run('gemini', events))).toEqual(parseGeminiToolCalls(whole).calls);
    },
  );
});

describe('malformed events', () => {
  const cases: Array<[StreamProvider, unknown]> = [
    ['openai-chat', null],
    ['openai-chat', 'data: {}'],
    ['openai-chat', { choices: {} }],
    [
      'openai-chat',
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'a', arguments: 42 } }] },
          },
        ],
      },
    ],
    ['openai-chat', { choices: [{ index: -1, delta: {} }] }],
    ['openai-responses', { type: 42 }],
    [
      'openai-responses',
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc', name: 7 },
      },
    ],
    ['openai-responses', { type: 'response.output_text.delta' }],
    ['anthropic', { type: 'content_block_start', index: '0', content_block: { type: 'tool_use' } }],
    [
      'anthropic',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{}' },
      },
    ],
    ['anthropic', { type: 'content_block_delta', index: 0, delta: null }],
    ['gemini', { candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] }],
    ['gemini', { candidates: 'none' }],
    ['gemini', []],
  ];

  it.each(cases)('%s: %j becomes an error event, never a throw', (provider, event) => {
    const stream = createToolCallStream(provider);
    let out: ToolCallStreamEvent[] = [];
    expect(() => {
      out = stream.push(event);
    }).not.toThrow();
    expect(out.at(-1)?.type).toBe('error');
    const error = errors(out)[0];
    expect(ToolgateError.isInstance(error)).toBe(true);
    expect(error?.code).toBe('adapter_error');
    expect(error?.details).toMatchObject({ provider });
    // The stream goes on after a bad event.
    expect(() => stream.end()).not.toThrow();
  });

  it('keeps the events learned before a bad part of the same event', () => {
    const out = createToolCallStream('gemini').push({
      candidates: [
        {
          content: {
            parts: [{ functionCall: { id: 'x', name: 'a', args: {} } }, { functionCall: 'oops' }],
          },
        },
      ],
    });
    expect(out.map((event) => event.type)).toEqual([
      'tool_call_start',
      'tool_call_delta',
      'tool_call_end',
      'error',
    ]);
  });

  it('passes on an undecodable SSE message from parseSSE as an error event', () => {
    const decoder = parseSSE();
    const stream = createToolCallStream('anthropic');
    const out = decoder.push('data: {nope\n\n').flatMap((event) => stream.push(event));
    expect(errors(out)[0]?.code).toBe('invalid_json');
  });

  it('refuses pushes after end() with an error event', () => {
    const stream = createToolCallStream('anthropic');
    stream.end();
    expect(errors(stream.push({ type: 'ping' }))).toHaveLength(1);
    expect(stream.end()).toEqual([]);
  });

  it('has no stream for mcp', () => {
    expect(() => createToolCallStream('mcp')).toThrow(ToolgateError);
  });
});

describe('snapshots option', () => {
  it('gives every delta a new partial sharing untouched subtrees', () => {
    const out = run(
      'anthropic',
      eventsFor('anthropic', [
        { id: 'toolu_1', name: 'a', fragments: ['{"fixed": {"k": 1}, "text": "ab', 'cd"', '}'] },
      ]),
      { snapshots: true },
    );
    const partials = out.flatMap((event) =>
      event.type === 'tool_call_delta' ? [event.partial as Record<string, unknown>] : [],
    );
    expect(partials).toHaveLength(3);
    expect(partials[1]).not.toBe(partials[0]);
    expect(partials[1]?.['fixed']).toBe(partials[0]?.['fixed']);
    expect(partials[0]).toEqual({ fixed: { k: 1 }, text: 'ab' });
    expect(partials[1]).toEqual({ fixed: { k: 1 }, text: 'abcd' });
  });
});
