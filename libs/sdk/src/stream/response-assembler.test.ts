import type Anthropic from '@anthropic-ai/sdk';
import { BlockedReason, FinishReason, type GenerateContentResponse } from '@google/genai';
import {
  createToolCallStream,
  getAdapter,
  parseSSE,
  type ToolCallEndEvent,
} from '@toolgate/adapters';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  anthropicMessage,
  anthropicToolUseStream,
  openAIChatCompletion,
  openAIChatToolCallStream,
  sseEvent,
  type FakeToolCall,
} from '../../test/support/fake-provider';
import { ToolgateInvalidResponseError, ToolgateSdkError } from '../errors/toolgate-sdk-error';
import { loopDialect } from '../loop-dialects';
import { createResponseAssembler } from './response-assembler';

type AssembledProvider = Parameters<typeof createResponseAssembler>[0];

function assemble(provider: AssembledProvider, events: readonly unknown[]): unknown {
  const assembler = createResponseAssembler(provider);
  for (const event of events) assembler.push(event);
  return assembler.response();
}

/** The error `response()` throws for these events. */
function assemblyError(
  provider: AssembledProvider,
  events: readonly unknown[],
): ToolgateInvalidResponseError {
  try {
    assemble(provider, events);
  } catch (error) {
    if (error instanceof ToolgateInvalidResponseError) return error;
    throw error;
  }
  throw new Error('expected response() to throw');
}

/** The events of an SSE body, decoded the way `streamToolCalls` decodes a raw provider body. */
function sseEvents(body: string): unknown[] {
  const decoder = parseSSE();
  return [...decoder.push(body), ...decoder.end()];
}

/** The calls the streaming parser ended with, for comparing ids and arguments with `parseCalls`. */
function streamedCalls(provider: AssembledProvider, events: readonly unknown[]) {
  const parser = createToolCallStream(provider);
  return [...events.flatMap((event) => parser.push(event)), ...parser.end()]
    .filter((event): event is ToolCallEndEvent => event.type === 'tool_call_end')
    .map(({ call }) => ({ id: call.id, name: call.name, arguments: call.arguments }));
}

const withoutRaw = (calls: ReadonlyArray<{ id: string; name: string; arguments: unknown }>) =>
  calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));

