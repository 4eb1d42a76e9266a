import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkWireTools, getAdapter, PROVIDERS, type Provider } from '@toolgate/adapters';
import { sdkTypeErrors } from '@toolgate/adapters/testing';
import type { ToolIR } from '@toolgate/toolir';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { exportValidity } from './export-validity';
import { loadOpenApiDocument } from './openapi-document';
import { openApiToTools } from './openapi-to-tools';
import { candidateToIR } from './tool-version-plan';

const FIXTURES = path.join(import.meta.dirname, '__fixtures__/oas-examples');
const MCP_SCHEMA = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../../../conformance/mcp/schema-2025-11-25.json'),
    'utf8',
  ),
) as object;
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema(MCP_SCHEMA, 'mcp');
const validateMcpTool = ajv.getSchema('mcp#/$defs/Tool')!;

/**
 * Every format of one tool against the provider-limits table (exportValidity) and, one wire
 * definition at a time, against the official SDK's tool type (MCP: its official schema).
 */
function expectEveryExportValid(ir: ToolIR): void {
  const validity = exportValidity(ir);
  for (const provider of PROVIDERS) {
    expect(validity[provider], `${ir.name} ${provider}`).toMatchObject({ valid: true });
    const [definition] = getAdapter(provider).toolsToWire([ir]).definitions;
    if (provider === 'mcp') expect(validateMcpTool(definition), ir.name).toBe(true);
    else expect(sdkTypeErrors(provider satisfies Provider, definition), ir.name).toEqual([]);
  }
}

async function importFixture(file: string) {
  const document = await loadOpenApiDocument(
    JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown>,
  );
  const converted = openApiToTools(document, { baseUrl: 'https://api.example.com' });
  const irs = converted.tools.map((candidate) =>
    candidateToIR(candidate, {
      id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
      version: '1.0.0',
      timeoutMs: 30_000,
    }),
  );
  const reasons = new Map<string, number>();
  for (const skip of converted.skipped)
    reasons.set(skip.reason, (reasons.get(skip.reason) ?? 0) + 1);
  return { converted, irs, reasons: Object.fromEntries(reasons) };
}

describe("ReadMe's public OpenAPI examples", () => {
  it.each([
    ['star-trek.json', 120, {}],
    ['train-travel.json', 7, {}],
    ['parameters-style.json', 25, {}],
    ['readme.json', 54, {}],
    [
      'schema-types.json',
      19,
      { 'the request body: the schema is recursive ($ref left in place)': 2 },
    ],
    ['schema-visibility.json', 1, {}],
  ])('%s: %i tools, and each skipped operation with its reason', async (file, tools, reasons) => {
    const imported = await importFixture(file);
    expect(imported.irs).toHaveLength(tools);
    expect(imported.reasons).toEqual(reasons);
  });

  it.each(['star-trek.json', 'train-travel.json', 'parameters-style.json', 'readme.json'])(
    '%s: every tool exports to every format, within the limits table and the SDK types',
    async (file) => {
      const { irs } = await importFixture(file);
      for (const ir of irs) expectEveryExportValid(ir);
    },
  );

  it("sends the Star Trek API's form bodies as forms instead of skipping them", async () => {
    const { irs } = await importFixture('star-trek.json');
    const form = irs.filter(
      (ir) =>
        (ir.protocol_meta?.['toolgate'] as { executor?: { body_encoding?: string } } | undefined)
          ?.executor?.body_encoding === 'form',
    );
    expect(form.length).toBeGreaterThanOrEqual(40);
  });

  it('renames the property keys Gemini and Anthropic refuse, so every tool exports (schema-types.json)', async () => {
    const { irs } = await importFixture('schema-types.json');
    for (const ir of irs) expectEveryExportValid(ir);
    // e.g. "integer (format: int8)", which neither wire takes as a key.
    const renamed = irs.flatMap((ir) =>
      getAdapter('anthropic')
        .toolsToWire([ir])
        .report.entries.filter((entry) => entry.keyword === 'properties'),
    );
    expect(renamed.map((entry) => entry.detail)).toContainEqual(
      expect.stringContaining('"integer (format: int8)" sent as'),
    );
  });

  it('offers no read-only property as an argument (schema-visibility.json)', async () => {
    const { converted } = await importFixture('schema-visibility.json');
    const text = JSON.stringify(converted.tools.map((tool) => tool.parameters));
    const document = readFileSync(path.join(FIXTURES, 'schema-visibility.json'), 'utf8');
    expect(document).toContain('"readOnly": true');
    expect(converted.tools[0]?.warnings.join(' ')).toMatch(/read-only body properties/);
    expect(text).not.toContain('readOnly');
  });
});

describe("OpenAI's own API description (3.1, 288 operations, 3.4 MB)", () => {
  async function importOpenAI() {
    const document = await loadOpenApiDocument(
      JSON.parse(
        readFileSync(path.join(import.meta.dirname, '__fixtures__/openai/openapi.json'), 'utf8'),
      ) as Record<string, unknown>,
    );
    return openApiToTools(document, { baseUrl: 'https://api.example.com' });
  }

  it('imports all 288 operations, recursive bodies ($recursiveRef) through $defs', async () => {
    const converted = await importOpenAI();
    expect(converted.skipped).toEqual([]);
    expect(converted.tools).toHaveLength(288);
    // POST /responses recurses through 2019-09's $recursiveAnchor / $recursiveRef.
    const responses = converted.tools.find(
      (tool) => tool.operation.path === '/responses' && tool.operation.method === 'POST',
    );
    expect(responses?.parameters['$defs']).toBeDefined();
    expect(JSON.stringify(responses?.parameters)).not.toContain('$recursive');
    expect(JSON.stringify(responses?.parameters)).toContain('"$ref":"#/$defs/');
  });

  it('exports every imported tool to every format, within the limits table and the SDK types', async () => {
    const converted = await importOpenAI();
    for (const candidate of converted.tools)
      expectEveryExportValid(
        candidateToIR(candidate, {
          id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
          version: '1.0.0',
          timeoutMs: 30_000,
        }),
      );
  });

  it('exports every tool strict for OpenAI, and for Anthropic all but the recursive ones, which it reports', async () => {
    const irs = (await importOpenAI()).tools.map((candidate) =>
      candidateToIR(candidate, {
        id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
        version: '1.0.0',
        timeoutMs: 30_000,
      }),
    );
    const refused = new Map<Provider, string[]>();
    for (const provider of ['openai-chat', 'openai-responses', 'anthropic'] as const) {
      for (const ir of irs) {
        const { definitions, report } = getAdapter(provider).toolsToWire([ir], { strict: true });
        expect(sdkTypeErrors(provider, definitions[0]), ir.name).toEqual([]);
        const problems = checkWireTools(provider, definitions).map((problem) => problem.rule);
        // The table and the conversion agree: what the check refuses, the report names as a limit.
        expect(problems, ir.name).toEqual(report.limits.map((limit) => limit.limit));
        if (problems.length > 0) refused.set(provider, [...(refused.get(provider) ?? []), ir.name]);
      }
    }
    expect(refused.get('openai-chat')).toBeUndefined();
    expect(refused.get('openai-responses')).toBeUndefined();
    expect(refused.get('anthropic')).toHaveLength(10);
  });
});
