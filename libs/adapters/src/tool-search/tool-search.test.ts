import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../test/support/tool-factory';
import { getAdapter } from '../get-adapter';
import { AdapterError } from '../shared/adapter-error';
import { toWireName } from '../shared/names/tool-name-map';
import { PROVIDERS } from '../shared/provider';
import { createToolCallStream } from '../stream/create-tool-call-stream';
import anthropicMessage from './__fixtures__/anthropic-tool-search.json';
import responsesOutput from './__fixtures__/openai-responses-tool-search.json';
import { parseToolSearches } from './parse-tool-searches';
import {
  clientToolSearchTool,
  supportsToolSearch,
  toolSearchOutputToWire,
} from './tool-search-wire';

const forecast = buildTool({
  name: 'weather_forecast',
  description: 'Forecast for a city, by day.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
});
// A registry name the wire rewrites: what searches load maps back to it.
const refund = buildTool({ name: 'payments.refund' });
const weather = weatherTool();
const catalog = [forecast, refund, weather];
const eagerWeather = (tool: { name: string }) => tool.name !== weather.name;

describe('deferred loading in tool definitions', () => {
  it('Responses: every deferred function carries defer_loading, behind one tool_search', () => {
    const wire = getAdapter('openai-responses').toolsToWire(catalog, { deferLoading: true });
    expect(wire.tools[0]).toEqual({ type: 'tool_search' });
    expect(wire.tools.slice(1)).toEqual(wire.definitions);
    expect(wire.definitions.map((tool) => tool.defer_loading)).toEqual([true, true, true]);
    expect(wire.report.entries.filter((entry) => entry.keyword === 'defer_loading')).toEqual([]);
  });

  it('Responses: a predicate keeps the tools it returns false for loaded', () => {
    const wire = getAdapter('openai-responses').toolsToWire(catalog, {
      deferLoading: eagerWeather,
    });
    expect(wire.definitions.map((tool) => [tool.name, tool.defer_loading])).toEqual([
      ['weather_forecast', true],
      [toWireName('payments.refund', 'openai-responses'), true],
      ['get_current_weather', undefined],
    ]);
    expect('defer_loading' in wire.definitions[2]!).toBe(false);
  });

  it('Anthropic: deferred tools behind the BM25 tool search tool, cache and strict kept', () => {
    const wire = getAdapter('anthropic').toolsToWire(catalog, {
      deferLoading: eagerWeather,
      strict: true,
    });
    expect(wire.tools[0]).toEqual({
      type: 'tool_search_tool_bm25_20251119',
      name: 'tool_search_tool_bm25',
    });
    expect(wire.tools).toHaveLength(4);
    expect(wire.definitions.map((tool) => [tool.name, tool.defer_loading, tool.strict])).toEqual([
      ['weather_forecast', true, true],
      [toWireName('payments.refund', 'anthropic'), true, true],
      ['get_current_weather', undefined, true],
    ]);
  });

  it.each(['openai-responses', 'anthropic'] as const)(
    '%s: no search tool when nothing is deferred or the request brings its own',
    (provider) => {
      const adapter = getAdapter(provider);
      const plain = adapter.toolsToWire(catalog);
      expect(plain.tools).toEqual(plain.definitions);
      expect(JSON.stringify(plain.tools)).not.toContain('defer_loading');
      const allEager = adapter.toolsToWire(catalog, { deferLoading: () => false });
      expect(allEager.tools).toEqual(plain.tools);
      const own = adapter.toolsToWire(catalog, { deferLoading: true, toolSearch: 'none' });
      expect(own.tools).toEqual(own.definitions);
      expect(own.definitions.every((tool) => tool.defer_loading === true)).toBe(true);
    },
  );

  it.each(['openai-chat', 'gemini', 'mcp'] as const)(
    '%s: deferred loading is reported, not sent, and every tool is loaded',
    (provider) => {
      const adapter = getAdapter(provider);
      const deferred = adapter.toolsToWire(catalog, { deferLoading: true });
      const plain = adapter.toolsToWire(catalog);
      expect(deferred.tools).toEqual(plain.tools);
      const added = deferred.report.entries.slice(plain.report.entries.length);
      expect(added).toEqual([
        {
          tool: '*',
          path: '/',
          keyword: 'defer_loading',
          action: 'dropped',
          detail: expect.stringContaining('has no deferred loading'),
        },
      ]);
      expect(adapter.toolsToWire(catalog, { deferLoading: () => false }).report).toEqual(
        plain.report,
      );
    },
  );

  it('says which formats have tool search', () => {
    expect(PROVIDERS.filter(supportsToolSearch)).toEqual(['openai-responses', 'anthropic']);
  });
});

