import { describe, expect, it } from 'vitest';
import { buildTool } from '../../../test/support/tool-factory';
import { getAdapter } from '../../get-adapter';
import { PROVIDERS } from '../provider';
import { checkWireTools } from './check-wire-tools';

function rules(problems: ReturnType<typeof checkWireTools>): string[] {
  return problems.map((problem) => `${problem.rule} ${problem.path}`);
}

describe('checkWireTools: what each wire refuses, by PROVIDER_LIMITS', () => {
  it('OpenAI: names, description length, the root, arrays without items, untyped subschemas', () => {
    const chat = {
      type: 'function',
      function: {
        name: 'admin.tools.list',
        description: 'x'.repeat(1025),
        parameters: {
          type: 'object',
          anyOf: [{ required: ['a'] }],
          properties: { a: { type: 'array' }, b: { description: 'anything' } },
        },
      },
    };
    expect(rules(checkWireTools('openai-chat', [chat]))).toEqual([
      'toolName /name',
      'maxDescriptionLength /function/description',
      'rootRefuses /function/parameters/anyOf',
      'subschemasNeedType /function/parameters/anyOf/0/type',
      'arraysNeedItems /function/parameters/properties/a/items',
      'subschemasNeedType /function/parameters/properties/b/type',
    ]);
    const responses = { type: 'function', name: 'f', parameters: { type: 'object' } };
    expect(rules(checkWireTools('openai-responses', [responses]))).toEqual([
      'rootNeedsProperties /parameters/properties',
    ]);
  });

  it('OpenAI strict: keywords, formats, additionalProperties and every key required', () => {
    const tool = {
      type: 'function',
      name: 'f',
      strict: true,
      parameters: {
        type: 'object',
        properties: { a: { type: 'string', format: 'uri', minLength: 2 } },
      },
    };
    expect(rules(checkWireTools('openai-responses', [tool]))).toEqual([
      'strict.additionalProperties /parameters/additionalProperties',
      'strict.requireAll /parameters/properties/a',
      'strict.keep /parameters/properties/a/minLength',
      'strict.formats /parameters/properties/a/format',
    ]);
  });

  it('Anthropic: property keys, and strict schemas that recurse', () => {
    const tool = {
      name: 'f',
      strict: true,
      input_schema: {
        type: 'object',
        additionalProperties: false,
        properties: { 'array<any>': { $ref: '#/$defs/Node' } },
        $defs: {
          Node: {
            type: 'object',
            additionalProperties: false,
            properties: { next: { $ref: '#/$defs/Node' } },
          },
        },
      },
    };
    expect(rules(checkWireTools('anthropic', [tool]))).toEqual([
      'propertyKey /input_schema/properties/array<any>',
      'recursiveSchema /input_schema',
    ]);
    // The provider's own tools are not function tools: nothing to check.
    expect(
      checkWireTools('anthropic', [{ type: 'tool_search_tool_bm25_20251119', name: 'x.y' }]),
    ).toEqual([]);
  });

  it('Gemini: its keyword subset, formats, enums, empty properties, keys and types', () => {
    const declaration = {
      name: '9lives',
      parameters: {
        type: 'OBJECT',
        properties: {
          a: { type: 'STRING', format: 'email', additionalProperties: false },
          b: { type: 'INTEGER', enum: [1, 2] },
          c: { type: 'OBJECT', properties: {} },
          'd-e': { type: 'STRING' },
          f: { description: 'untyped' },
          g: { type: 'ARRAY' },
        },
        required: ['a', 'zz'],
      },
    };
    expect(rules(checkWireTools('gemini', [declaration]))).toEqual([
      'toolName /name',
      'propertyKey /parameters/properties/d-e',
      'requiredNamesProperties /parameters/required/1',
      'keywords /parameters/properties/a/additionalProperties',
      'formats /parameters/properties/a/format',
      'stringEnums /parameters/properties/b/enum',
      'nonEmptyProperties /parameters/properties/c/properties',
      'subschemasNeedType /parameters/properties/f/type',
      'arraysNeedItems /parameters/properties/g/items',
    ]);
    expect(
      rules(checkWireTools('gemini', [{ name: 'f', parametersJsonSchema: { $schema: 'x' } }])),
    ).toEqual([
      'rootObject /parametersJsonSchema/type',
      'rootRefuses /parametersJsonSchema/$schema',
    ]);
  });

  it('MCP: the root and property schemas must be objects', () => {
    const tool = {
      name: 'f',
      inputSchema: { type: 'object', properties: { a: true } },
      outputSchema: { type: 'array' },
    };
    expect(rules(checkWireTools('mcp', [tool]))).toEqual([
      'propertiesAreObjects /inputSchema/properties/a',
      'rootObject /outputSchema/type',
    ]);
  });

  it('request limits: 129 Chat tools, five Anthropic cache breakpoints', () => {
    const chat = Array.from({ length: 129 }, (_, index) => ({
      type: 'function',
      function: { name: `f${index}`, parameters: { type: 'object', properties: {} } },
    }));
    expect(rules(checkWireTools('openai-chat', chat))).toEqual(['maxTools /']);
    const cached = Array.from({ length: 5 }, (_, index) => ({
      name: `f${index}`,
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' },
    }));
    expect(rules(checkWireTools('anthropic', cached))).toEqual(['maxCacheBreakpoints /']);
  });

  it.each(PROVIDERS)(
    '%s: what the converter makes of a hostile tool passes the check',
    (provider) => {
      const tool = buildTool({
        name: 'admin tools/list: every one',
        description: 'd'.repeat(5000),
        parameters: {
          type: 'object',
          oneOf: [{ required: ['array<any>'] }, { required: ['b'] }],
          properties: {
            'array<any>': { type: 'array' },
            b: { description: 'anything' },
            c: { type: 'integer', enum: [1, 2], format: 'int8', exclusiveMinimum: 0 },
            d: { type: ['string', 'null'], format: 'uri' },
            e: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
            f: { type: 'object', properties: {} },
          },
        },
      });
      for (const strict of [false, true]) {
        const { definitions, report } = getAdapter(provider).toolsToWire([tool], { strict });
        expect(report.limits).toEqual([]);
        expect(checkWireTools(provider, definitions), `strict: ${String(strict)}`).toEqual([]);
      }
    },
  );
});
