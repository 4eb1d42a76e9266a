import { textInputParameters, type ToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { buildTool, weatherTool } from '../../../test/support/tool-factory';
import { sdkTypeErrors } from '../../../test/support/sdk-wire-schemas';
import { getAdapter } from '../../get-adapter';
import { createToolCallStream } from '../../stream/create-tool-call-stream';
import { checkWireTools } from '../provider-limits/check-wire-tools';

function textTool(
  name: string,
  grammar?: { syntax: 'lark' | 'regex'; definition: string },
): ToolIR {
  return buildTool({
    name,
    description: `The ${name} tool.`,
    input_format: { type: 'text', ...(grammar === undefined ? {} : { grammar }) },
    parameters: textInputParameters(),
  });
}

const sql = textTool('run_sql', { syntax: 'regex', definition: 'SELECT \\w+ FROM \\w+' });
const lark = textTool('math', {
  syntax: 'lark',
  definition: 'start: NUMBER ("+" NUMBER)*\n%import common.NUMBER',
});
const free = textTool('note');
const tools = [sql, lark, free, weatherTool()];

describe('free-text tools on OpenAI Responses', () => {
  const adapter = getAdapter('openai-responses');

  it('exports custom tools with their grammar, as the openai SDK types them', () => {
    const { definitions, report } = adapter.toolsToWire(tools);
    expect(definitions.slice(0, 3)).toEqual([
      {
        type: 'custom',
        name: 'run_sql',
        description: 'The run_sql tool.',
        format: { type: 'grammar', syntax: 'regex', definition: 'SELECT \\w+ FROM \\w+' },
      },
      {
        type: 'custom',
        name: 'math',
        description: 'The math tool.',
        format: {
          type: 'grammar',
          syntax: 'lark',
          definition:
            lark.input_format?.type === 'text' ? lark.input_format.grammar?.definition : '',
        },
      },
      { type: 'custom', name: 'note', description: 'The note tool.', format: { type: 'text' } },
    ]);
    expect(report.entries).toEqual([]);
    for (const definition of definitions)
      expect(sdkTypeErrors('openai-responses', definition)).toEqual([]);
    expect(checkWireTools('openai-responses', definitions)).toEqual([]);
  });

  it('imports a custom tool back as the same free-text tool', () => {
    const { definitions } = adapter.toolsToWire([sql]);
    const imported = adapter.toolFromWire(definitions[0]);
    expect(imported.input_format).toEqual(sql.input_format);
    expect(imported.parameters).toEqual(textInputParameters());
  });

  it('reads custom_tool_call items as text calls and answers them with custom_tool_call_output', () => {
    const calls = adapter.callsFromWire(
      {
        output: [
          {
            type: 'custom_tool_call',
            id: 'ctc_1',
            call_id: 'call_1',
            name: 'run_sql',
            input: 'SELECT a FROM b',
          },
          {
            type: 'function_call',
            call_id: 'call_2',
            name: 'get_current_weather',
            arguments: '{"location":"Oslo"}',
          },
        ],
      },
      { tools },
    );
    expect(calls[0]).toEqual({
      id: 'call_1',
      name: 'run_sql',
      arguments: { input: 'SELECT a FROM b' },
      raw_arguments: 'SELECT a FROM b',
      input_format: 'text',
    });
    expect(adapter.callsToWire(calls)).toEqual([
      { type: 'custom_tool_call', call_id: 'call_1', name: 'run_sql', input: 'SELECT a FROM b' },
      {
        type: 'function_call',
        call_id: 'call_2',
        name: 'get_current_weather',
        arguments: '{"location":"Oslo"}',
      },
    ]);
    const results = [
      { call_id: 'call_1', name: 'run_sql', ok: true, data: [{ a: 1 }] },
      { call_id: 'call_2', name: 'get_current_weather', ok: true, data: { celsius: 3 } },
    ];
    const byCalls = adapter.resultsToWire(results, { calls });
    expect(byCalls.map((item) => item.type)).toEqual([
      'custom_tool_call_output',
      'function_call_output',
    ]);
    // Without the calls, the tools tell which tool takes free text.
    expect(adapter.resultsToWire(results, { tools }).map((item) => item.type)).toEqual([
      'custom_tool_call_output',
      'function_call_output',
    ]);
    expect(adapter.resultsFromWire(byCalls, { calls })).toEqual(results);
  });

  it('streams a custom tool call as a partial text call', () => {
    const stream = createToolCallStream('openai-responses', { tools });
    const item = {
      type: 'custom_tool_call',
      id: 'ctc_1',
      call_id: 'call_1',
      name: 'run_sql',
      input: '',
    };
    const events = [
      { type: 'response.output_item.added', output_index: 0, item },
      {
        type: 'response.custom_tool_call_input.delta',
        item_id: 'ctc_1',
        output_index: 0,
        delta: 'SELECT a ',
      },
      {
        type: 'response.custom_tool_call_input.delta',
        item_id: 'ctc_1',
        output_index: 0,
        delta: 'FROM b',
      },
      {
        type: 'response.custom_tool_call_input.done',
        item_id: 'ctc_1',
        output_index: 0,
        input: 'SELECT a FROM b',
      },
    ].flatMap((event) => stream.push(event));
    expect(events).toEqual([
      { type: 'tool_call_start', id: 'call_1', name: 'run_sql', index: 0 },
      { type: 'tool_call_delta', id: 'call_1', partial: { input: 'SELECT a ' }, completePaths: [] },
      {
        type: 'tool_call_delta',
        id: 'call_1',
        partial: { input: 'SELECT a FROM b' },
        completePaths: [],
      },
      {
        type: 'tool_call_end',
        call: {
          id: 'call_1',
          name: 'run_sql',
          arguments: { input: 'SELECT a FROM b' },
          raw_arguments: 'SELECT a FROM b',
          input_format: 'text',
        },
      },
    ]);
  });

  it('ends a streamed text call that breaks its regex with invalid_arguments, a cut one with incomplete_arguments', () => {
    const stream = createToolCallStream('openai-responses', { tools });
    const item = {
      type: 'custom_tool_call',
      id: 'ctc_1',
      call_id: 'call_1',
      name: 'run_sql',
      input: '',
    };
    const broken = [
      { type: 'response.output_item.added', output_index: 0, item },
      {
        type: 'response.custom_tool_call_input.done',
        item_id: 'ctc_1',
        output_index: 0,
        input: 'DROP TABLE b',
      },
    ].flatMap((event) => stream.push(event));
    expect(broken.at(-1)).toMatchObject({
      type: 'tool_call_end',
      error: {
        code: 'invalid_arguments',
        message: '/input must match the whole regular expression SELECT \\w+ FROM \\w+',
      },
    });
    const cut = createToolCallStream('openai-responses', { tools });
    cut.push({ type: 'response.output_item.added', output_index: 0, item });
    cut.push({
      type: 'response.custom_tool_call_input.delta',
      item_id: 'ctc_1',
      output_index: 0,
      delta: 'SELECT a',
    });
    expect(cut.end()).toMatchObject([
      { type: 'tool_call_end', error: { code: 'incomplete_arguments' } },
    ]);
  });
});

describe('free-text tools on OpenAI Chat Completions', () => {
  const adapter = getAdapter('openai-chat');

  it('exports custom tools as the openai SDK types them, and imports them back', () => {
    const { definitions, report } = adapter.toolsToWire([sql, free]);
    expect(definitions).toEqual([
      {
        type: 'custom',
        custom: {
          name: 'run_sql',
          description: 'The run_sql tool.',
          format: {
            type: 'grammar',
            grammar: { syntax: 'regex', definition: 'SELECT \\w+ FROM \\w+' },
          },
        },
      },
      {
        type: 'custom',
        custom: { name: 'note', description: 'The note tool.', format: { type: 'text' } },
      },
    ]);
    expect(report.entries).toEqual([]);
    for (const definition of definitions)
      expect(sdkTypeErrors('openai-chat', definition)).toEqual([]);
    expect(checkWireTools('openai-chat', definitions)).toEqual([]);
    expect(adapter.toolFromWire(definitions[0]).input_format).toEqual(sql.input_format);
  });

  it('reads tool_calls[].custom as text calls and replays them as custom calls', () => {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'custom', custom: { name: 'run_sql', input: 'SELECT a FROM b' } },
      ],
    };
    const calls = adapter.callsFromWire(message, { tools });
    expect(calls).toEqual([
      {
        id: 'call_1',
        name: 'run_sql',
        arguments: { input: 'SELECT a FROM b' },
        raw_arguments: 'SELECT a FROM b',
        input_format: 'text',
      },
    ]);
    expect(adapter.callsToWire(calls)).toEqual(message);
    // The Chat answer to a custom call is a role: 'tool' message, as for a function.
    expect(
      adapter.resultsToWire([{ call_id: 'call_1', name: 'run_sql', ok: true, data: 'ok' }], {
        calls,
      }),
    ).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '"ok"' }]);
  });
});