const fakeCalls: FakeToolCall[] = [
  { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', unit: 'celsius' } },
  { id: 'call_2', name: 'get_time', arguments: { zone: 'Asia/Tokyo' } },
];

// The second city is written with JSON escapes, and its arguments are cut inside one.
const PARIS_ARGUMENTS = '{"city": "Paris", "unit": "celsius"}';
const TOKYO_ARGUMENTS = '{"city": "T\\u014dky\\u014d"}';
const parisArgs = { city: 'Paris', unit: 'celsius' };
const tokyoArgs = { city: 'Tōkyō' };

describe('openai-chat', () => {
  const base = {
    id: 'chatcmpl-C9qLm2',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'gpt-4o-2024-08-06',
    service_tier: 'default',
    system_fingerprint: 'fp_07871e2ad8',
  } as const;
  const chunk = (
    delta: OpenAI.ChatCompletionChunk.Choice.Delta,
    finishReason: OpenAI.ChatCompletionChunk.Choice['finish_reason'] = null,
  ): OpenAI.ChatCompletionChunk => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });
  const stream: OpenAI.ChatCompletionChunk[] = [
    chunk({ role: 'assistant', content: '', refusal: null }),
    chunk({ content: 'Let me' }),
    chunk({ content: ' check both cit' }),
    chunk({ content: 'ies.' }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_Pq1',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty": "Par' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'is", "unit": "cel' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: 'sius"}' } }] }),
    chunk({
      tool_calls: [
        {
          index: 1,
          id: 'call_Tk2',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: 'city": "T\\u01' } }] }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: '4dky\\u014d"}' } }] }),
    chunk({}, 'tool_calls'),
    // stream_options.include_usage: a last chunk without choices.
    {
      ...base,
      choices: [],
      usage: { prompt_tokens: 82, completion_tokens: 41, total_tokens: 123 },
    },
  ];
  const expected = {
    id: 'chatcmpl-C9qLm2',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'gpt-4o-2024-08-06',
    service_tier: 'default',
    system_fingerprint: 'fp_07871e2ad8',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Let me check both cities.',
          refusal: null,
          tool_calls: [
            {
              id: 'call_Pq1',
              type: 'function',
              function: { name: 'get_weather', arguments: PARIS_ARGUMENTS },
            },
            {
              id: 'call_Tk2',
              type: 'function',
              function: { name: 'get_weather', arguments: TOKYO_ARGUMENTS },
            },
          ],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 82, completion_tokens: 41, total_tokens: 123 },
  } satisfies OpenAI.ChatCompletion;

  it('assembles text and two tool calls split mid-token into the ChatCompletion', () => {
    const assembled = assemble('openai-chat', stream);

    expect(assembled).toEqual(expected);
    expect(loopDialect('openai-chat').read(assembled)).toMatchObject({
      text: 'Let me check both cities.',
      hasToolCalls: true,
    });
    expect(getAdapter('openai-chat').parseCalls(assembled)).toEqual({
      calls: [
        {
          id: 'call_Pq1',
          name: 'get_weather',
          arguments: parisArgs,
          raw_arguments: PARIS_ARGUMENTS,
        },
        {
          id: 'call_Tk2',
          name: 'get_weather',
          arguments: tokyoArgs,
          raw_arguments: TOKYO_ARGUMENTS,
        },
      ],
      errors: [],
    });
    expect(withoutRaw(getAdapter('openai-chat').parseCalls(assembled).calls)).toEqual(
      streamedCalls('openai-chat', stream),
    );
  });

  it('reads the fake provider SSE stream like the non-streamed completion', () => {
    const assembled = assemble('openai-chat', sseEvents(openAIChatToolCallStream(fakeCalls)));
    const plain = openAIChatCompletion({ calls: fakeCalls });

    expect(getAdapter('openai-chat').parseCalls(assembled)).toEqual(
      getAdapter('openai-chat').parseCalls(plain),
    );
    expect(loopDialect('openai-chat').read(assembled)).toEqual(
      loopDialect('openai-chat').read(plain),
    );
  });

  it('keeps several choices apart by their index', () => {
    const choice = (
      index: number,
      delta: OpenAI.ChatCompletionChunk.Choice.Delta,
      finishReason: OpenAI.ChatCompletionChunk.Choice['finish_reason'] = null,
    ): OpenAI.ChatCompletionChunk => ({
      ...base,
      choices: [{ index, delta, logprobs: null, finish_reason: finishReason }],
    });
    const assembled = assemble('openai-chat', [
      choice(1, { role: 'assistant', content: 'Sec' }),
      choice(0, { role: 'assistant', content: 'Fir' }),
      choice(0, { content: 'st' }, 'stop'),
      choice(1, { content: 'ond' }, 'length'),
    ]);

    expect(assembled).toEqual({
      id: 'chatcmpl-C9qLm2',
      object: 'chat.completion',
      created: 1_764_000_000,
      model: 'gpt-4o-2024-08-06',
      service_tier: 'default',
      system_fingerprint: 'fp_07871e2ad8',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'First', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
        {
          index: 1,
          message: { role: 'assistant', content: 'Second', refusal: null },
          logprobs: null,
          finish_reason: 'length',
        },
      ],
    } satisfies OpenAI.ChatCompletion);
  });

  it('concatenates a refusal and leaves content null', () => {
    const assembled = assemble('openai-chat', [
      chunk({ role: 'assistant', content: null, refusal: '' }),
      chunk({ refusal: "I can't " }),
      chunk({ refusal: 'help with that.' }),
      chunk({}, 'stop'),
    ]);

    expect(assembled).toMatchObject({
      choices: [
        {
          message: { role: 'assistant', content: null, refusal: "I can't help with that." },
          finish_reason: 'stop',
        },
      ],
    });
  });

  it('gives a call without an id the id the stream parser gave it', () => {
    // Some OpenAI-compatible servers send no call id.
    const idless = [
      chunk({ role: 'assistant', tool_calls: [{ index: 0, function: { name: 'get_weather' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": "Paris"}' } }] }),
      chunk({}, 'tool_calls'),
    ];
    const calls = getAdapter('openai-chat').parseCalls(assemble('openai-chat', idless)).calls;

    expect(withoutRaw(calls)).toEqual([
      { id: 'call_0_0', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
    expect(withoutRaw(calls)).toEqual(streamedCalls('openai-chat', idless));
  });

  it('throws for a tool call whose name never came', () => {
    const error = assemblyError('openai-chat', [
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_X', function: {} }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);

    expect(error.issues).toEqual(['choice 0: tool call 0 has no function name']);
  });

  it('throws when the stream is cut before finish_reason', () => {
    const error = assemblyError('openai-chat', stream.slice(0, 8));

    expect(error.code).toBe('invalid_response');
    expect(error.issues).toEqual(['choice 0 has no finish_reason']);
    expect(error.message).toBe(
      'the openai-chat stream ended before the response was complete: choice 0 has no finish_reason',
    );
  });

  it('throws for an empty stream', () => {
    expect(assemblyError('openai-chat', []).issues).toEqual(['no chat.completion.chunk arrived']);
  });
});

/** The Response the API sends: `output_text` is a convenience the SDK adds, not part of the wire. */
type WireResponse = Omit<OpenAI.Responses.Response, 'output_text'>;
type WireEvent<TEvent> = TEvent extends { response: OpenAI.Responses.Response }
  ? Omit<TEvent, 'response'> & { response: WireResponse }
  : TEvent;
type ResponsesEvent = WireEvent<OpenAI.Responses.ResponseStreamEvent>;

describe('openai-responses', () => {
  const base = {
    id: 'resp_0a1b2c3d',
    object: 'response',
    created_at: 1_764_000_000,
    model: 'gpt-5-2025-08-07',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Current weather of a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { type: 'string' } },
          required: ['city'],
        },
        strict: false,
      },
    ],
    top_p: 1,
  } satisfies Partial<WireResponse>;
  const inProgress = { ...base, status: 'in_progress', output: [] } satisfies WireResponse;
  const reasoning = {
    id: 'rs_01',
    type: 'reasoning',
    summary: [],
    encrypted_content: 'gAAAAABo-encrypted-reasoning',
  } satisfies OpenAI.Responses.ResponseReasoningItem;
  const message = {
    id: 'msg_02',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'Let me check both cities.', annotations: [], logprobs: [] },
    ],
  } satisfies OpenAI.Responses.ResponseOutputMessage;
  const paris = {
    id: 'fc_03',
    type: 'function_call',
    call_id: 'call_Pq1',
    name: 'get_weather',
    arguments: PARIS_ARGUMENTS,
    status: 'completed',
  } satisfies OpenAI.Responses.ResponseFunctionToolCall;
  const tokyo = {
    id: 'fc_04',
    type: 'function_call',
    call_id: 'call_Tk2',
    name: 'get_weather',
    arguments: TOKYO_ARGUMENTS,
    status: 'completed',
  } satisfies OpenAI.Responses.ResponseFunctionToolCall;
  const completed = {
    ...base,
    status: 'completed',
    output: [reasoning, message, paris, tokyo],
    usage: {
      input_tokens: 96,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 140,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 236,
    },
  } satisfies WireResponse;

  const callEvents = (
    outputIndex: number,
    call: OpenAI.Responses.ResponseFunctionToolCall & { id: string },
    fragments: string[],
  ): ResponsesEvent[] => [
    {
      type: 'response.output_item.added',
      sequence_number: 0,
      output_index: outputIndex,
      item: { ...call, arguments: '', status: 'in_progress' },
    },
    ...fragments.map((delta): ResponsesEvent => ({
      type: 'response.function_call_arguments.delta',
      sequence_number: 0,
      item_id: call.id,
      output_index: outputIndex,
      delta,
    })),
    {
      type: 'response.function_call_arguments.done',
      sequence_number: 0,
      item_id: call.id,
      output_index: outputIndex,
      name: call.name,
      arguments: call.arguments,
    },
    {
      type: 'response.output_item.done',
      sequence_number: 0,
      output_index: outputIndex,
      item: call,
    },
  ];
  const textPart: OpenAI.Responses.ResponseOutputText = {
    type: 'output_text',
    text: '',
    annotations: [],
    logprobs: [],
  };
  const untilLastItem: ResponsesEvent[] = [
    { type: 'response.created', sequence_number: 0, response: inProgress },
    { type: 'response.in_progress', sequence_number: 0, response: inProgress },
    {
      type: 'response.output_item.added',
      sequence_number: 0,
      output_index: 0,
      item: { ...reasoning },
    },
    { type: 'response.output_item.done', sequence_number: 0, output_index: 0, item: reasoning },
    {
      type: 'response.output_item.added',
      sequence_number: 0,
      output_index: 1,
      item: { ...message, status: 'in_progress', content: [] },
    },
    {
      type: 'response.content_part.added',
      sequence_number: 0,
      item_id: 'msg_02',
      output_index: 1,
      content_index: 0,
      part: textPart,
    },
    ...['Let me', ' check both cit', 'ies.'].map((delta): ResponsesEvent => ({
      type: 'response.output_text.delta',
      sequence_number: 0,
      item_id: 'msg_02',
      output_index: 1,
      content_index: 0,
      delta,
      logprobs: [],
    })),
    {
      type: 'response.output_text.done',
      sequence_number: 0,
      item_id: 'msg_02',
      output_index: 1,
      content_index: 0,
      text: 'Let me check both cities.',
      logprobs: [],
    },
    {
      type: 'response.content_part.done',
      sequence_number: 0,
      item_id: 'msg_02',
      output_index: 1,
      content_index: 0,
      part: { ...textPart, text: 'Let me check both cities.' },
    },
    { type: 'response.output_item.done', sequence_number: 0, output_index: 1, item: message },
    ...callEvents(2, paris, ['{"ci', 'ty": "Par', 'is", "unit": "cel', 'sius"}']),
    ...callEvents(3, tokyo, ['{"', 'city": "T\\u01', '4dky\\u014d"}']),
  ];
  const numbered = (events: ResponsesEvent[]): ResponsesEvent[] =>
    events.map((event, sequence) => ({ ...event, sequence_number: sequence }));
  const stream = numbered([
    ...untilLastItem,
    { type: 'response.completed', sequence_number: 0, response: completed },
  ]);

  const expectCallsAndText = (assembled: unknown): void => {
    expect(loopDialect('openai-responses').read(assembled)).toEqual({
      assistant: [reasoning, message, paris, tokyo],
      text: 'Let me check both cities.',
      hasToolCalls: true,
    });
    expect(getAdapter('openai-responses').parseCalls(assembled)).toEqual({
      calls: [
        {
          id: 'call_Pq1',
          name: 'get_weather',
          arguments: parisArgs,
          raw_arguments: PARIS_ARGUMENTS,
        },
        {
          id: 'call_Tk2',
          name: 'get_weather',
          arguments: tokyoArgs,
          raw_arguments: TOKYO_ARGUMENTS,
        },
      ],
      errors: [],
    });
  };

  it('returns the Response of response.completed', () => {
    const assembled = assemble('openai-responses', stream);

    expect(assembled).toEqual({
      id: 'resp_0a1b2c3d',
      object: 'response',
      created_at: 1_764_000_000,
      model: 'gpt-5-2025-08-07',
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: null,
      metadata: {},
      parallel_tool_calls: true,
      temperature: 1,
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather of a city.',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, unit: { type: 'string' } },
            required: ['city'],
          },
          strict: false,
        },
      ],
      top_p: 1,
      output: [
        {
          id: 'rs_01',
          type: 'reasoning',
          summary: [],
          encrypted_content: 'gAAAAABo-encrypted-reasoning',
        },
        {
          id: 'msg_02',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [
            {
              type: 'output_text',
              text: 'Let me check both cities.',
              annotations: [],
              logprobs: [],
            },
          ],
        },
        {
          id: 'fc_03',
          type: 'function_call',
          call_id: 'call_Pq1',
          name: 'get_weather',
          arguments: PARIS_ARGUMENTS,
          status: 'completed',
        },
        {
          id: 'fc_04',
          type: 'function_call',
          call_id: 'call_Tk2',
          name: 'get_weather',
          arguments: TOKYO_ARGUMENTS,
          status: 'completed',
        },
      ],
      usage: {
        input_tokens: 96,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 140,
        output_tokens_details: { reasoning_tokens: 64 },
        total_tokens: 236,
      },
    } satisfies WireResponse);
    expectCallsAndText(assembled);
    expect(withoutRaw(getAdapter('openai-responses').parseCalls(assembled).calls)).toEqual(
      streamedCalls('openai-responses', stream),
    );
  });

  it('builds the Response from the finished items when response.completed never came', () => {
    const assembled = assemble('openai-responses', numbered(untilLastItem));

    // The in-progress Response with every finished item, reasoning and calls included.
    expect(assembled).toEqual({
      ...inProgress,
      output: [reasoning, message, paris, tokyo],
    } satisfies WireResponse);
    expectCallsAndText(assembled);
  });

  it('orders the finished items by output_index, not by arrival', () => {
    const assembled = assemble('openai-responses', [
      { type: 'response.output_item.done', sequence_number: 1, output_index: 1, item: paris },
      { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item: message },
    ] satisfies ResponsesEvent[]);

    expect(assembled).toEqual({ object: 'response', output: [message, paris] });
  });

  it('returns the Response of response.failed and response.incomplete too', () => {
    const failed = {
      ...inProgress,
      status: 'failed',
      error: { code: 'server_error', message: 'The model failed.' },
    } satisfies WireResponse;
    const incomplete = {
      ...inProgress,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [reasoning],
    } satisfies WireResponse;

    expect(
      assemble('openai-responses', [
        { type: 'response.created', sequence_number: 0, response: inProgress },
        { type: 'response.failed', sequence_number: 1, response: failed },
      ] satisfies ResponsesEvent[]),
    ).toEqual(failed);
    expect(
      assemble('openai-responses', [
        { type: 'response.incomplete', sequence_number: 0, response: incomplete },
      ] satisfies ResponsesEvent[]),
    ).toEqual(incomplete);
  });

  it('throws when the stream is cut inside a function call', () => {
    const cut = numbered(untilLastItem).slice(0, -3);
    const error = assemblyError('openai-responses', cut);

    expect(error.code).toBe('invalid_response');
    expect(error.issues).toEqual([
      'no response.completed',
      'output item 3 (function_call get_weather) has no response.output_item.done',
    ]);
    expect(error.message).toContain(
      'the openai-responses stream ended before the response was complete',
    );
  });

  it('throws when no output item finished', () => {
    const error = assemblyError('openai-responses', numbered(untilLastItem).slice(0, 2));

    expect(error.issues).toEqual(['no response.completed', 'no output item finished']);
  });

  it('reports an error event of the stream', () => {
    const error = assemblyError('openai-responses', [
      ...numbered(untilLastItem).slice(0, 4),
      {
        type: 'error',
        sequence_number: 4,
        code: 'server_error',
        message: 'Something went wrong.',
        param: null,
      },
    ] satisfies ResponsesEvent[]);

    expect(error.issues).toContain(
      'event 5: the provider reported an error: Something went wrong.',
    );
  });
});

