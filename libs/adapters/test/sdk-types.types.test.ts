/**
 * Type-level conformance: the adapters' outputs are assignable to the official SDKs' request types
 * (checked by `tsc -p libs/adapters/tsconfig.json`), and SDK-typed responses parse at run time.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type * as Genai from '@google/genai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import {
  anthropicAdapter,
  clientToolSearchTool,
  geminiAdapter,
  openAIChatAdapter,
  openAIResponsesAdapter,
  parseToolSearches,
  toolSearchOutputToWire,
} from '../src/index';
import { buildTool, weatherTool } from './support/tool-factory';

// @google/genai types `Schema.type` as a string enum; on the wire it is its string value.
type Wire<T> = T extends Genai.Type
  ? `${Genai.Type}`
  : T extends Array<infer U>
    ? Array<Wire<U>>
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

const tools = [
  weatherTool(),
  buildTool({
    name: 'admin.tools.list',
    parameters: {
      type: 'object',
      properties: {
        limit: { type: 'integer', enum: [10, 20] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
  }),
];
const calls = [{ id: 'call_1', name: 'get_current_weather', arguments: { location: 'Oslo' } }];
const results = [
  { call_id: 'call_1', name: 'get_current_weather', ok: true, data: { temperature: 3 } },
  {
    call_id: 'call_2',
    name: 'get_current_weather',
    ok: false,
    error: { code: 'timeout', message: 'slow', retryable: true },
  },
  {
    call_id: 'call_3',
    name: 'get_current_weather',
    ok: true,
    content: [{ type: 'image' as const, data: 'AAAA', mimeType: 'image/png' }],
  },
];

describe('OpenAI SDK types (openai 6.49.0)', () => {
  it('Chat Completions: tools, parallel_tool_calls, assistant message, tool messages', () => {
    const wire = openAIChatAdapter.toolsToWire(tools, { strict: true, parallelCalls: false });
    wire.tools satisfies OpenAI.Chat.ChatCompletionTool[];
    wire.tools satisfies Array<
      OpenAI.Chat.ChatCompletionFunctionTool | OpenAI.Chat.ChatCompletionCustomTool
    >;
    ({
      model: 'gpt-4o',
      messages: [],
      tools: wire.tools,
      ...wire.requestOptions,
    }) satisfies OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    openAIChatAdapter.callsToWire(calls) satisfies OpenAI.Chat.ChatCompletionAssistantMessageParam;
    openAIChatAdapter.resultsToWire(results) satisfies OpenAI.Chat.ChatCompletionToolMessageParam[];
    openAIChatAdapter.resultsToWire(results) satisfies OpenAI.Chat.ChatCompletionMessageParam[];

    const sdkCall: OpenAI.Chat.ChatCompletionMessageFunctionToolCall = {
      id: 'call_9',
      type: 'function',
      function: { name: 'get_current_weather', arguments: '{"location":"Rome"}' },
    };
    expect(openAIChatAdapter.callsFromWire([sdkCall])).toEqual([
      {
        id: 'call_9',
        name: 'get_current_weather',
        arguments: { location: 'Rome' },
        raw_arguments: '{"location":"Rome"}',
      },
    ]);
  });

  it('Responses: tools, function_call items, function_call_output items', () => {
    const wire = openAIResponsesAdapter.toolsToWire(tools, { strict: true, parallelCalls: true });
    wire.definitions satisfies Array<OpenAI.Responses.FunctionTool | OpenAI.Responses.CustomTool>;
    wire.tools satisfies OpenAI.Responses.Tool[];
    ({
      model: 'gpt-4.1',
      input: [],
      tools: wire.tools,
      ...wire.requestOptions,
    }) satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming;
    openAIResponsesAdapter.callsToWire(calls) satisfies Array<
      OpenAI.Responses.ResponseFunctionToolCall | OpenAI.Responses.ResponseCustomToolCall
    >;
    openAIResponsesAdapter.resultsToWire(results) satisfies Array<
      | OpenAI.Responses.ResponseInputItem.FunctionCallOutput
      | OpenAI.Responses.ResponseCustomToolCallOutput
    >;
    [
      ...openAIResponsesAdapter.callsToWire(calls),
      ...openAIResponsesAdapter.resultsToWire(results),
    ] satisfies OpenAI.Responses.ResponseInputItem[];

    const sdkItem: OpenAI.Responses.ResponseFunctionToolCall = {
      type: 'function_call',
      call_id: 'c',
      name: 'get_current_weather',
      arguments: '{}',
    };
    expect(openAIResponsesAdapter.callsFromWire([sdkItem])[0]?.id).toBe('c');
  });

  it('custom tools: definitions, calls and outputs of free-text tools, on both OpenAI wires', () => {
    const sqlTool = buildTool({
      name: 'run_sql',
      input_format: { type: 'text', grammar: { syntax: 'regex', definition: 'SELECT .+' } },
      parameters: {
        type: 'object',
        properties: { input: { type: 'string' } },
        required: ['input'],
        additionalProperties: false,
      },
    });
    const textCalls = [
      {
        id: 'call_t',
        name: 'run_sql',
        arguments: { input: 'SELECT 1' },
        input_format: 'text' as const,
      },
    ];
    const answers = [{ call_id: 'call_t', name: 'run_sql', ok: true, data: 1 }];
    const responses = openAIResponsesAdapter.toolsToWire([sqlTool]);
    responses.tools satisfies OpenAI.Responses.Tool[];
    ({
      model: 'gpt-5',
      input: [
        ...openAIResponsesAdapter.callsToWire(textCalls),
        ...openAIResponsesAdapter.resultsToWire(answers, { calls: textCalls }),
      ],
      tools: responses.tools,
    }) satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const chat = openAIChatAdapter.toolsToWire([sqlTool]);
    ({
      model: 'gpt-5',
      messages: [
        openAIChatAdapter.callsToWire(textCalls),
        ...openAIChatAdapter.resultsToWire(answers),
      ],
      tools: chat.tools,
    }) satisfies OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

    const sdkCustomCall: OpenAI.Responses.ResponseCustomToolCall = {
      type: 'custom_tool_call',
      call_id: 'call_c',
      name: 'run_sql',
      input: 'SELECT 2',
    };
    const chatCustomCall: OpenAI.Chat.ChatCompletionMessageCustomToolCall = {
      id: 'call_d',
      type: 'custom',
      custom: { name: 'run_sql', input: 'SELECT 3' },
    };
    expect(openAIResponsesAdapter.callsFromWire([sdkCustomCall])[0]?.arguments).toEqual({
      input: 'SELECT 2',
    });
    expect(openAIChatAdapter.callsFromWire([chatCustomCall])[0]?.input_format).toBe('text');
  });

  it('Responses tool search: deferred functions, tool_search tools, search items', () => {
    const wire = openAIResponsesAdapter.toolsToWire(tools, { deferLoading: true });
    wire.tools satisfies OpenAI.Responses.Tool[];
    wire.definitions satisfies Array<OpenAI.Responses.FunctionTool | OpenAI.Responses.CustomTool>;
    ({
      model: 'gpt-5.4',
      input: [],
      tools: wire.tools,
    }) satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming;
    clientToolSearchTool({
      description: 'Find tools.',
      parameters: { type: 'object' },
    }) satisfies OpenAI.Responses.ToolSearchTool;
    const output = toolSearchOutputToWire('call_s', wire.definitions);
    output satisfies OpenAI.Responses.ResponseToolSearchOutputItemParam;
    [output] satisfies OpenAI.Responses.ResponseInputItem[];

    const sdkCall: OpenAI.Responses.ResponseToolSearchCall = {
      id: 'tsc_1',
      type: 'tool_search_call',
      call_id: 'call_s',
      execution: 'client',
      status: 'completed',
      arguments: { query: 'weather' },
    };
    const sdkOutput: OpenAI.Responses.ResponseToolSearchOutputItem = {
      id: 'tso_1',
      type: 'tool_search_output',
      call_id: null,
      execution: 'server',
      status: 'completed',
      tools: wire.definitions,
    };
    expect(parseToolSearches('openai-responses', [sdkCall, sdkOutput], { tools })).toEqual({
      calls: [
        { id: 'call_s', execution: 'client', arguments: { query: 'weather' }, query: 'weather' },
      ],
      results: [
        { callId: null, execution: 'server', tools: ['get_current_weather', 'admin.tools.list'] },
      ],
    });
  });
});

describe('Anthropic SDK types (@anthropic-ai/sdk 1.14.0)', () => {
  it('Messages: tools, tool_choice, assistant turn, tool_result user message', () => {
    const wire = anthropicAdapter.toolsToWire(tools, { strict: true, parallelCalls: false });
    wire.definitions satisfies Anthropic.Messages.Tool[];
    wire.tools satisfies Anthropic.Messages.ToolUnion[];
    wire.requestOptions.tool_choice satisfies Anthropic.Messages.ToolChoice | undefined;
    ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [],
      tools: wire.tools,
      ...wire.requestOptions,
    }) satisfies Anthropic.Messages.MessageCreateParamsNonStreaming;
    anthropicAdapter.callsToWire(calls) satisfies Anthropic.Messages.MessageParam;
    anthropicAdapter.resultsToWire(results) satisfies Anthropic.Messages.MessageParam;
    anthropicAdapter.resultsToWire(results)
      .content satisfies Anthropic.Messages.ToolResultBlockParam[];

    const sdkBlock: Anthropic.Messages.ToolUseBlockParam = {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'get_current_weather',
      input: { location: 'Rome' },
    };
    expect(anthropicAdapter.callsFromWire([sdkBlock])).toEqual([
      { id: 'toolu_1', name: 'get_current_weather', arguments: { location: 'Rome' } },
    ]);
  });
  it('Messages tool search: deferred tools, the BM25 tool, search blocks, tool references', () => {
    const wire = anthropicAdapter.toolsToWire(tools, { deferLoading: true });
    wire.tools satisfies Anthropic.Messages.ToolUnion[];
    wire.definitions satisfies Anthropic.Messages.Tool[];
    ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [],
      tools: wire.tools,
    }) satisfies Anthropic.Messages.MessageCreateParamsNonStreaming;
    wire.tools[0] satisfies Anthropic.Messages.ToolUnion | undefined;

    const use: Anthropic.Messages.ServerToolUseBlock = {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'tool_search_tool_bm25',
      input: { query: 'weather' },
      caller: { type: 'direct' },
    };
    const found: Anthropic.Messages.ToolSearchToolResultBlock = {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: [{ type: 'tool_reference', tool_name: 'get_current_weather' }],
      },
    };
    const reference: Anthropic.Messages.ToolResultBlockParam = {
      type: 'tool_result',
      tool_use_id: 'toolu_s',
      content: [{ type: 'tool_reference', tool_name: 'get_current_weather' }],
    };
    expect(parseToolSearches('anthropic', [use, found, reference], { tools })).toEqual({
      calls: [
        {
          id: 'srvtoolu_1',
          execution: 'server',
          arguments: { query: 'weather' },
          query: 'weather',
        },
      ],
      results: [
        { callId: 'srvtoolu_1', execution: 'server', tools: ['get_current_weather'] },
        { callId: 'toolu_s', execution: 'client', tools: ['get_current_weather'] },
      ],
    });
  });
});

describe('Google GenAI SDK types (@google/genai 2.32.0)', () => {
  it('functionDeclarations, the model turn, the functionResponse turn', () => {
    const wire = geminiAdapter.toolsToWire(tools);
    wire.tools satisfies Array<Wire<Genai.Tool>>;
    wire.definitions satisfies Array<Wire<Genai.FunctionDeclaration>>;
    geminiAdapter.toolsToWire(tools, { schemaMode: 'jsonschema' }).definitions satisfies Array<
      Wire<Genai.FunctionDeclaration>
    >;
    geminiAdapter.callsToWire(calls) satisfies Genai.Content;
    geminiAdapter.resultsToWire(results) satisfies Genai.Content;
    geminiAdapter.resultsToWire(results).parts satisfies Genai.Part[];

    const sdkPart: Genai.Part = {
      functionCall: { name: 'get_current_weather', args: { location: 'Rome' } },
    };
    expect(geminiAdapter.callsFromWire([sdkPart])[0]?.arguments).toEqual({ location: 'Rome' });
  });
});
