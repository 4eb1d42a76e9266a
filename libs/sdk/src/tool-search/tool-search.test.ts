import { getAdapter, type Provider } from '@toolgate/adapters';
import { SEARCH_TOOL_NAME } from '@toolgate/contract';
import { defineTool, type ToolIR } from '@toolgate/toolir';
import { GoogleGenAI, type Tool as GeminiTool } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeProvider, openAIChatCompletion } from '../../test/support/fake-provider';
import type { TestServer } from '../../test/support/test-server';
import { runToolLoop } from '../agent-loop';
import { localTools } from '../local-tools';
import type { ToolExport, ToolsQuery } from '../toolgate-client';
import { ToolSearch, type ToolSearchSource } from './tool-search';

const fields = {
  behavior: { readonly: true, destructive: false, idempotent: true },
  constraints: { timeout_ms: 5_000 },
};
const forecast = defineTool({
  ...fields,
  name: 'weather_forecast',
  description: 'Daily weather forecast for a city.',
  parameters: z.object({ city: z.string().min(1) }),
  handler: ({ city }) => ({ city, rain: false }),
});
const refund = defineTool({
  ...fields,
  name: 'payments_refund',
  description: 'Refunds a card payment.',
  parameters: z.object({ payment_id: z.string() }),
  handler: ({ payment_id }) => ({ refunded: payment_id }),
});
const local = localTools([forecast, refund]);

/**
 * The registry's export as far as a search uses it: the tools whose description has a word of
 * the query, in the asked format. Records every query it was asked.
 */
function catalogSource(catalog: readonly ToolIR[]): ToolSearchSource & {
  queries: Array<ToolsQuery<Provider>>;
} {
  const queries: Array<ToolsQuery<Provider>> = [];
  return {
    queries,
    tools<TProvider extends Provider>(query: ToolsQuery<TProvider>) {
      queries.push(query);
      const words = (query.q ?? '').toLowerCase().split(/\s+/);
      const matching = catalog.filter((tool) =>
        words.some((word) => tool.description.toLowerCase().includes(word)),
      );
      const found = matching.slice(0, query.limit);
      const wire = getAdapter(query.format).toolsToWire(found);
      const exported: ToolExport<Provider> = {
        format: query.format,
        tools: wire.tools,
        resolution: found.map((tool) => ({
          tool_id: tool.id,
          name: tool.name,
          version: tool.version,
          reason: 'stable',
          deprecated: false,
          sunset_at: null,
          successor_version: null,
        })),
        snapshot: 'snap_test',
        skipped: [],
        requestOptions: {},
        downgrades: wire.report,
        total: matching.length,
        nextCursor: null,
        body: {} as ToolExport<Provider>['body'],
        fromCache: false,
      };
      return Promise.resolve(exported as ToolExport<TProvider>);
    },
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ToolSearch', () => {
  it('answers each search of a turn in order, as tool results and the found definitions', async () => {
    const source = catalogSource(local.tools);
    const search = new ToolSearch(source, { format: 'openai-chat', tags: ['ops'] });
    const turn = openAIChatCompletion({
      calls: [
        { id: 'call_a', name: SEARCH_TOOL_NAME, arguments: { query: 'weather', limit: 1 } },
        { id: 'call_b', name: SEARCH_TOOL_NAME, arguments: { query: 'refunds' } },
        { id: 'call_c', name: SEARCH_TOOL_NAME, arguments: { query: '' } },
        { id: 'call_d', name: 'weather_forecast', arguments: { city: 'Oslo' } },
      ],
    });
    const answer = await search.answer(turn);
    expect(answer.searches.map((entry) => [entry.callId, entry.found])).toEqual([
      ['call_a', ['weather_forecast']],
      ['call_b', ['payments_refund']],
      ['call_c', []],
    ]);
    expect(answer.searches[2]?.error).toContain('query');
    // The caller's tags and the default limit reach every export; the model's limit wins.
    expect(source.queries.map((query) => [query.q, query.limit, query.tags])).toEqual([
      ['weather', 1, ['ops']],
      ['refunds', 5, ['ops']],
    ]);
    expect(answer.toolResults.map((result) => [result.call_id, result.ok])).toEqual([
      ['call_a', true],
      ['call_b', true],
      ['call_c', false],
    ]);
    expect(answer.output).toEqual(getAdapter('openai-chat').resultsToWire(answer.toolResults));
    expect(
      answer.tools.map((tool) =>
        tool.type === 'function' ? tool.function.name : tool.custom.name,
      ),
    ).toEqual(['weather_forecast', 'payments_refund']);
  });

  it('on Responses answers client searches with tool_search_output items and no tool results', async () => {
    const search = new ToolSearch(catalogSource(local.tools), { format: 'openai-responses' });
    const turn = [
      { type: 'tool_search_call', call_id: null, execution: 'server', arguments: {} },
      {
        type: 'tool_search_call',
        call_id: 'call_ts',
        execution: 'client',
        arguments: { query: 'forecast' },
      },
    ];
    expect(search.asks(turn)).toBe(true);
    const answer = await search.answer(turn);
    expect(answer.toolResults).toEqual([]);
    expect(answer.output).toEqual([
      expect.objectContaining({ type: 'tool_search_output', call_id: 'call_ts' }),
    ]);
    expect(search.asks([turn[0]])).toBe(false);
  });
});