describe('anthropic', () => {
  const start = {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: {
      input_tokens: 412,
      output_tokens: 3,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    },
  } satisfies Anthropic.Message;
  const delta = (index: number, value: Anthropic.RawContentBlockDelta) =>
    ({
      type: 'content_block_delta',
      index,
      delta: value,
    }) satisfies Anthropic.RawMessageStreamEvent;
  const json = (index: number, fragments: string[]) =>
    fragments.map((partial_json) => delta(index, { type: 'input_json_delta', partial_json }));
  const toolUse = (index: number, id: string) =>
    ({
      type: 'content_block_start',
      index,
      content_block: {
        type: 'tool_use',
        id,
        name: 'get_weather',
        input: {},
        caller: { type: 'direct' },
      },
    }) satisfies Anthropic.RawMessageStreamEvent;
  const stop = (index: number) =>
    ({ type: 'content_block_stop', index }) satisfies Anthropic.RawMessageStreamEvent;
  const ending: Anthropic.RawMessageStreamEvent[] = [
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null, stop_details: null, container: null },
      usage: {
        input_tokens: 412,
        output_tokens: 187,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens_details: { thinking_tokens: 64 },
        server_tool_use: null,
      },
    },
    { type: 'message_stop' },
  ];
  const stream: Anthropic.RawMessageStreamEvent[] = [
    { type: 'message_start', message: start },
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    },
    delta(0, { type: 'thinking_delta', thinking: 'The user wants two cities, ' }),
    delta(0, { type: 'thinking_delta', thinking: 'so I call get_weather twice.' }),
    delta(0, { type: 'signature_delta', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' }),
    stop(0),
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'text', text: '', citations: null },
    },
    delta(1, { type: 'text_delta', text: "I'll check " }),
    delta(1, { type: 'text_delta', text: 'both.' }),
    stop(1),
    toolUse(2, 'toolu_01Paris'),
    ...json(2, ['', '{"city": "Pa', 'ris", "un', 'it": "celsius"}']),
    stop(2),
    toolUse(3, 'toolu_02Tokyo'),
    ...json(3, ['{"ci', 'ty": "T\\u01', '4dky\\u014d"}']),
    stop(3),
    ...ending,
  ];

  it('assembles thinking, text and two tool_use blocks into the Message', () => {
    const assembled = assemble('anthropic', stream);

    expect(assembled).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        {
          type: 'thinking',
          thinking: 'The user wants two cities, so I call get_weather twice.',
          signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h',
        },
        { type: 'text', text: "I'll check both.", citations: null },
        {
          type: 'tool_use',
          id: 'toolu_01Paris',
          name: 'get_weather',
          input: parisArgs,
          caller: { type: 'direct' },
        },
        {
          type: 'tool_use',
          id: 'toolu_02Tokyo',
          name: 'get_weather',
          input: tokyoArgs,
          caller: { type: 'direct' },
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: 412,
        output_tokens: 187,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        inference_geo: null,
        output_tokens_details: { thinking_tokens: 64 },
        server_tool_use: null,
        service_tier: 'standard',
        speed: null,
      },
    } satisfies Anthropic.Message);
    expect(loopDialect('anthropic').read(assembled)).toMatchObject({
      text: "I'll check both.",
      hasToolCalls: true,
    });
    expect(getAdapter('anthropic').parseCalls(assembled)).toEqual({
      calls: [
        { id: 'toolu_01Paris', name: 'get_weather', arguments: parisArgs },
        { id: 'toolu_02Tokyo', name: 'get_weather', arguments: tokyoArgs },
      ],
      errors: [],
    });
    expect(getAdapter('anthropic').parseCalls(assembled).calls).toEqual(
      streamedCalls('anthropic', stream),
    );
  });

  it('reads the fake provider SSE stream like the non-streamed message', () => {
    const assembled = assemble('anthropic', sseEvents(anthropicToolUseStream(fakeCalls)));
    const plain = anthropicMessage({ calls: fakeCalls, text: 'Checking.' });

    // The same message but for the stream's id and usage.
    expect(assembled).toEqual({
      ...(plain as object),
      id: 'msg_stream',
      usage: { input_tokens: 20, output_tokens: 30 },
    });
    expect(getAdapter('anthropic').parseCalls(assembled)).toEqual(
      getAdapter('anthropic').parseCalls(plain),
    );
    expect(loopDialect('anthropic').read(assembled)).toEqual(loopDialect('anthropic').read(plain));
  });

  it('gives a tool without arguments the input {}', () => {
    const assembled = assemble('anthropic', [
      { type: 'message_start', message: start },
      toolUse(0, 'toolu_03Now'),
      ...json(0, ['']),
      stop(0),
      ...ending,
    ] satisfies Anthropic.RawMessageStreamEvent[]);

    expect(getAdapter('anthropic').parseCalls(assembled).calls).toEqual([
      { id: 'toolu_03Now', name: 'get_weather', arguments: {} },
    ]);
  });

  it('keeps tool_use JSON that does not parse as the raw text, which parseCalls reports as invalid arguments', () => {
    const assembled = assemble('anthropic', [
      { type: 'message_start', message: start },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '', citations: null },
      },
      delta(0, { type: 'text_delta', text: 'Checking.' }),
      stop(0),
      toolUse(1, 'toolu_04Broken'),
      ...json(1, ['{"city": "Pa', 'ris", ']),
      stop(1),
      ...ending,
    ] satisfies Anthropic.RawMessageStreamEvent[]);

    expect(assembled).toMatchObject({
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_04Broken', input: '{"city": "Paris", ' },
      ],
    });
    // Still a turn with a tool call; its input is reported, not run as {}.
    expect(loopDialect('anthropic').read(assembled).hasToolCalls).toBe(true);
    const parsed = getAdapter('anthropic').parseCalls(assembled);
    expect(parsed.calls).toEqual([]);
    expect(parsed.errors.map((error) => error.details)).toMatchObject([
      { callId: 'toolu_04Broken', path: '/content/1/input', rawArguments: '{"city": "Paris", ' },
    ]);
  });

  it('throws when the stream is cut inside a tool_use block', () => {
    const error = assemblyError('anthropic', stream.slice(0, 12));

    expect(error.code).toBe('invalid_response');
    expect(error.issues).toEqual([
      'content block 2 (tool_use get_weather) has no content_block_stop',
      'no message_stop',
    ]);
    expect(error.message).toBe(
      'the anthropic stream ended before the response was complete: content block 2 (tool_use get_weather) has no content_block_stop; no message_stop',
    );
  });

  it('throws when message_start never came', () => {
    expect(assemblyError('anthropic', stream.slice(1)).issues).toEqual([
      'no message_start',
      // Every event after it had no message to go into.
      ...stream.slice(1).map((event, at) => `event ${at + 1}: ${event.type} before message_start`),
    ]);
  });

  it('reports an error event that ended the stream', () => {
    const error = assemblyError('anthropic', [
      ...stream.slice(0, 8),
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);

    expect(error.issues).toEqual([
      'content block 1 (text) has no content_block_stop',
      'no message_stop',
      'event 9: the provider reported an error: Overloaded',
    ]);
  });
});

