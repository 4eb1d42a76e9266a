import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../test/support/tool-factory';
import { AdapterError } from '../shared/adapter-error';
import { toWirePropertyName } from '../shared/names/property-names';
import { createToolCallStream } from '../stream/create-tool-call-stream';
import message from './__fixtures__/message-parallel-tool-use.json';
import { anthropicAdapter as adapter } from './anthropic-adapter';

describe('anthropic tools', () => {
  it('writes {name, description, input_schema} with cache_control and strict from provider_hints', () => {
    const tool = buildTool({
      ...weatherTool(),
      provider_hints: {
        anthropic: { cache_control: { type: 'ephemeral', ttl: '1h' }, strict: true },
      },
    });
    const { tools } = adapter.toolsToWire([weatherTool('plain'), tool]);
    expect(tools[0]).toEqual({
      name: 'plain',
      description: 'Get the current weather in a given location.',
      input_schema: weatherTool().parameters,
    });
    expect(tools[1]).toMatchObject({
      name: 'get_current_weather',
      cache_control: { type: 'ephemeral', ttl: '1h' },
      strict: true,
      input_schema: { additionalProperties: false },
    });
    const back = adapter.toolFromWire(tools[1]);
    expect(back.provider_hints).toEqual({
      anthropic: { cache_control: { type: 'ephemeral', ttl: '1h' }, strict: true },
    });
  });

  it('maps parallelCalls:false to tool_choice.disable_parallel_tool_use', () => {
    expect(adapter.toolsToWire([weatherTool()], { parallelCalls: false }).requestOptions).toEqual({
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(adapter.toolsToWire([weatherTool()], { parallelCalls: true }).requestOptions).toEqual(
      {},
    );
  });

  it('has no top-level oneOf/anyOf/allOf: branches merged, required intersected, reported', () => {
    const tool = buildTool({
      name: 'find',
      parameters: {
        type: 'object',
        properties: { limit: { type: 'integer' } },
        anyOf: [
          { properties: { q: { type: 'string' } }, required: ['q'] },
          {
            properties: { q: { type: 'string' }, tag: { type: 'string' } },
            required: ['q', 'tag'],
          },
        ],
      },
    });
    const { definitions, report } = adapter.toolsToWire([tool]);
    expect(definitions[0]?.input_schema).toEqual({
      type: 'object',
      properties: { limit: { type: 'integer' }, q: { type: 'string' }, tag: { type: 'string' } },
      required: ['q'],
      description:
        'Provide at least one of these shapes: (1) q [required: q]; (2) q, tag [required: q, tag].',
    });
    expect(report.entries[0]).toMatchObject({ tool: 'find', path: '/anyOf', keyword: 'anyOf' });
  });

  it('strict: keeps what the SDK helper keeps, moves the rest into descriptions, flags recursion and tool count', () => {
    const recursive = buildTool({
      name: 'tree',
      parameters: {
        type: 'object',
        properties: {
          root: { $ref: '#/$defs/Node' },
          code: { type: 'string', pattern: '^[a-z]+$', format: 'uri' },
        },
        $defs: {
          Node: {
            type: 'object',
            properties: {
              children: { type: 'array', items: { $ref: '#/$defs/Node' }, minItems: 2 },
            },
          },
        },
      },
    });
    const { definitions, report } = adapter.toolsToWire([recursive], { strict: true });
    expect(definitions[0]?.input_schema['properties']).toEqual({
      root: { $ref: '#/$defs/Node' },
      code: { type: 'string', format: 'uri', description: '{pattern: "^[a-z]+$"}' },
    });
    expect(report.limits).toEqual([
      { tool: 'tree', limit: 'recursiveSchema', actual: 1, max: 0, path: '/' },
    ]);
    const many = Array.from({ length: 21 }, (_, index) =>
      buildTool({
        name: `t${index}`,
        parameters: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: ['string', 'null'] } },
        },
      }),
    );
    expect(adapter.toolsToWire(many, { strict: true }).report.limits).toEqual([
      { tool: '*', limit: 'maxStrictTools', actual: 21, max: 20 },
      { tool: '*', limit: 'maxStrictOptionalParameters', actual: 42, max: 24 },
      { tool: '*', limit: 'maxStrictUnionParameters', actual: 21, max: 16 },
    ]);
  });
});