describe('parseToolSearches: Responses', () => {
  it('reads server and client searches and what they loaded, by ToolIR name', () => {
    expect(parseToolSearches('openai-responses', responsesOutput, { tools: catalog })).toEqual({
      calls: [
        {
          id: null,
          execution: 'server',
          arguments: { paths: ['weather_forecast'] },
          query: null,
        },
        {
          id: 'call_search_1',
          execution: 'client',
          arguments: { query: 'refund a card payment', limit: 3 },
          query: 'refund a card payment',
        },
      ],
      results: [{ callId: null, execution: 'server', tools: ['weather_forecast'] }],
    });
  });

  it('leaves search items out of the calls, and the calls out of the searches', () => {
    const calls = getAdapter('openai-responses').callsFromWire(responsesOutput, { tools: catalog });
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ['call_weather_1', 'weather_forecast'],
    ]);
    expect(getAdapter('openai-responses').resultsFromWire(responsesOutput)).toEqual([]);
  });

  it('reads a tool_search_output it wrote, and arguments sent as JSON text', () => {
    const definitions = getAdapter('openai-responses').toolsToWire([refund]).tools;
    const output = toolSearchOutputToWire('call_search_1', definitions);
    expect(output).toEqual({
      type: 'tool_search_output',
      call_id: 'call_search_1',
      execution: 'client',
      status: 'completed',
      tools: definitions,
    });
    const call = {
      type: 'tool_search_call',
      call_id: 'call_search_1',
      execution: 'client',
      arguments: '{"query":"refund"}',
    };
    expect(parseToolSearches('openai-responses', [call, output], { tools: catalog })).toEqual({
      calls: [
        {
          id: 'call_search_1',
          execution: 'client',
          arguments: { query: 'refund' },
          query: 'refund',
        },
      ],
      results: [{ callId: 'call_search_1', execution: 'client', tools: ['payments.refund'] }],
    });
  });

  it('refuses arguments that are not an object, and unknown items, with where', () => {
    const bad = { type: 'tool_search_call', call_id: 'c', execution: 'client', arguments: '[1]' };
    expect(() => parseToolSearches('openai-responses', { output: [bad] })).toThrow(AdapterError);
    try {
      parseToolSearches('openai-responses', { output: [bad] });
    } catch (error) {
      expect((error as AdapterError).path).toBe('/output/0/arguments');
    }
    expect(() => parseToolSearches('openai-responses', [{ type: 'tool_search_guess' }])).toThrow(
      AdapterError,
    );
    expect(() => parseToolSearches('openai-responses', 'text')).toThrow(AdapterError);
  });

  it('builds the client-executed tool_search tool', () => {
    const parameters = { type: 'object', properties: { query: { type: 'string' } } };
    expect(clientToolSearchTool({ description: 'Find tools.', parameters })).toEqual({
      type: 'tool_search',
      execution: 'client',
      description: 'Find tools.',
      parameters,
    });
  });
});

describe('parseToolSearches: Anthropic', () => {
  it('reads BM25 and regex searches, their results and errors; other server tools are not searches', () => {
    expect(parseToolSearches('anthropic', anthropicMessage, { tools: catalog })).toEqual({
      calls: [
        {
          id: 'srvtoolu_01',
          execution: 'server',
          arguments: { query: 'weather forecast for a city' },
          query: 'weather forecast for a city',
        },
        {
          id: 'srvtoolu_02',
          execution: 'server',
          arguments: { pattern: '(?i)refund' },
          query: '(?i)refund',
        },
      ],
      results: [
        { callId: 'srvtoolu_01', execution: 'server', tools: ['weather_forecast'] },
        {
          callId: 'srvtoolu_02',
          execution: 'server',
          tools: [],
          error: {
            code: 'invalid_tool_input',
            message: 'pattern is not a valid regular expression',
          },
        },
      ],
    });
  });

  it('leaves search blocks out of the calls', () => {
    const calls = getAdapter('anthropic').callsFromWire(anthropicMessage, { tools: catalog });
    expect(calls.map((call) => [call.id, call.name])).toEqual([['toolu_01', 'weather_forecast']]);
  });

  it('reads a client search answered with tool_reference blocks, as a result and as a search', () => {
    const user = {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_search',
          content: [
            { type: 'tool_reference', tool_name: toWireName('payments.refund', 'anthropic') },
          ],
        },
      ],
    };
    expect(parseToolSearches('anthropic', user, { tools: catalog }).results).toEqual([
      { callId: 'toolu_search', execution: 'client', tools: ['payments.refund'] },
    ]);
    expect(getAdapter('anthropic').resultsFromWire(user)[0]).toMatchObject({
      ok: true,
      content: [
        { type: 'text', text: `tool_reference: ${toWireName('payments.refund', 'anthropic')}` },
      ],
    });
  });

  it('refuses malformed search blocks with where', () => {
    const broken = [
      { type: 'tool_search_tool_result', tool_use_id: 'x', content: { type: 'odd' } },
    ];
    expect(() => parseToolSearches('anthropic', broken)).toThrow(AdapterError);
    const input = [{ type: 'server_tool_use', id: 's', name: 'tool_search_tool_bm25', input: 3 }];
    try {
      parseToolSearches('anthropic', input);
      expect.unreachable();
    } catch (error) {
      expect((error as AdapterError).path).toBe('/0/input');
    }
  });
});

describe('parseToolSearches elsewhere', () => {
  it.each(['openai-chat', 'gemini', 'mcp'] as const)(
    '%s has no search items to read',
    (provider) => {
      expect(() => parseToolSearches(provider, [])).toThrow(AdapterError);
    },
  );
});

describe('streams skip tool search items', () => {
  it('Responses: a tool_search_call item yields no tool call', () => {
    const stream = createToolCallStream('openai-responses');
    const out = [
      ...stream.push({
        type: 'response.output_item.added',
        output_index: 0,
        item: { id: 'tsc_1', type: 'tool_search_call', execution: 'server', call_id: null },
      }),
      ...stream.push({
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          id: 'tsc_1',
          type: 'tool_search_call',
          execution: 'server',
          call_id: null,
          arguments: { paths: ['crm'] },
        },
      }),
      ...stream.end(),
    ];
    expect(out).toEqual([]);
  });

  it('Anthropic: a tool search server_tool_use block yields no tool call', () => {
    const stream = createToolCallStream('anthropic');
    const out = [
      ...stream.push({
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'server_tool_use',
          id: 'srvtoolu_1',
          name: 'tool_search_tool_bm25',
          input: {},
        },
      }),
      ...stream.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"query":"weather"}' },
      }),
      ...stream.push({ type: 'content_block_stop', index: 0 }),
      ...stream.end(),
    ];
    expect(out).toEqual([]);
  });
});
