import { describe, expect, it } from 'vitest';
import { buildTool } from '../../test/support/tool-factory';
import { toWirePropertyName } from '../shared/names/property-names';
import { synthesizeCallId } from '../shared/synthesize-call-id';
import withIds from './__fixtures__/generate-content-function-calls-with-ids.json';
import withoutIds from './__fixtures__/generate-content-function-calls.json';
import { geminiAdapter as adapter } from './gemini-adapter';

function convert(properties: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const tool = buildTool({ name: 'rules', parameters: { type: 'object', properties, ...extra } });
  const { definitions, report } = adapter.toolsToWire([tool]);
  return {
    parameters: definitions[0]?.parameters,
    report: report.entries.map((entry) => `${entry.path} ${entry.keyword} ${entry.action}`),
    limits: report.limits,
  };
}

describe('gemini schema downgrade (provider-rules §2.1)', () => {
  it.each([
    ['const string -> enum', { const: 'a' }, { type: 'STRING', enum: ['a'] }],
    [
      'type array with null -> nullable',
      { type: ['string', 'null'] },
      { type: 'STRING', nullable: true },
    ],
    [
      'type array of two -> anyOf',
      { type: ['string', 'number'] },
      { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
    ],
    [
      'anyOf [X, null] -> X nullable',
      { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], description: 'n' },
      { type: 'INTEGER', minimum: 1, nullable: true, description: 'n' },
    ],
    [
      'anyOf of two + null',
      { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true },
    ],
    [
      'oneOf -> anyOf',
      { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
      { anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }] },
    ],
    [
      'integer enum -> format enum, strings',
      { type: 'integer', enum: [1, 2] },
      { type: 'INTEGER', format: 'enum', enum: ['1', '2'] },
    ],
    [
      'enum with "" -> removed',
      { type: 'string', enum: ['', 'x'] },
      { type: 'STRING', enum: ['x'] },
    ],
    [
      'enum with null -> nullable',
      { enum: ['a', null] },
      { type: 'STRING', enum: ['a'], nullable: true },
    ],
    ['mixed enum -> strings', { enum: ['a', 1] }, { type: 'STRING', enum: ['a', '1'] }],
    [
      'boolean enum -> boolean + description',
      { const: true },
      { type: 'BOOLEAN', description: '{enum: [true]}' },
    ],
    [
      'string format email -> description',
      { type: 'string', format: 'email' },
      { type: 'STRING', description: '{format: "email"}' },
    ],
    [
      'string format date-time kept',
      { type: 'string', format: 'date-time' },
      { type: 'STRING', format: 'date-time' },
    ],
    [
      'integer format int64 kept',
      { type: 'integer', format: 'int64' },
      { type: 'INTEGER', format: 'int64' },
    ],
    [
      'default -> description',
      { type: 'integer', default: 3 },
      { type: 'INTEGER', description: '{default: 3}' },
    ],
    [
      'examples -> example',
      { type: 'string', examples: ['a', 'b'] },
      { type: 'STRING', example: 'a' },
    ],
    [
      'exclusiveMinimum -> description',
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'NUMBER', description: '{exclusiveMinimum: 0}' },
    ],
    [
      'int64 fields as strings',
      { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 3 },
      { type: 'ARRAY', items: { type: 'STRING', minLength: '1' }, minItems: '1', maxItems: '3' },
    ],
    [
      'array without items -> items string',
      { type: 'array' },
      { type: 'ARRAY', items: { type: 'STRING' } },
    ],
    [
      'prefixItems of one type -> items',
      { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
      { type: 'ARRAY', items: { type: 'NUMBER' } },
    ],
    [
      'properties without type -> OBJECT',
      { properties: { a: { type: 'string' } } },
      { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
    ],
    [
      'nested empty object keeps no properties',
      { type: 'object', properties: {} },
      { type: 'OBJECT' },
    ],
    [
      'additionalProperties dropped',
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
      { type: 'OBJECT', properties: { a: { type: 'STRING' } } },
    ],
    [
      'allOf of disjoint keywords merged',
      { allOf: [{ type: 'string' }, { minLength: 2 }] },
      { type: 'STRING', minLength: '2' },
    ],
    [
      'allOf of objects merged',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } } },
        ],
      },
      {
        type: 'OBJECT',
        properties: { a: { type: 'STRING' }, b: { type: 'INTEGER' } },
        required: ['a'],
      },
    ],
  ])('%s', (_rule, schema, expected) => {
    expect(convert({ x: schema }).parameters?.properties?.['x']).toEqual(expected);
  });

  it('reports every change it makes', () => {
    const { report } = convert({
      a: { type: 'number', exclusiveMinimum: 0 },
      b: { type: 'string', enum: ['', 'x'] },
      c: { type: 'object', properties: { d: { type: 'string' } }, additionalProperties: false },
      e: { type: 'null' },
      f: true,
      g: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    });
    expect(report).toEqual([
      '/properties/a/exclusiveMinimum exclusiveMinimum moved_to_description',
      '/properties/b/enum enum dropped',
      '/properties/c/additionalProperties additionalProperties dropped',
      '/properties/e/type type dropped',
      '/properties/e properties dropped',
      '/properties/f boolean schema dropped',
      '/properties/f properties dropped',
      '/properties/g/oneOf oneOf rewritten',
    ]);
  });

  it('inlines $ref and cuts recursion after one expansion, reporting the cut', () => {
    const tool = buildTool({
      name: 'tree',
      parameters: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        $defs: {
          Node: {
            type: 'object',
            properties: {
              label: { type: 'string' },
              children: { type: 'array', items: { $ref: '#/$defs/Node' } },
            },
          },
        },
      },
    });
    const { definitions, report } = adapter.toolsToWire([tool]);
    expect(definitions[0]?.parameters).toEqual({
      type: 'OBJECT',
      properties: {
        root: {
          type: 'OBJECT',
          properties: {
            label: { type: 'STRING' },
            children: {
              type: 'ARRAY',
              items: { type: 'OBJECT', description: '(recursive: Node)' },
            },
          },
        },
      },
    });
    expect(report.entries).toContainEqual({
      tool: 'tree',
      path: '/properties/root/properties/children/items',
      keyword: '$ref',
      action: 'rewritten',
      detail: 'recursive reference #/$defs/Node cut after 1 expansion(s)',
    });
    const deeper = adapter.toolsToWire([tool], { maxRecursion: 2 }).definitions[0]?.parameters;
    expect(JSON.stringify(deeper)).toContain(
      '"children":{"type":"ARRAY","items":{"type":"OBJECT","properties":{"label"',
    );
  });

  it('omits parameters for a tool without any, and sends description "" rather than nothing', () => {
    const { definitions, tools } = adapter.toolsToWire([
      buildTool({ name: 'now', description: '' }),
    ]);
    expect(definitions).toEqual([{ name: 'now', description: '' }]);
    expect(tools).toEqual([{ functionDeclarations: definitions }]);
    expect(adapter.toolsToWire([]).tools).toEqual([]);
  });

  it('renames parameter names outside ^[A-Za-z_][A-Za-z0-9_]{0,63}$ and maps calls back', () => {
    const { parameters, limits } = convert({ città: { type: 'string' } });
    const wire = toWirePropertyName('città', 'gemini');
    expect(wire).toMatch(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);
    expect(Object.keys(parameters?.properties ?? {})).toEqual([wire]);
    expect(limits).toEqual([]);
    const tool = buildTool({
      name: 'rules',
      parameters: { type: 'object', properties: { città: { type: 'string' } } },
    });
    const calls = adapter.callsFromWire(
      [{ functionCall: { id: 'c1', name: 'rules', args: { [wire]: 'Roma' } } }],
      { tools: [tool] },
    );
    expect(calls[0]?.arguments).toEqual({ città: 'Roma' });
    // Without the tools, nothing is known to map back.
    expect(
      adapter.callsFromWire([
        { functionCall: { id: 'c1', name: 'rules', args: { [wire]: 'Roma' } } },
      ])[0]?.arguments,
    ).toEqual({ [wire]: 'Roma' });
  });

  it('reports request options Gemini cannot carry instead of dropping them silently', () => {
    const { report, requestOptions } = adapter.toolsToWire([buildTool({ name: 'a' })], {
      strict: true,
      parallelCalls: false,
    });
    expect(requestOptions).toEqual({});
    expect(report.entries).toEqual([
      {
        tool: '*',
        path: '/',
        keyword: 'strict',
        action: 'dropped',
        detail: 'Gemini has no strict schema mode',
      },
      {
        tool: '*',
        path: '/',
        keyword: 'parallelCalls',
        action: 'dropped',
        detail: 'Gemini cannot turn off parallel calls',
      },
    ]);
  });

  it('jsonschema mode sends parametersJsonSchema minus $schema/$id', () => {
    const tool = buildTool({
      name: 'js',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { a: { $ref: '#/$defs/A' } },
        $defs: { A: { type: 'string' } },
      },
    });
    const { definitions, report } = adapter.toolsToWire([tool], { schemaMode: 'jsonschema' });
    expect(definitions[0]).toEqual({
      name: 'js',
      description: 'The js tool.',
      parametersJsonSchema: {
        type: 'object',
        properties: { a: { $ref: '#/$defs/A' } },
        $defs: { A: { type: 'string' } },
      },
    });
    expect(report.entries).toEqual([
      { tool: 'js', path: '/$schema', keyword: '$schema', action: 'dropped' },
    ]);
  });

  it('imports OpenAPI schemas back to JSON Schema (nullable, numeric enums, int64 strings)', () => {
    const tool = adapter.toolFromWire({
      name: 'f',
      parameters: {
        type: 'OBJECT',
        properties: {
          n: { type: 'INTEGER', format: 'enum', enum: ['1', '2'], nullable: true },
          s: { type: 'STRING', maxLength: '5' },
        },
        required: ['n'],
      },
    });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        n: { type: ['integer', 'null'], enum: [1, 2, null] },
        s: { type: 'string', maxLength: 5 },
      },
      required: ['n'],
    });
  });
});

