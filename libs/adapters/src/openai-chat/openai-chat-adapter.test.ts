import { ToolgateError } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../test/support/tool-factory';
import { AdapterError, InvalidToolArgumentsError } from '../shared/adapter-error';
import { invalidArgumentsResult } from '../shared/invalid-arguments-result';
import { mangleName } from '../shared/names/mangle-name';
import { checkWireTools } from '../shared/provider-limits/check-wire-tools';
import { PROVIDER_LIMITS } from '../shared/provider-limits/provider-limits';
import completion from './__fixtures__/chat-completion-parallel-tool-calls.json';
import truncated from './__fixtures__/chat-completion-truncated-arguments.json';
import { openAIResponsesAdapter } from '../openai-responses/openai-responses-adapter';
import type { OpenAIChatTool, OpenAIChatFunctionTool } from './openai-chat-api';
import { openAIChatAdapter as adapter } from './openai-chat-adapter';

/** The `function` of a function tool definition; a custom tool fails the test. */
function fn(tool: OpenAIChatTool | undefined): OpenAIChatFunctionTool['function'] {
  if (tool?.type !== 'function') throw new Error(`expected a function tool, got ${tool?.type}`);
  return tool.function;
}

const listUnits = buildTool({ name: 'list_units', description: 'List the units.' });

describe('openai-chat tools', () => {
  it('writes {type:function, function:{name, description, parameters, strict}} and parallel_tool_calls', () => {
    const { tools, requestOptions, report } = adapter.toolsToWire([weatherTool()], {
      parallelCalls: false,
    });
    expect(tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_current_weather',
          description: 'Get the current weather in a given location.',
          parameters: weatherTool().parameters,
          strict: false,
        },
      },
    ]);
    expect(requestOptions).toEqual({ parallel_tool_calls: false });
    expect(report).toEqual({
      entries: [],
      names: [{ name: 'get_current_weather', wireName: 'get_current_weather' }],
      limits: [],
    });
    expect(adapter.toolsToWire([weatherTool()]).requestOptions).toEqual({});
  });

  it('strict: every property required, optional ones nullable, additionalProperties false, the rest in descriptions', () => {
    const tool = buildTool({
      name: 'book',
      parameters: {
        type: 'object',
        properties: {
          guests: { type: 'integer', minimum: 1, maximum: 8 },
          note: { type: 'string', default: null },
          when: { type: 'string', format: 'date-time' },
          site: { type: 'string', format: 'uri' },
          room: {
            type: 'object',
            properties: { kind: { oneOf: [{ const: 'single' }, { const: 'double' }] } },
          },
        },
        required: ['guests'],
      },
    });
    const { tools, report } = adapter.toolsToWire([tool], { strict: true });
    const parameters = fn(tools[0]).parameters;
    expect(fn(tools[0]).strict).toBe(true);
    expect(parameters).toEqual({
      type: 'object',
      properties: {
        guests: { type: 'integer', description: '{minimum: 1, maximum: 8}' },
        note: { type: ['string', 'null'] },
        when: { type: ['string', 'null'], format: 'date-time' },
        site: { type: ['string', 'null'], description: '{format: "uri"}' },
        room: {
          type: ['object', 'null'],
          properties: {
            kind: {
              anyOf: [
                { const: 'single', type: 'string' },
                { const: 'double', type: 'string' },
                { type: 'null' },
              ],
            },
          },
          required: ['kind'],
          additionalProperties: false,
        },
      },
      required: ['guests', 'note', 'when', 'site', 'room'],
      additionalProperties: false,
    });
    const keywords = report.entries.map(
      (entry) => `${entry.path} ${entry.keyword} ${entry.action}`,
    );
    expect(keywords).toEqual(
      expect.arrayContaining([
        '/properties/guests/minimum minimum moved_to_description',
        '/properties/note/default default dropped',
        '/properties/site/format format moved_to_description',
        '/properties/room/properties/kind/oneOf oneOf rewritten',
        '/properties/note required rewritten',
        '/additionalProperties additionalProperties rewritten',
      ]),
    );
  });

  it('strict: checks the configurable limits (depth, property count, enum size) and reports them', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 7; level++)
      deep = { type: 'object', properties: { next: deep }, required: ['next'] };
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 120 }, (_, index) => [
          `p${index}`,
          { type: 'string', enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] },
        ]),
      ),
    };
    const { report } = adapter.toolsToWire(
      [
        buildTool({ name: 'deep', parameters: deep }),
        buildTool({ name: 'wide', parameters: wide }),
      ],
      {
        strict: true,
        limits: { maxNestingDepth: 5, maxProperties: 100, maxEnumValues: 1000 },
      },
    );
    expect(report.limits).toEqual([
      {
        tool: 'deep',
        limit: 'maxNestingDepth',
        actual: 7,
        max: 5,
        path: '/properties/next/properties/next/properties/next/properties/next/properties/next/properties/next',
      },
      { tool: 'wide', limit: 'maxProperties', actual: 120, max: 100 },
      { tool: 'wide', limit: 'maxEnumValues', actual: 1200, max: 1000 }, // each optional enum also gains null
    ]);
  });

  it('reports more than 128 functions (the Chat Completions maximum)', () => {
    const tools = Array.from({ length: 129 }, (_, index) => buildTool({ name: `t${index}` }));
    expect(adapter.toolsToWire(tools).report.limits).toEqual([
      { tool: '*', limit: 'maxTools', actual: 129, max: 128 },
    ]);
  });

  it('merges a top-level oneOf into the root (OpenAI rejects it) and says so in the description', () => {
    const tool = buildTool({
      name: 'lookup',
      parameters: {
        type: 'object',
        oneOf: [
          { properties: { id: { type: 'integer' } }, required: ['id'] },
          { properties: { email: { type: 'string' } }, required: ['email'] },
        ],
      },
    });
    const { tools, report } = adapter.toolsToWire([tool]);
    expect(fn(tools[0]).parameters).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, email: { type: 'string' } },
      description:
        'Provide exactly one of these shapes: (1) id [required: id]; (2) email [required: email].',
    });
    expect(report.entries).toEqual([
      {
        tool: 'lookup',
        path: '/oneOf',
        keyword: 'oneOf',
        action: 'moved_to_description',
        detail: 'top-level oneOf merged into the root object',
      },
    ]);
  });
});

