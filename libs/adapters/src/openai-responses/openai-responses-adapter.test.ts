import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../test/support/tool-factory';
import { AdapterError } from '../shared/adapter-error';
import response from './__fixtures__/response-function-calls.json';
import { openAIResponsesAdapter as adapter } from './openai-responses-adapter';

describe('openai-responses tools', () => {
  it('writes {type:function, name, description, parameters, strict} with strict always explicit', () => {
    const { tools, requestOptions } = adapter.toolsToWire([weatherTool()], { parallelCalls: true });
    expect(tools).toEqual([
      {
        type: 'function',
        name: 'get_current_weather',
        description: 'Get the current weather in a given location.',
        parameters: weatherTool().parameters,
        strict: false,
      },
    ]);
    expect(requestOptions).toEqual({ parallel_tool_calls: true });
    expect(adapter.toolsToWire([weatherTool()], { strict: true }).tools[0]).toHaveProperty(
      'parameters',
      {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
          unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
        },
        required: ['location', 'unit'],
        additionalProperties: false,
      },
    );
  });

  it('imports a tool definition back, with an omitted parameters as an empty list', () => {
    const tool = adapter.toolFromWire({
      type: 'function',
      name: 'now',
      parameters: null,
      strict: false,
    });
    expect(tool).toMatchObject({
      name: 'now',
      description: '',
      version: '1.0.0',
      parameters: { type: 'object', properties: {} },
    });
  });
});

describe('openai-responses calls and results', () => {
  it('reads function_call items of a documented Response, skipping reasoning; strict nulls undone with the tools', () => {
    expect(adapter.callsFromWire(response, { tools: [weatherTool()] })).toEqual([
      {
        id: 'call_unLAR8MvFNptuiZK6K6HCy5k',
        name: 'get_current_weather',
        arguments: { location: 'Boston, MA', unit: 'celsius' },
        raw_arguments: '{"location":"Boston, MA","unit":"celsius"}',
      },
      {
        id: 'call_2',
        name: 'get_current_weather',
        arguments: { location: 'Paris' },
        raw_arguments: '{"location":"Paris","unit":null}',
      },
    ]);
    expect(adapter.callsFromWire(response.output)).toHaveLength(2);
    expect(adapter.callsFromWire(response.output[1])).toHaveLength(1);
  });

  it('rejects an unknown item type with an AdapterError at its path', () => {
    expect(() => adapter.callsFromWire({ output: [{ type: 'telepathy' }] })).toThrow(AdapterError);
    expect(() => adapter.callsFromWire({ output: [{ type: 'telepathy' }] })).toThrow(
      /\/output\/0\/type/,
    );
  });

  it('writes function_call_output items; images go as input_image data URLs and come back', () => {
    const results = [
      { call_id: 'call_2', name: 'get_current_weather', ok: true, data: { temperature: 18 } },
      {
        call_id: 'call_3',
        name: 'get_current_weather',
        ok: true,
        content: [
          { type: 'text' as const, text: 'radar:' },
          { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
      },
      {
        call_id: 'call_4',
        name: 'get_current_weather',
        ok: false,
        error: { code: 'upstream_error', message: 'HTTP 503', retryable: true },
      },
    ];
    const wire = adapter.resultsToWire(results);
    expect(wire).toEqual([
      { type: 'function_call_output', call_id: 'call_2', output: '{"temperature":18}' },
      {
        type: 'function_call_output',
        call_id: 'call_3',
        output: [
          { type: 'input_text', text: 'radar:' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_4',
        output: '{"error":{"code":"upstream_error","message":"HTTP 503","retryable":true}}',
      },
    ]);
    expect(
      adapter.resultsFromWire(wire, {
        calls: results.map((result) => ({ id: result.call_id, name: result.name, arguments: {} })),
      }),
    ).toEqual(results);
  });

  it('fits call ids to 1–64 characters identically for the call and its result', () => {
    const longId = `call_${'x'.repeat(80)}`;
    const [call] = adapter.callsToWire([
      { id: longId, name: 'get_current_weather', arguments: {} },
    ]);
    const [output] = adapter.resultsToWire([
      { call_id: longId, name: 'get_current_weather', ok: true, data: 1 },
    ]);
    expect(call?.call_id.length).toBeLessThanOrEqual(64);
    expect(output?.call_id).toBe(call?.call_id);
  });

  it('keeps names it does not know as they are', () => {
    const tool = buildTool({ name: 'known' });
    expect(
      adapter.callsFromWire(
        { type: 'function_call', call_id: 'c', name: 'other', arguments: '{}' },
        { tools: [tool] },
      )[0]?.name,
    ).toBe('other');
  });
});

describe('openai-responses strict per tool', () => {
  it('is strict for a tool that asks to be, and keeps it through an import', () => {
    const asksStrict = buildTool({
      ...weatherTool('strict_weather'),
      provider_hints: { openai: { strict: true } },
    });
    const wire = adapter.toolsToWire([asksStrict, weatherTool()]);
    expect(wire.definitions.map((tool) => tool.type === 'function' && tool.strict)).toEqual([
      true,
      false,
    ]);
    expect(adapter.toolsToWire([asksStrict], { strict: false }).definitions[0]).toHaveProperty(
      'strict',
      false,
    );
    const imported = adapter.toolFromWire(wire.definitions[0]);
    expect(imported.provider_hints).toEqual({ openai: { strict: true } });
  });
});