/** A streamed chunk: the data fields of a GenerateContentResponse (its getters are the SDK's). */
type GeminiChunk = Pick<
  GenerateContentResponse,
  'candidates' | 'modelVersion' | 'responseId' | 'usageMetadata' | 'promptFeedback'
>;

describe('gemini', () => {
  const chunk = (parts: object[], last: Partial<GeminiChunk> = {}): GeminiChunk => ({
    candidates: [{ content: { role: 'model', parts } }],
    modelVersion: 'gemini-2.5-flash',
    responseId: 'mK9qaPGyLdqz1MkP',
    usageMetadata: { promptTokenCount: 58, totalTokenCount: 58 },
    ...last,
  });
  const thought1 = { text: '**Planning**\n\nThe user asks about two', thought: true };
  const thought2 = { text: ' cities: one call each.', thought: true };
  const parisCall = {
    functionCall: { name: 'get_weather', args: parisArgs },
    thoughtSignature: 'CiQB0e2Kb9x+signature',
  };
  const tokyoCall = { functionCall: { name: 'get_weather', args: tokyoArgs } };
  const finalUsage = {
    promptTokenCount: 58,
    candidatesTokenCount: 40,
    thoughtsTokenCount: 96,
    totalTokenCount: 194,
  };
  const stream: GeminiChunk[] = [
    chunk([thought1]),
    chunk([thought2]),
    chunk([{ text: 'Checking ' }]),
    chunk([{ text: 'both ' }, { text: 'cities.' }]),
    chunk([parisCall]),
    {
      candidates: [
        { content: { role: 'model', parts: [tokyoCall] }, finishReason: FinishReason.STOP },
      ],
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mK9qaPGyLdqz1MkP',
      usageMetadata: finalUsage,
    },
  ];

  it('assembles thoughts, text and two functionCall parts into one candidate', () => {
    const assembled = assemble('gemini', stream);

    expect(assembled).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: '**Planning**\n\nThe user asks about two', thought: true },
              { text: ' cities: one call each.', thought: true },
              { text: 'Checking both cities.' },
              {
                functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } },
                thoughtSignature: 'CiQB0e2Kb9x+signature',
              },
              { functionCall: { name: 'get_weather', args: { city: 'Tōkyō' } } },
            ],
          },
          finishReason: FinishReason.STOP,
        },
      ],
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mK9qaPGyLdqz1MkP',
      usageMetadata: {
        promptTokenCount: 58,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 96,
        totalTokenCount: 194,
      },
    } satisfies GeminiChunk);
    expect(loopDialect('gemini').read(assembled)).toMatchObject({
      text: 'Checking both cities.',
      hasToolCalls: true,
    });
    const parsed = getAdapter('gemini').parseCalls(assembled);
    expect(parsed.errors).toEqual([]);
    expect(parsed.calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([
      { name: 'get_weather', arguments: parisArgs },
      { name: 'get_weather', arguments: tokyoArgs },
    ]);
    // Id-less calls get the same synthesized ids the streaming parser gave them.
    expect(parsed.calls).toEqual(streamedCalls('gemini', stream));
  });

  it('keeps a thought signature on an empty text part apart from the text', () => {
    const signed = { text: '', thoughtSignature: 'Cs8BAR/MhbY+signature' };
    const assembled = assemble('gemini', [
      chunk([{ text: 'Sunny ' }]),
      chunk([{ text: 'in Paris.' }]),
      chunk([signed], {
        candidates: [
          { content: { role: 'model', parts: [signed] }, finishReason: FinishReason.STOP },
        ],
      }),
    ]);

    expect(assembled).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Sunny in Paris.' }, signed] } }],
    });
    expect(loopDialect('gemini').read(assembled).text).toBe('Sunny in Paris.');
  });

  it('returns a blocked prompt answer, which has no candidates', () => {
    const blocked = {
      promptFeedback: { blockReason: BlockedReason.SAFETY },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'bL0ck',
      usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 },
    } satisfies GeminiChunk;

    expect(assemble('gemini', [blocked])).toEqual(blocked);
  });

  it('throws when the stream ends before a finishReason', () => {
    const error = assemblyError('gemini', stream.slice(0, -1));

    expect(error.code).toBe('invalid_response');
    expect(error.issues).toEqual(['candidate 0 has no finishReason']);
    expect(error.message).toBe(
      'the gemini stream ended before the response was complete: candidate 0 has no finishReason',
    );
  });
});

