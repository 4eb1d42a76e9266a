import { describe, expect, it } from 'vitest';
import { AdapterError, getAdapter, type Provider, type ToolAdapter } from '../src/index';
import { ALL_ADAPTERS } from './support/payloads';

const GARBAGE: unknown[] = [
  null,
  undefined,
  42,
  'text',
  true,
  {},
  { foo: 1 },
  [null],
  [42],
  ['x'],
  [{}],
  [[]],
  Number.NaN,
];

function expectAdapterError(read: () => unknown): AdapterError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).code).toMatch(/^(adapter_error|invalid_json)$/);
    return error as AdapterError;
  }
  throw new Error('expected an AdapterError, got a result');
}

describe.each(ALL_ADAPTERS)('%s: malformed payloads throw AdapterError', (provider, adapter) => {
  it.each(GARBAGE.map((value) => [JSON.stringify(value) ?? String(value), value] as const))(
    'garbage %s',
    (_label, value) => {
      const error = expectAdapterError(() => adapter.toolFromWire(value));
      expect(error.provider).toBe(provider);
      expect(typeof error.path).toBe('string');
      if (!(Array.isArray(value) && value.length === 0)) {
        expectAdapterError(() => adapter.callsFromWire(value));
        expectAdapterError(() => adapter.parseCalls(value));
        expectAdapterError(() => adapter.resultsFromWire(value));
      }
    },
  );
});

const SPECIFIC: Record<string, Array<[string, (adapter: ToolAdapter) => unknown]>> = {
  'openai-chat': [
    ['wrong type of choices', (adapter) => adapter.callsFromWire({ choices: 'x' })],
    [
      'missing call id',
      (adapter) =>
        adapter.callsFromWire([{ type: 'function', function: { name: 'f', arguments: '{}' } }]),
    ],
    [
      'arguments as an object',
      (adapter) =>
        adapter.callsFromWire([
          { id: 'a', type: 'function', function: { name: 'f', arguments: {} } },
        ]),
    ],
    [
      'truncated JSON arguments',
      (adapter) =>
        adapter.callsFromWire([
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{"a":' } },
        ]),
    ],
    [
      'unknown tool call type',
      (adapter) =>
        adapter.callsFromWire([{ id: 'a', type: 'mystery', mystery: { name: 'f' } }]),
    ],
    [
      'null tool message content',
      (adapter) => adapter.resultsFromWire({ role: 'tool', tool_call_id: 'a', content: null }),
    ],
    [
      'tool message without call id',
      (adapter) => adapter.resultsFromWire({ role: 'tool', content: 'x' }),
    ],
  ],
  'openai-responses': [
    [
      'missing call_id',
      (adapter) => adapter.callsFromWire([{ type: 'function_call', name: 'f', arguments: '{}' }]),
    ],
    ['unknown item type', (adapter) => adapter.callsFromWire({ output: [{ type: 'hologram' }] })],
    [
      'truncated JSON arguments',
      (adapter) =>
        adapter.callsFromWire([
          { type: 'function_call', call_id: 'a', name: 'f', arguments: '{"a' },
        ]),
    ],
    [
      'output as a number',
      (adapter) =>
        adapter.resultsFromWire([{ type: 'function_call_output', call_id: 'a', output: 3 }]),
    ],
    ['null output', (adapter) => adapter.resultsFromWire({ output: null })],
  ],
  anthropic: [
    ['null content', (adapter) => adapter.callsFromWire({ role: 'assistant', content: null })],
    [
      'missing tool_use id',
      (adapter) => adapter.callsFromWire([{ type: 'tool_use', name: 'f', input: {} }]),
    ],
    [
      'input as a string',
      (adapter) =>
        adapter.callsFromWire([{ type: 'tool_use', id: 'a', name: 'f', input: '{"a":1' }]),
    ],
    ['unknown block type', (adapter) => adapter.callsFromWire([{ type: 'sparkles' }])],
    [
      'tool_result without id',
      (adapter) => adapter.resultsFromWire([{ type: 'tool_result', content: 'x' }]),
    ],
    [
      'input_schema not an object schema',
      (adapter) => adapter.toolFromWire({ name: 'f', input_schema: { type: 'string' } }),
    ],
  ],
  gemini: [
    ['candidates not a list', (adapter) => adapter.callsFromWire({ candidates: {} })],
    [
      'functionCall without name',
      (adapter) => adapter.callsFromWire([{ functionCall: { args: {} } }]),
    ],
    [
      'args as a string',
      (adapter) => adapter.callsFromWire([{ functionCall: { name: 'f', args: '{}' } }]),
    ],
    ['unknown part', (adapter) => adapter.callsFromWire({ parts: [{ sparkle: 1 }] })],
    ['null parts', (adapter) => adapter.callsFromWire({ role: 'model', parts: null })],
    [
      'content list that is not content',
      (adapter) =>
        adapter.resultsFromWire([
          { functionResponse: { name: 'f', response: { content: [{ type: 'video' }] } } },
        ]),
    ],
  ],
  mcp: [
    [
      'wrong method',
      (adapter) =>
        adapter.callsFromWire({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { name: 'f' },
        }),
    ],
    [
      'arguments as a string',
      (adapter) =>
        adapter.callsFromWire({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'f', arguments: '{}' },
        }),
    ],
    [
      'result without content',
      (adapter) => adapter.resultsFromWire({ jsonrpc: '2.0', id: 1, result: { isError: false } }),
    ],
    [
      'unknown content type',
      (adapter) =>
        adapter.resultsFromWire({
          jsonrpc: '2.0',
          id: 1,
          result: { content: [{ type: 'video', uri: 'x' }] },
        }),
    ],
    [
      'null content',
      (adapter) => adapter.resultsFromWire({ jsonrpc: '2.0', id: 1, result: { content: null } }),
    ],
    [
      'inputSchema without type object',
      (adapter) => adapter.toolFromWire({ name: 'f', inputSchema: {} }),
    ],
  ],
};

describe.each(Object.entries(SPECIFIC))('%s: specific malformed payloads', (provider, cases) => {
  it.each(cases)('%s', (_label, read) => {
    const error = expectAdapterError(() => read(getAdapter(provider as Provider)));
    expect(error.path).toMatch(/^\//);
    for (const issue of error.details?.issues ?? []) expect(issue.path).toMatch(/^\//);
  });
});

describe('getAdapter', () => {
  it('refuses an unknown provider with an AdapterError', () => {
    expect(() => getAdapter('cohere' as never)).toThrow(AdapterError);
    expect(() => getAdapter('__proto__' as never)).toThrow(AdapterError);
  });
});
