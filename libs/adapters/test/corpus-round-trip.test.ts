import type { ErrorObject } from 'ajv';
import {
  isTextInput,
  validateArguments,
  type ToolCallIR,
  type ToolIR,
  type ToolResultIR,
} from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { checkWireTools, getAdapter } from '../src/index';
import { toolOfCase } from './corpus/corpus-case';
import { CORPUS_ENTRIES, corpusEntries, loadCorpus } from './corpus/load-corpus';
import { ADAPTER_CONFIGS } from './support/adapter-configs';
import { compile, errorsOf } from './support/ajv';
import { explains } from './support/explains';

const corpus = loadCorpus();

/**
 * How a tool judges a sample: Ajv on its parameters, and for a free-text tool the IR's own
 * validation, which also matches the input against its regex grammar.
 */
function judgeOf(tool: ToolIR): (sample: unknown) => ErrorObject[] {
  if (!isTextInput(tool)) {
    const validate = compile(tool.parameters);
    return (sample) => errorsOf(validate, sample);
  }
  return (sample) => {
    const result = validateArguments(tool, sample);
    return result.ok
      ? []
      : result.errors.map((error) => ({
          keyword: error.keyword,
          instancePath: error.path === '/' ? '' : error.path,
          schemaPath: '',
          params: error.params ?? {},
          message: error.message,
        }));
  };
}

describe('corpus', () => {
  it('has at least 100 cases, each with valid and invalid samples', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    expect(corpus.every((corpusCase) => corpusCase.valid.length > 0)).toBe(true);
    expect(
      corpus.filter((corpusCase) => corpusCase.invalid.length > 0).length,
    ).toBeGreaterThanOrEqual(100);
  });

  it('holds nothing the harness cannot map', () => {
    expect(corpusEntries().filter((entry) => !CORPUS_ENTRIES.has(entry))).toEqual([]);
  });

  it.each(corpus.map((corpusCase) => [corpusCase.id, corpusCase] as const))(
    '%s: samples are judged right by the IR schema',
    (_id, corpusCase) => {
      const judge = judgeOf(toolOfCase(corpusCase));
      for (const sample of corpusCase.valid)
        expect(judge(sample), JSON.stringify(sample)).toEqual([]);
      for (const sample of corpusCase.invalid)
        expect(judge(sample).length, JSON.stringify(sample)).toBeGreaterThan(0);
    },
  );
});

describe.each(ADAPTER_CONFIGS)('$label: ToolIR -> wire -> ToolIR', ({ provider, options }) => {
  const adapter = getAdapter(provider);

  it.each(corpus.map((corpusCase) => [corpusCase.id, corpusCase] as const))(
    '%s',
    (_id, corpusCase) => {
      const tool = toolOfCase(corpusCase);
      const wire = adapter.toolsToWire([tool], options);
      expect(wire.definitions).toHaveLength(1);
      // What the conversion cannot fix it reports as a limit; everything else passes the check.
      if (wire.report.limits.length === 0)
        expect(checkWireTools(provider, wire.definitions)).toEqual([]);
      const back = adapter.toolFromWire(wire.definitions[0], { names: wire.report.names });
      expect(back.name).toBe(tool.name);
      expect(back.description).toBe(tool.description);

      const entries = wire.report.entries.filter(
        (entry) => entry.tool === tool.name && entry.keyword !== 'name',
      );
      if (provider === 'mcp' && tool.outputSchema !== undefined) {
        const kept = JSON.stringify(back.outputSchema) === JSON.stringify(tool.outputSchema);
        expect(
          kept || entries.some((entry) => entry.path.startsWith('/outputSchema')),
          'outputSchema changed without a report entry',
        ).toBe(true);
      }
      const before = judgeOf(tool);
      const after = judgeOf(back);
      for (const sample of [...corpusCase.valid, ...corpusCase.invalid]) {
        const beforeErrors = before(sample);
        const afterErrors = after(sample);
        if ((beforeErrors.length === 0) === (afterErrors.length === 0)) continue;
        const errors = beforeErrors.length > 0 ? beforeErrors : afterErrors;
        const explained = entries.some((entry) => explains(entry, errors));
        expect(
          explained,
          `acceptance of ${JSON.stringify(sample)} changed but the report does not say why: ${JSON.stringify(errors.map((error) => [error.keyword, error.instancePath]))} / report ${JSON.stringify(entries)}`,
        ).toBe(true);
      }
    },
  );
});

describe.each(
  ADAPTER_CONFIGS.filter(
    (config) => !config.label.includes(' ') || config.label === 'gemini openapi',
  ),
)('$label: calls and results round-trip', ({ provider }) => {
  const adapter = getAdapter(provider);

  it.each(corpus.map((corpusCase) => [corpusCase.id, corpusCase] as const))(
    '%s',
    (_id, corpusCase) => {
      const tool = toolOfCase(corpusCase);
      const calls: ToolCallIR[] = corpusCase.valid.map((args, index) => ({
        id: `call_${index}abc`,
        name: tool.name,
        arguments: args,
      }));
      const parsed = adapter.callsFromWire(adapter.callsToWire(calls), { tools: [tool] });
      expect(
        parsed.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      ).toEqual(calls);

      const results: ToolResultIR[] = [
        {
          call_id: 'call_0abc',
          name: tool.name,
          ok: true,
          data: { echoed: corpusCase.valid[0] ?? {} },
        },
        {
          call_id: 'call_1abc',
          name: tool.name,
          ok: true,
          content: [{ type: 'text', text: `Done: ${corpusCase.description}` }],
        },
        {
          call_id: 'call_2abc',
          name: tool.name,
          ok: false,
          error: {
            code: 'invalid_arguments',
            message: 'value: must be ≥ 1',
            retryable: true,
            details: { path: '/value' },
          },
        },
      ];
      const resultCalls = results.map((result) => ({
        id: result.call_id,
        name: tool.name,
        arguments: {},
      }));
      expect(
        adapter.resultsFromWire(adapter.resultsToWire(results), {
          calls: resultCalls,
          tools: [tool],
        }),
      ).toEqual(results);
    },
  );
});