describe('gemini calls and results', () => {
  it('synthesizes ids for calls without one, exactly as the streaming parser does', () => {
    const calls = adapter.callsFromWire(withoutIds);
    expect(calls).toEqual([
      {
        id: synthesizeCallId({ name: 'turn_on_the_lights', ordinal: 0, arguments: {} }),
        name: 'turn_on_the_lights',
        arguments: {},
      },
      {
        id: synthesizeCallId({
          name: 'set_light_color',
          ordinal: 1,
          arguments: { rgb_hex: 'ff0000' },
        }),
        name: 'set_light_color',
        arguments: { rgb_hex: 'ff0000' },
      },
    ]);
    expect(adapter.callsFromWire(withoutIds)).toEqual(calls);
    const replay = adapter.callsToWire(calls);
    expect(replay.parts.every((part) => part.functionCall.id === undefined)).toBe(true);
    expect(adapter.callsFromWire(replay)).toEqual(calls);
  });

  it('says which ids it made up, so a gateway does not take them for the same call', () => {
    const parsed = adapter.parseCalls(withoutIds);
    expect(parsed.synthesizedIds).toEqual(parsed.calls.map((call) => call.id));
    expect(adapter.parseCalls(withIds).synthesizedIds).toBeUndefined();
  });

  it('answers a call without id by name (no id sent), and a call with id by id', () => {
    const [lights] = adapter.callsFromWire(withoutIds);
    const [meeting] = adapter.callsFromWire(withIds);
    expect(meeting?.id).toBe('call_4162774');
    const wire = adapter.resultsToWire([
      { call_id: lights?.id ?? '', name: 'turn_on_the_lights', ok: true, data: { on: true } },
      {
        call_id: 'call_4162774',
        name: 'schedule_meeting',
        ok: false,
        error: { code: 'approval_denied', message: 'Alice declined.', retryable: false },
      },
    ]);
    expect(wire).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'turn_on_the_lights', response: { output: { on: true } } } },
        {
          functionResponse: {
            id: 'call_4162774',
            name: 'schedule_meeting',
            response: {
              error: { code: 'approval_denied', message: 'Alice declined.', retryable: false },
            },
          },
        },
      ],
    });
    const back = adapter.resultsFromWire(wire, { calls: [lights!, meeting!] });
    expect(back.map((result) => [result.call_id, result.name, result.ok])).toEqual([
      [lights?.id, 'turn_on_the_lights', true],
      ['call_4162774', 'schedule_meeting', false],
    ]);
  });

  it('reads a foreign functionResponse without output/error keys as the whole output', () => {
    expect(
      adapter.resultsFromWire([
        { functionResponse: { id: 'a', name: 'f', response: { temperature: 3 } } },
      ]),
    ).toEqual([{ call_id: 'a', name: 'f', ok: true, data: { temperature: 3 } }]);
  });
});