describe('every provider', () => {
  it('ignores event types it does not know', () => {
    const chat = sseEvents(openAIChatToolCallStream(fakeCalls));
    expect(
      assemble('openai-chat', [{ object: 'chat.completion.future', id: 'x' }, ...chat]),
    ).toEqual(assemble('openai-chat', chat));

    const anthropic = sseEvents(anthropicToolUseStream(fakeCalls));
    const withUnknown = [
      anthropic[0],
      { type: 'ping' },
      { type: 'message_future', payload: 1 },
      anthropic[1],
      { type: 'content_block_delta', index: 0, delta: { type: 'future_delta', value: 'x' } },
      ...anthropic.slice(2),
    ];
    expect(assemble('anthropic', withUnknown)).toEqual(assemble('anthropic', anthropic));

    const responses = [
      {
        type: 'response.output_item.done',
        sequence_number: 0,
        output_index: 0,
        item: { type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [] },
      },
    ];
    expect(
      assemble('openai-responses', [
        { type: 'keepalive', sequence_number: 0 },
        { type: 'response.future_event', sequence_number: 1, data: {} },
        ...responses,
      ]),
    ).toEqual(assemble('openai-responses', responses));
  });

  it('never throws from push; response() names every event it could not use', () => {
    const assembler = createResponseAssembler('anthropic');
    const events = [
      null,
      42,
      // An SSE message whose data was cut: parseSSE hands on a ToolgateError in its place.
      ...sseEvents(
        `${sseEvent({ type: 'ping' }, 'ping')}event: message_start\ndata: {"type": "mess\n\n`,
      ),
      ...sseEvents(anthropicToolUseStream(fakeCalls)).slice(0, 2),
      { type: 'content_block_delta', index: 'one', delta: { type: 'text_delta', text: 'x' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } },
      { type: 'content_block_delta', index: 9, delta: { type: 'text_delta', text: 'x' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{' },
      },
    ];
    for (const event of events) expect(() => assembler.push(event)).not.toThrow();

    let thrown: unknown;
    try {
      assembler.response();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolgateInvalidResponseError);
    expect((thrown as ToolgateInvalidResponseError).issues).toEqual([
      'content block 0 (text) has no content_block_stop',
      'no message_stop',
      'event 1 is not an object',
      'event 2 is not an object',
      // The JSON.parse wording after it differs between Node versions.
      expect.stringMatching(/^event 4 could not be decoded: SSE event data is not JSON: /),
      'event 7: content_block_delta of the wrong shape (/index: Invalid input: expected number, received string)',
      'event 8: a text_delta without a string text',
      'event 9: content_block_delta for block 9, which never started',
      'event 10: input_json_delta for a text block',
    ]);
  });

  it('refuses a provider without a model stream', () => {
    const create = () => createResponseAssembler('mcp' as AssembledProvider);
    expect(create).toThrow(ToolgateSdkError);
    expect(create).toThrow('no response assembler for provider mcp');
  });
});