describe('free-text tools on wires without them', () => {
  it.each(['anthropic', 'gemini', 'mcp'] as const)(
    '%s: a function with one string parameter and a report entry',
    (provider) => {
      const adapter = getAdapter(provider);
      const { definitions, report } = adapter.toolsToWire([sql, lark]);
      // Besides these, the wire's own schema rules are reported as for any tool (Gemini drops
      // additionalProperties).
      expect(report.entries.filter((entry) => entry.path.startsWith('/input_format'))).toEqual([
        {
          tool: 'run_sql',
          path: '/input_format',
          keyword: 'input_format',
          action: 'rewritten',
          detail:
            'free text sent as a function with one string parameter "input"; calls come back as that text',
        },
        {
          tool: 'run_sql',
          path: '/input_format/grammar',
          keyword: 'grammar',
          action: 'rewritten',
          detail:
            'the regex is the pattern of "input" (and named in its description); the gateway matches it before the tool runs',
        },
        {
          tool: 'math',
          path: '/input_format',
          keyword: 'input_format',
          action: 'rewritten',
          detail:
            'free text sent as a function with one string parameter "input"; calls come back as that text',
        },
        {
          tool: 'math',
          path: '/input_format/grammar',
          keyword: 'grammar',
          action: 'moved_to_description',
          detail: 'the Lark grammar is stated in the description of "input"; nothing enforces it',
        },
      ]);
      const serialized = JSON.stringify(definitions);
      expect(serialized).toContain(JSON.stringify('^(?:SELECT \\w+ FROM \\w+)$'));
      expect(serialized).toContain('must follow this Lark grammar');
      if (provider !== 'mcp')
        for (const definition of definitions)
          expect(sdkTypeErrors(provider, definition)).toEqual([]);
      expect(checkWireTools(provider, definitions)).toEqual([]);
    },
  );

  it('reads the function call back as the text call it is', () => {
    const calls = getAdapter('anthropic').callsFromWire(
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'run_sql', input: { input: 'SELECT a FROM b' } },
        ],
      },
      { tools },
    );
    expect(calls[0]?.arguments).toEqual({ input: 'SELECT a FROM b' });
  });

  it('names a regex JavaScript cannot read only in the description', () => {
    const posix = textTool('posix', { syntax: 'regex', definition: '[[:alpha:]]+\\z' });
    const { definitions, report } = getAdapter('mcp').toolsToWire([posix]);
    expect(JSON.stringify(definitions)).not.toContain('pattern');
    expect(report.entries[1]?.action).toBe('moved_to_description');
  });
});
