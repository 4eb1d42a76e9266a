import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolResultIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { mcpAdapter } from '../src/index';
import { toolOfCase } from './corpus/corpus-case';
import { loadCorpus } from './corpus/load-corpus';
import { createAjv } from './support/ajv';

// The official MCP schemas, kept in the repository (conformance/mcp/README.md).
const SCHEMA_PATH = path.resolve(
  import.meta.dirname,
  '../../../conformance/mcp/schema-2025-11-25.json',
);
const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as { $schema: string };
const ajv = createAjv();
ajv.addSchema(schema, 'mcp-2025-11-25.json');
const validatorOf = (definition: string) => {
  const validate = ajv.getSchema(`mcp-2025-11-25.json#/$defs/${definition}`);
  if (validate === undefined) throw new Error(`no ${definition} in the MCP schema`);
  return (value: unknown) => {
    const ok = validate(value);
    return ok
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''}`);
  };
};
const validateTool = validatorOf('Tool');
const validateRequest = validatorOf('CallToolRequest');
const validateResult = validatorOf('CallToolResult');
const validateResponse = validatorOf('JSONRPCResultResponse');

const RESULTS: Array<Omit<ToolResultIR, 'call_id' | 'name'>> = [
  { ok: true, data: { temperature: 22.5 } },
  { ok: true, data: [1, 2, 3] },
  { ok: true, data: 'plain' },
  { ok: true },
  {
    ok: false,
    error: {
      code: 'invalid_arguments',
      message: 'city: required',
      retryable: true,
      details: { path: '/city' },
    },
  },
  { ok: true, truncated: true, data: { rows: [] } },
  {
    ok: true,
    content: [
      { type: 'text', text: 't' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'https://example.com/r', name: 'r' },
      { type: 'resource', resource: { uri: 'file:///x', text: 'x' } },
      { type: 'resource', resource: { uri: 'file:///y', blob: 'AA==' } },
    ],
  },
];

describe('MCP output conforms to schema 2025-11-25', () => {
  it('uses the schema file of the spec (draft 2020-12)', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('is strict enough to catch what the adapter rewrites (a boolean property schema, a non-object root)', () => {
    expect(
      validateTool({ name: 't', inputSchema: { type: 'object', properties: { x: true } } }),
    ).not.toEqual([]);
    expect(validateTool({ name: 't', inputSchema: { type: 'string' } })).not.toEqual([]);
    expect(validateResult({ content: [{ type: 'text' }] })).not.toEqual([]);
  });

  it.each(loadCorpus().map((corpusCase) => [corpusCase.id, corpusCase] as const))(
    '%s: Tool, CallToolRequest and CallToolResult',
    (_id, corpusCase) => {
      const tool = toolOfCase(corpusCase);
      const { tools } = mcpAdapter.toolsToWire([tool]);
      expect(validateTool(tools[0])).toEqual([]);
      for (const request of mcpAdapter.callsToWire(
        corpusCase.valid.map((args, index) => ({
          id: `c${index}`,
          name: tool.name,
          arguments: args,
        })),
      )) {
        expect(validateRequest(request)).toEqual([]);
      }
      const responses = mcpAdapter.resultsToWire(
        RESULTS.map((result, index) => ({ ...result, call_id: `c${index}`, name: tool.name })),
      );
      for (const response of responses) {
        expect(validateResponse(response)).toEqual([]);
        expect(validateResult(response.result)).toEqual([]);
      }
    },
  );
});