describe('anthropic calls and results', () => {
  it('reads every tool_use block wherever it sits among text and thinking blocks', () => {
    expect(adapter.callsFromWire(message)).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: { location: 'San Francisco, CA', unit: 'celsius' },
      },
      {
        id: 'toolu_01B09q90qw90lq917835lq9',
        name: 'get_weather',
        arguments: { location: 'New York, NY' },
      },
    ]);
    expect(adapter.callsFromWire(message.content)).toHaveLength(2);
    expect(
      adapter.callsFromWire([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: message.content },
      ]),
    ).toHaveLength(2);
  });

  it('rejects unknown blocks, non-object input and null content with AdapterError', () => {
    expect(() => adapter.callsFromWire({ content: [{ type: 'hologram' }] })).toThrow(AdapterError);
    expect(() =>
      adapter.callsFromWire({ content: [{ type: 'tool_use', id: 'a', name: 'b', input: 5 }] }),
    ).toThrow(/\/content\/0\/input/);
    expect(() => adapter.callsFromWire({ role: 'assistant', content: null })).toThrow(AdapterError);
  });

  it('reads an input left as text by a cut-off stream like arguments text: a parse error beside the good calls', () => {
    const parsed = adapter.parseCalls({
      content: [
        { type: 'tool_use', id: 'toolu_ok', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_cut', name: 'get_weather', input: '{"city": "Ber' },
        { type: 'tool_use', id: 'toolu_text', name: 'get_weather', input: '{"city":"Rome"}' },
      ],
    });
    expect(parsed.calls.map((call) => [call.id, call.arguments])).toEqual([
      ['toolu_ok', { city: 'Oslo' }],
      ['toolu_text', { city: 'Rome' }],
    ]);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]?.details).toMatchObject({
      callId: 'toolu_cut',
      name: 'get_weather',
      path: '/content/1/input',
      rawArguments: '{"city": "Ber',
    });
  });

  it('puts all results of a turn in one user message of tool_result blocks, errors with is_error', () => {
    const wire = adapter.resultsToWire([
      {
        call_id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        ok: true,
        data: { temperature: 15 },
      },
      {
        call_id: 'toolu_01B09q90qw90lq917835lq9',
        name: 'get_weather',
        ok: false,
        error: { code: 'rate_limited', message: 'Try again in 30s.', retryable: true },
      },
      {
        call_id: 'toolu_c',
        name: 'get_weather',
        ok: true,
        content: [
          { type: 'image', data: 'R0lGOD', mimeType: 'image/gif' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
      },
    ]);
    expect(wire).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
          content: '{"temperature":15}',
          is_error: false,
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01B09q90qw90lq917835lq9',
          content:
            '{"error":{"code":"rate_limited","message":"Try again in 30s.","retryable":true}}',
          is_error: true,
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_c',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGOD' } },
            { type: 'text', text: '[audio audio/wav, 3 bytes, not shown]' },
          ],
          is_error: false,
        },
      ],
    });
  });

  it('fits call ids to ^[a-zA-Z0-9_-]+$ identically for tool_use and tool_result', () => {
    const id = 'functions.write_todos:0';
    const call = adapter.callsToWire([{ id, name: 'write_todos', arguments: {} }]).content[0];
    const result = adapter.resultsToWire([
      { call_id: id, name: 'write_todos', ok: true, data: null },
    ]).content[0];
    expect(call?.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(result?.tool_use_id).toBe(call?.id);
  });

  it('reads a plain-text error from another source as a tool_error', () => {
    expect(
      adapter.resultsFromWire({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'x', content: 'boom', is_error: true }],
      }),
    ).toEqual([
      {
        call_id: 'x',
        name: 'unknown',
        ok: false,
        error: { code: 'tool_error', message: 'boom', retryable: false },
      },
    ]);
  });
});

describe('anthropic property names', () => {
  const tool = buildTool({
    name: 'shapes',
    parameters: {
      type: 'object',
      properties: {
        'array<any>': { type: 'array' },
        nested: { type: 'object', properties: { 'integer (format: int8)': { type: 'integer' } } },
        'ok.name-1': { type: 'string' },
      },
      required: ['array<any>'],
    },
  });
  const arrayKey = toWirePropertyName('array<any>', 'anthropic');
  const intKey = toWirePropertyName('integer (format: int8)', 'anthropic');

  it('renames keys outside ^[a-zA-Z0-9_.-]{1,64}$ at any depth, and reports each', () => {
    const { definitions, report } = adapter.toolsToWire([tool]);
    const schema = definitions[0]!.input_schema;
    expect(Object.keys(schema.properties ?? {})).toEqual([arrayKey, 'nested', 'ok.name-1']);
    expect(schema.required).toEqual([arrayKey]);
    expect(JSON.stringify(schema)).toContain(intKey);
    for (const key of [arrayKey, intKey]) expect(key).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
    expect(report.entries.map((entry) => [entry.path, entry.action])).toEqual([
      ['/properties/nested/properties/integer (format: int8)', 'rewritten'],
      ['/properties/array<any>', 'rewritten'],
    ]);
    expect(report.limits).toEqual([]);
  });

  it('maps renamed keys back in calls, whole and streamed', () => {
    const input = { [arrayKey]: [1], nested: { [intKey]: 8 }, 'ok.name-1': 'x' };
    const own = { 'array<any>': [1], nested: { 'integer (format: int8)': 8 }, 'ok.name-1': 'x' };
    const calls = adapter.callsFromWire(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'shapes', input }] },
      { tools: [tool] },
    );
    expect(calls[0]?.arguments).toEqual(own);
    const stream = createToolCallStream('anthropic', { tools: [tool] });
    const events = [
      ...stream.push({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'shapes', input: {} },
      }),
      ...stream.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
      }),
      ...stream.push({ type: 'content_block_stop', index: 0 }),
      ...stream.end(),
    ];
    const end = events.find((event) => event.type === 'tool_call_end');
    expect(end?.type === 'tool_call_end' ? end.call?.arguments : undefined).toEqual(own);
  });
});