describe('runToolLoop with a toolSearch', () => {
  it('answers searches itself, offers what they found, and runs the found tool', async () => {
    const search = new ToolSearch(catalogSource(local.tools), { format: 'openai-chat' });
    server = await startFakeProvider([
      {
        json: openAIChatCompletion({
          calls: [{ id: 'call_s', name: SEARCH_TOOL_NAME, arguments: { query: 'refunds' } }],
        }),
      },
      {
        json: openAIChatCompletion({
          calls: [
            { id: 'call_s2', name: SEARCH_TOOL_NAME, arguments: { query: 'refunds' } },
            { id: 'call_r', name: 'payments_refund', arguments: { payment_id: 'p1' } },
          ],
        }),
      },
      { json: openAIChatCompletion({ text: 'Done.' }) },
    ]);
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const result = await runToolLoop({
      provider: 'openai-chat',
      client: openai,
      request: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Refund p1.' }],
        tools: [search.definition],
      },
      execute: local,
      toolSearch: search,
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Done.' });
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.executedBy))).toEqual([
      ['search'],
      ['search', 'local'],
    ]);
    expect(result.steps[1]?.results[1]).toMatchObject({ ok: true, data: { refunded: 'p1' } });
    const second = server.requests[1]?.json as { tools: Array<{ function: { name: string } }> };
    expect(second.tools.map((tool) => tool.function.name)).toEqual([
      SEARCH_TOOL_NAME,
      'payments_refund',
    ]);
    // Found again, a tool is not offered twice.
    const third = server.requests[2]?.json as { tools: unknown[] };
    expect(third.tools).toEqual(second.tools);
  });

  it('gemini: found tools join config.tools, as their own tool object (official @google/genai client)', async () => {
    const search = new ToolSearch(catalogSource(local.tools), { format: 'gemini' });
    const turn = (parts: unknown[]) => ({
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      modelVersion: 'gemini-2.5-flash',
    });
    server = await startFakeProvider([
      { json: turn([{ functionCall: { name: SEARCH_TOOL_NAME, args: { query: 'forecast' } } }]) },
      { json: turn([{ functionCall: { name: 'weather_forecast', args: { city: 'Quito' } } }]) },
      { json: turn([{ text: 'Dry in Quito.' }]) },
    ]);
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const result = await runToolLoop({
      provider: 'gemini',
      client: ai,
      request: {
        model: 'gemini-2.5-flash',
        contents: 'Will it rain in Quito?',
        // @google/genai declares `Type` as an enum; the values are the same strings (official-clients.test-d.ts).
        config: { tools: [search.definition] as GeminiTool[] },
      },
      execute: local,
      toolSearch: search,
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Dry in Quito.' });
    expect(result.steps[1]?.results[0]).toMatchObject({ ok: true, data: { city: 'Quito' } });
    // The SDK sends config.tools as the request's tools.
    const second = server.requests[1]?.json as {
      tools: Array<{ functionDeclarations: Array<{ name: string }> }>;
    };
    expect(second.tools.map((tool) => tool.functionDeclarations.map((fn) => fn.name))).toEqual([
      [SEARCH_TOOL_NAME],
      ['weather_forecast'],
    ]);
  });
});