describe('openai-chat calls', () => {
  it('reads every tool call of a documented ChatCompletion; "" is {} for a tool without parameters', () => {
    expect(adapter.callsFromWire(completion)).toEqual([
      {
        id: 'call_abc123',
        name: 'get_current_weather',
        arguments: { location: 'Boston, MA' },
        raw_arguments: '{\n"location": "Boston, MA"\n}',
      },
      {
        id: 'call_def456',
        name: 'get_current_weather',
        arguments: { location: 'Paris, France', unit: null },
        raw_arguments: '{"location": "Paris, France", "unit": null}',
      },
      { id: 'call_ghi789', name: 'list_units', arguments: {}, raw_arguments: '' },
    ]);
  });

  it('with the tools, undoes strict-mode nulls for optional properties', () => {
    const calls = adapter.callsFromWire(completion, { tools: [weatherTool(), listUnits] });
    expect(calls[1]?.arguments).toEqual({ location: 'Paris, France' });
  });

  it('reads a message or a bare tool_calls array the same way', () => {
    const message = completion.choices[0]?.message;
    expect(adapter.callsFromWire(message)).toEqual(adapter.callsFromWire(completion));
    expect(adapter.callsFromWire(message?.tool_calls)).toEqual(adapter.callsFromWire(completion));
  });

  it('turns truncated JSON into a typed error that carries the raw text and says it was cut, never a SyntaxError', () => {
    const parsed = adapter.parseCalls(truncated);
    expect(parsed.calls.map((call) => call.id)).toEqual(['call_ok']);
    const error = parsed.errors[0];
    expect(error).toBeInstanceOf(InvalidToolArgumentsError);
    expect(error).toBeInstanceOf(AdapterError);
    expect(ToolgateError.isInstance(error)).toBe(true);
    expect(error?.code).toBe('invalid_json');
    expect(error?.details).toMatchObject({
      provider: 'openai-chat',
      path: '/choices/0/message/tool_calls/1/function/arguments',
      callId: 'call_bad',
      name: 'get_current_weather',
      rawArguments: '{"location": "Ber',
      // Nothing in the text is wrong, it just stops: the response hit its token limit.
      cut: true,
    });
    expect(() => adapter.callsFromWire(truncated)).toThrow(InvalidToolArgumentsError);

    const result = invalidArgumentsResult(error as InvalidToolArgumentsError);
    expect(result).toMatchObject({
      call_id: 'call_bad',
      ok: false,
      error: { code: 'incomplete_arguments', retryable: false, details: { received: 17 } },
    });
    const [message] = adapter.resultsToWire([result]);
    expect(message?.role).toBe('tool');
    expect(JSON.parse(message?.content as string)).toMatchObject({
      error: { code: 'incomplete_arguments' },
    });

    const malformed = adapter.parseCalls({
      ...truncated,
      choices: [
        {
          ...truncated.choices[0],
          message: {
            ...truncated.choices[0]!.message,
            tool_calls: [
              {
                ...truncated.choices[0]!.message.tool_calls[1]!,
                function: { name: 'get_current_weather', arguments: '{"location": Ber}' },
              },
            ],
          },
        },
      ],
    }).errors[0];
    expect(malformed?.details).not.toHaveProperty('cut');
    expect(invalidArgumentsResult(malformed as InvalidToolArgumentsError).error?.code).toBe(
      'invalid_arguments',
    );
  });

  it('treats "" as invalid for a tool with required parameters, and non-object JSON as invalid', () => {
    const payload = [
      { id: 'a', type: 'function', function: { name: 'get_current_weather', arguments: '' } },
      { id: 'b', type: 'function', function: { name: 'get_current_weather', arguments: '[1,2]' } },
    ];
    const parsed = adapter.parseCalls(payload, { tools: [weatherTool()] });
    expect(parsed.calls).toEqual([]);
    expect(parsed.errors.map((error) => error.details.callId)).toEqual(['a', 'b']);
  });

  it('maps mangled names back to the tool, and refuses two tools that collide on the wire', () => {
    const tool = buildTool({ name: 'admin.tools.list' });
    const { tools, report } = adapter.toolsToWire([tool]);
    const wireName = fn(tools[0]).name ?? '';
    expect(wireName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(report.names).toEqual([{ name: 'admin.tools.list', wireName }]);
    const calls = adapter.callsFromWire(
      [{ id: 'c', type: 'function', function: { name: wireName, arguments: '{}' } }],
      { tools: [tool] },
    );
    expect(calls[0]?.name).toBe('admin.tools.list');
    expect(adapter.callsToWire(calls).tool_calls[0]).toHaveProperty('function.name', wireName);

    const twin = buildTool({
      name: mangleName('admin.tools.list', PROVIDER_LIMITS['openai-chat'].toolName),
    });
    expect(() => adapter.toolsToWire([tool, twin])).toThrow(
      expect.objectContaining({ code: 'name_collision' }),
    );
    expect(() => adapter.toolsToWire([tool, tool])).toThrow(
      expect.objectContaining({ code: 'name_collision' }),
    );
  });
});

describe('openai-chat results', () => {
  it('writes role:tool messages; an error is JSON the model can act on', () => {
    const messages = adapter.resultsToWire([
      { call_id: 'call_abc123', name: 'get_current_weather', ok: true, data: { temperature: 22 } },
      {
        call_id: 'call_def456',
        name: 'get_current_weather',
        ok: false,
        error: {
          code: 'timeout',
          message: 'The weather service did not answer in 5s.',
          retryable: true,
        },
      },
      {
        call_id: 'call_ghi789',
        name: 'list_units',
        ok: true,
        content: [
          { type: 'text', text: 'celsius, fahrenheit' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
    ]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_abc123', content: '{"temperature":22}' },
      {
        role: 'tool',
        tool_call_id: 'call_def456',
        content:
          '{"error":{"code":"timeout","message":"The weather service did not answer in 5s.","retryable":true}}',
      },
      {
        role: 'tool',
        tool_call_id: 'call_ghi789',
        content: [
          { type: 'text', text: 'celsius, fahrenheit' },
          { type: 'text', text: '[image image/png, 3 bytes, not shown]' },
        ],
      },
    ]);
  });

  it('reads plain-text tool messages from other sources as text content, skipping other roles', () => {
    expect(
      adapter.resultsFromWire([
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'x', content: 'sunny' },
      ]),
    ).toEqual([
      { call_id: 'x', name: 'unknown', ok: true, content: [{ type: 'text', text: 'sunny' }] },
    ]);
  });
});

describe('openai-chat strict per tool', () => {
  const asksStrict = buildTool({
    ...weatherTool('strict_weather'),
    provider_hints: { openai: { strict: true } },
  });

  it('is strict for a tool that asks to be, unless the request says otherwise', () => {
    const plain = adapter.toolsToWire([asksStrict, weatherTool()]);
    expect(plain.definitions.map((tool) => fn(tool).strict)).toEqual([true, false]);
    // Strict mode makes every property required; the optional unit becomes nullable.
    expect(fn(plain.definitions[0]).parameters['required']).toEqual(['location', 'unit']);
    const off = adapter.toolsToWire([asksStrict, weatherTool()], { strict: false });
    expect(off.definitions.map((tool) => fn(tool).strict)).toEqual([false, false]);
    const on = adapter.toolsToWire([asksStrict, weatherTool()], { strict: true });
    expect(on.definitions.map((tool) => fn(tool).strict)).toEqual([true, true]);
  });

  it('keeps a strict definition strict through an import', () => {
    const [wire] = adapter.toolsToWire([weatherTool()], { strict: true }).definitions;
    const imported = adapter.toolFromWire(wire);
    expect(imported.provider_hints).toEqual({ openai: { strict: true } });
    expect(fn(adapter.toolsToWire([imported]).definitions[0]).strict).toBe(true);
    const [loose] = adapter.toolsToWire([weatherTool()]).definitions;
    expect(adapter.toolFromWire(loose).provider_hints).toBeUndefined();
  });
});

describe('openai-chat shapes OpenAI refuses', () => {
  it('gives arrays items and untyped subschemas a type, and cuts a description past 1,024 characters', () => {
    const tool = buildTool({
      name: 'tag_items',
      description: 'x'.repeat(1136),
      parameters: {
        type: 'object',
        properties: { tags: { type: 'array' }, value: { description: 'any JSON value' } },
      },
    });
    for (const wireAdapter of [adapter, openAIResponsesAdapter]) {
      const { definitions, report } = wireAdapter.toolsToWire([tool]);
      const wire = definitions[0] as {
        description?: string;
        parameters?: Record<string, unknown>;
        function?: { description: string; parameters: Record<string, unknown> };
      };
      const fn = wire.function ?? wire;
      expect(fn.description).toHaveLength(1024);
      const scalars = ['string', 'number', 'boolean', 'null'];
      expect(fn.parameters?.['properties']).toEqual({
        tags: { type: 'array', items: { type: scalars } },
        value: { description: 'any JSON value', type: scalars },
      });
      expect(report.entries).toEqual([
        expect.objectContaining({ path: '/description', action: 'rewritten' }),
        expect.objectContaining({ path: '/properties/tags/items', action: 'rewritten' }),
        expect.objectContaining({ path: '/properties/tags/items/type', action: 'rewritten' }),
        expect.objectContaining({ path: '/properties/value/type', action: 'rewritten' }),
      ]);
      expect(checkWireTools(wireAdapter.provider, definitions)).toEqual([]);
    }
  });
});
