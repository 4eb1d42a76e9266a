import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { SEARCH_TOOL_NAME } from '@toolgate/contract';
import { BuiltinExecutor } from '@toolgate/engine';
import { Toolgate } from '@toolgate/sdk';
import { toWireName } from '@toolgate/adapters';
import { anthropicMessage, openAIChatCompletion, startFakeProvider } from '@toolgate/sdk/testing';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createKey, createTeam, type TestTeam } from '../factories/registry.factory';
import { MCP_PROTOCOL, mcpSchemaChecker } from '../support/mcp-schema';
import { startTestApp, type TestApp } from '../support/test-app';

const conformsTo = mcpSchemaChecker(MCP_PROTOCOL);
let api: TestApp;
let baseUrl: string;
let team: TestTeam;
const clients: Client[] = [];
const providers: Array<{ close(): Promise<void> }> = [];

// A small catalog where each query below has one right answer.
const CATALOG = [
  {
    name: 'weather.forecast',
    description: 'Daily weather forecast for a city: temperature, rain and wind.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city name' } },
      required: ['city'],
    },
  },
  {
    name: 'geo.lookup',
    description: 'The place at a point on the map.',
    parameters: {
      type: 'object',
      properties: {
        latitude: { type: 'number', description: 'Degrees north' },
        longitude: { type: 'number', description: 'Degrees east' },
      },
      required: ['latitude', 'longitude'],
    },
  },
  {
    name: 'payments.refund',
    description: 'Refunds a card payment, in full or in part.',
    parameters: {
      type: 'object',
      properties: { payment_id: { type: 'string' }, amount: { type: 'integer' } },
      required: ['payment_id'],
    },
  },
  {
    name: 'calendar.create_event',
    description: 'Adds an event to a calendar, with its start, end and guests.',
    parameters: {
      type: 'object',
      properties: { title: { type: 'string' }, start: { type: 'string' } },
      required: ['title', 'start'],
    },
  },
];

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('echo', (args) => ({ echoed: args }));
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  for (const tool of CATALOG) await createBuiltinTool(api, team, { ...tool, handler: 'echo' });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

async function fakeProvider(...replies: Parameters<typeof startFakeProvider>[0]) {
  const provider = await startFakeProvider(replies);
  providers.push(provider);
  return provider;
}
afterAll(async () => {
  await api?.close();
});

/** The name a tool has on the wire of an export (names with dots are rewritten). */
function wireName(
  body: { downgrades: { names: Array<{ name: string; wireName: string }> } },
  name: string,
) {
  return body.downgrades.names.find((entry) => entry.name === name)?.wireName;
}

async function exportOf(query: string, key = team.key) {
  return api.request({ url: `/v1/exports?${query}`, key });
}

describe('exports of the tools a task needs (?q=)', () => {
  it('exports the best matches in the caller format, best first, with a snapshot', async () => {
    const response = await exportOf(
      `format=openai-responses&q=${encodeURIComponent('weather forecast for a city')}&limit=2`,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.resolution[0].name).toBe('weather.forecast');
    expect(response.body.tools[0]).toMatchObject({
      type: 'function',
      name: wireName(response.body, 'weather.forecast'),
    });
    expect(response.body.tools.length).toBeLessThanOrEqual(2);
    expect(response.body.total).toBeGreaterThanOrEqual(1);
    expect(response.body.snapshot).toEqual(expect.any(String));
  });

  it('finds a tool by its parameters and pages through every match', async () => {
    const first = await exportOf(
      `format=anthropic&q=${encodeURIComponent('latitude longitude event')}&limit=1`,
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.total).toBe(2);
    expect(first.body.resolution.map((tool: { name: string }) => tool.name)).toEqual([
      'geo.lookup',
    ]);
    expect(first.headers['link']).toContain('rel="next"');
    const second = await exportOf(
      `format=anthropic&q=${encodeURIComponent('latitude longitude event')}&limit=1&cursor=${first.body.next_cursor}`,
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.resolution.map((tool: { name: string }) => tool.name)).toEqual([
      'calendar.create_event',
    ]);
    expect(second.body.next_cursor).toBeNull();
    // A cursor belongs to its query.
    const other = await exportOf(
      `format=anthropic&q=refund&limit=1&cursor=${first.body.next_cursor}`,
    );
    expect(other.status).toBe(400);
    expect(other.body.errors[0].path).toBe('/query/cursor');
  });

  it('answers a query nothing matches with an empty export', async () => {
    const response = await exportOf('format=mcp&q=xylophone');
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ tools: [], total: 0, next_cursor: null });
  });
});

describe('deferred loading (?defer_loading=true)', () => {
  it('openai-responses: the hosted tool_search first, every tool deferred but the eager ones', async () => {
    const response = await exportOf('format=openai-responses&defer_loading=true&eager=geo.lookup');
    expect(response.status, response.text).toBe(200);
    const [search, ...functions] = response.body.tools as Array<Record<string, unknown>>;
    expect(search).toEqual({ type: 'tool_search' });
    expect(functions).toHaveLength(CATALOG.length);
    for (const tool of functions) {
      if (tool['name'] === wireName(response.body, 'geo.lookup')) {
        expect(tool).not.toHaveProperty('defer_loading');
      } else expect(tool['defer_loading'], String(tool['name'])).toBe(true);
    }
  });

  it('anthropic: the BM25 tool search tool first, every tool deferred', async () => {
    const response = await exportOf('format=anthropic&defer_loading=true');
    expect(response.status, response.text).toBe(200);
    const [search, ...tools] = response.body.tools as Array<Record<string, unknown>>;
    expect(search).toEqual({
      type: 'tool_search_tool_bm25_20251119',
      name: 'tool_search_tool_bm25',
    });
    expect(tools.every((tool) => tool['defer_loading'] === true)).toBe(true);
  });

  it('a deferred export has its own ETag', async () => {
    const plain = await exportOf('format=anthropic');
    const deferred = await exportOf('format=anthropic&defer_loading=true');
    expect(plain.headers['etag']).not.toBe(deferred.headers['etag']);
  });

  it.each([
    ['format=openai-chat&defer_loading=true', '/query/defer_loading'],
    ['format=gemini&defer_loading=true', '/query/defer_loading'],
    ['format=anthropic&eager=geo.lookup', '/query/eager'],
    ['format=anthropic&defer_loading=yes', '/query/defer_loading'],
    ['format=mcp&q=weather&names=geo.lookup', '/query/names'],
  ])('refuses %s with a problem naming %s', async (query, path) => {
    const response = await exportOf(query);
    expect(response.status, response.text).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
  });
});

/** A JSON-RPC answer, or the problem document of a refused request. */
interface RpcAnswer {
  result?: unknown;
  errors?: Array<{ path: string }>;
  required_scopes?: string[];
}

describe(`MCP ?tools=search: the ${SEARCH_TOOL_NAME} meta-tool`, () => {
  async function rpc(key: string, message: Record<string, unknown>, query = '?tools=search') {
    const response = await fetch(new URL(`/mcp${query}`, baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MCP_PROTOCOL,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
    });
    const text = await response.text();
    const data = text.split('\n').find((line) => line.startsWith('data: '));
    const body = JSON.parse(data === undefined ? text : data.slice('data: '.length)) as RpcAnswer;
    return { status: response.status, body };
  }

  const listedNames = (answer: RpcAnswer): string[] =>
    ListToolsResultSchema.parse(answer.result).tools.map((tool) => tool.name);
  const toolResult = (answer: RpcAnswer): CallToolResult =>
    CallToolResultSchema.parse(answer.result);
  const textOf = (result: CallToolResult): string =>
    result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');

  it('stateless: lists only the search tool, finds tools by description, and they can be called', async () => {
    const listed = await rpc(team.key, { method: 'tools/list' });
    expect(conformsTo('ListToolsResult', listed.body.result)).toEqual([]);
    expect(listedNames(listed.body)).toEqual([SEARCH_TOOL_NAME]);
    const found = await rpc(team.key, {
      method: 'tools/call',
      params: { name: SEARCH_TOOL_NAME, arguments: { query: 'refund a card payment', limit: 2 } },
    });
    expect(conformsTo('CallToolResult', found.body.result)).toEqual([]);
    const result = toolResult(found.body);
    const structured = result.structuredContent as { tools: unknown[]; total: number };
    // Each found definition is a tools/list Tool, so a client can show or call it as listed.
    for (const tool of structured.tools) expect(conformsTo('Tool', tool)).toEqual([]);
    expect(result.isError).toBeUndefined();
    expect(structured.tools[0]).toMatchObject({
      name: 'payments.refund',
      inputSchema: { type: 'object', required: ['payment_id'] },
    });
    expect(textOf(result)).toContain('payments.refund');
    const called = await rpc(team.key, {
      method: 'tools/call',
      params: { name: 'payments.refund', arguments: { payment_id: 'pay_1' } },
    });
    expect(toolResult(called.body).isError, JSON.stringify(called.body)).toBeFalsy();
    expect(toolResult(called.body).structuredContent).toEqual({ echoed: { payment_id: 'pay_1' } });
  });

  it('the default mode lists the catalog and has no search tool', async () => {
    const listed = await rpc(team.key, { method: 'tools/list' }, '');
    const names = listedNames(listed.body);
    expect(names).toHaveLength(CATALOG.length);
    expect(names).not.toContain(SEARCH_TOOL_NAME);
  });

  it('a session lists what its searches found and says so with list_changed', async () => {
    const client = new Client({ name: 'toolgate-search-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp?tools=search', baseUrl), {
      requestInit: { headers: { authorization: `Bearer ${team.key}` } },
    });
    let changed = 0;
    let notified: () => void = () => undefined;
    const firstChange = new Promise<void>((resolve) => {
      notified = resolve;
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
      notified();
    });
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([SEARCH_TOOL_NAME]);

    const found = await client.callTool({
      name: SEARCH_TOOL_NAME,
      arguments: { query: 'weather forecast', limit: 1 },
    });
    expect((found.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe(
      'weather.forecast',
    );
    await firstChange;
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toEqual([SEARCH_TOOL_NAME, 'weather.forecast']);

    // Finding the same tool again changes nothing in the listing, so nothing is announced.
    await client.callTool({ name: SEARCH_TOOL_NAME, arguments: { query: 'forecast' } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(listed);
    expect(changed).toBe(1);
  });

  it('tells the model what to send when its arguments are wrong', async () => {
    const response = await rpc(team.key, {
      method: 'tools/call',
      params: { name: SEARCH_TOOL_NAME, arguments: { query: '', limit: 500 } },
    });
    expect(toolResult(response.body).isError).toBe(true);
    expect(textOf(toolResult(response.body))).toContain('"query"');
  });

  it('needs tools:read as well as calls:execute, with a 403 before anything runs', async () => {
    const key = await createKey(api, { teamId: team.id, scopes: ['calls:execute'] });
    const response = await rpc(key, {
      method: 'tools/call',
      params: { name: SEARCH_TOOL_NAME, arguments: { query: 'weather' } },
    });
    expect(response.status).toBe(403);
    expect(response.body.required_scopes).toEqual(['tools:read']);
  });

  it('shows another team only the tools it may see', async () => {
    const other = await createTeam(api);
    const response = await rpc(other.key, {
      method: 'tools/call',
      params: { name: SEARCH_TOOL_NAME, arguments: { query: 'weather forecast' } },
    });
    expect(toolResult(response.body).structuredContent).toEqual({ tools: [], total: 0 });
  });

  it('refuses an unknown mode with a problem document', async () => {
    const response = await rpc(team.key, { method: 'tools/list' }, '?tools=everything');
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.path).toBe('/query/tools');
  });
});

describe('the SDK: toolSearch and tools({ q, deferLoading })', () => {
  it('openai-chat: answers the model search with tool results and the found definitions, which then run', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const search = toolgate.toolSearch({ format: 'openai-chat', limit: 2 });
    expect(search.definition).toMatchObject({
      type: 'function',
      function: { name: SEARCH_TOOL_NAME, parameters: { required: ['query'] } },
    });
    const turn = openAIChatCompletion({
      calls: [
        { id: 'call_s1', name: SEARCH_TOOL_NAME, arguments: { query: 'refund a card payment' } },
      ],
    });
    expect(search.asks(turn)).toBe(true);
    const answer = await search.answer(turn);
    expect(answer.searches[0]).toMatchObject({ callId: 'call_s1', found: ['payments.refund'] });
    expect(answer.output).toEqual([
      expect.objectContaining({ role: 'tool', tool_call_id: 'call_s1' }),
    ]);
    const [refund] = answer.tools;
    if (refund?.type !== 'function') throw new Error('the search found no function tool');
    // The model calls the found tool by its wire name, at the version the search showed it.
    const executed = await toolgate.execute({
      provider: 'openai-chat',
      payload: openAIChatCompletion({
        calls: [{ id: 'call_r1', name: refund.function.name, arguments: { payment_id: 'pay_9' } }],
      }),
      ...toolgate.versionsOf(answer.tools),
    });
    expect(executed.calls).toEqual([
      expect.objectContaining({ status: 'succeeded', tool: 'payments.refund', version: '1.0.0' }),
    ]);
  });

  it('openai-responses: a client-executed tool_search answered with a tool_search_output', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const search = toolgate.toolSearch({ format: 'openai-responses' });
    expect(search.definition).toMatchObject({ type: 'tool_search', execution: 'client' });
    const answer = await search.answer({
      output: [
        {
          type: 'tool_search_call',
          id: 'ts_1',
          call_id: 'call_ts1',
          execution: 'client',
          status: 'completed',
          arguments: { query: 'latitude longitude' },
        },
      ],
    });
    expect(answer.output).toEqual([
      {
        type: 'tool_search_output',
        call_id: 'call_ts1',
        execution: 'client',
        status: 'completed',
        tools: [expect.objectContaining({ type: 'function', parameters: expect.any(Object) })],
      },
    ]);
    expect(answer.searches[0]?.found).toEqual(['geo.lookup']);
  });

  it('anthropic: bad search arguments come back as an error result the model can act on', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const search = toolgate.toolSearch({ format: 'anthropic' });
    const answer = await search.answer(
      anthropicMessage({
        calls: [{ id: 'toolu_1', name: SEARCH_TOOL_NAME, arguments: { limit: 3 } }],
      }),
    );
    expect(answer.searches[0]?.error).toContain('query');
    expect(answer.tools).toEqual([]);
    expect(JSON.stringify(answer.output)).toContain('"is_error":true');
  });

  it('tools({ deferLoading, eager }) and tools({ q }) reach the export', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const deferred = await toolgate.tools({
      format: 'anthropic',
      deferLoading: true,
      eager: ['geo.lookup'],
    });
    expect(deferred.tools[0]).toMatchObject({ type: 'tool_search_tool_bm25_20251119' });
    const found = await toolgate.tools({ format: 'gemini', q: 'calendar event', limit: 1 });
    expect(found.resolution.map((entry) => entry.name)).toEqual(['calendar.create_event']);
  });
});

describe('the tool loop with a tool search (official clients, tools run through the registry)', () => {
  it('anthropic: a turn with a search and a call, then a call of the tool the search found', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const search = toolgate.toolSearch({ format: 'anthropic', limit: 1 });
    const { tools } = await toolgate.tools({ format: 'anthropic', names: ['weather.forecast'] });
    const forecast = toWireName('weather.forecast', 'anthropic');
    const refund = toWireName('payments.refund', 'anthropic');
    const provider = await fakeProvider(
      {
        json: anthropicMessage({
          calls: [
            {
              id: 'toolu_s',
              name: SEARCH_TOOL_NAME,
              arguments: { query: 'refund a card payment' },
            },
            { id: 'toolu_f', name: forecast, arguments: { city: 'Oslo' } },
          ],
        }),
      },
      {
        json: anthropicMessage({
          calls: [{ id: 'toolu_r', name: refund, arguments: { payment_id: 'pay_7' } }],
        }),
      },
      { json: anthropicMessage({ text: 'Refunded, and Oslo looks dry.' }) },
    );
    const anthropic = new Anthropic({
      apiKey: 'sk-ant-test',
      baseURL: provider.url,
      maxRetries: 0,
    });
    const result = await toolgate.runToolLoop({
      provider: 'anthropic',
      client: anthropic,
      request: {
        model: 'claude-sonnet-4-6',
        max_tokens: 512,
        messages: [{ role: 'user', content: 'Refund pay_7 and tell me the Oslo forecast.' }],
        tools: [search.definition, ...tools],
      },
      toolSearch: search,
      conversationId: 'loop-search-anthropic',
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Refunded, and Oslo looks dry.' });
    const [first, second] = result.steps;
    expect(first?.toolCalls.map((call) => [call.name, call.executedBy])).toEqual([
      [SEARCH_TOOL_NAME, 'search'],
      // Without the ToolIRs (the loop's `tools`), calls keep the names the model used.
      [forecast, 'gateway'],
    ]);
    expect(first?.results[0]).toMatchObject({ ok: true, data: { tools: ['payments.refund'] } });
    expect(second?.results[0]).toMatchObject({
      ok: true,
      data: { echoed: { payment_id: 'pay_7' } },
    });

    // The second request offers what the search found, and answers both calls in one message.
    const next = provider.requests[1]?.json as {
      tools: Array<{ name: string }>;
      messages: Array<{ role: string; content: Array<{ tool_use_id?: string }> }>;
    };
    expect(next.tools.map((tool) => tool.name)).toEqual([SEARCH_TOOL_NAME, forecast, refund]);
    expect(next.messages.at(-1)?.content.map((block) => block.tool_use_id)).toEqual([
      'toolu_s',
      'toolu_f',
    ]);
    // The gateway ran the two real calls; the search never reached it as a call.
    const recorded = await api.database.prisma.call.findMany({
      where: { teamId: team.id, conversationId: 'loop-search-anthropic' },
    });
    expect(recorded.map((call) => call.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('openai-responses: a client tool_search answered in the conversation, then the found tool runs', async () => {
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const search = toolgate.toolSearch({ format: 'openai-responses', limit: 1 });
    const lookup = toWireName('geo.lookup', 'openai-responses');
    const provider = await fakeProvider(
      {
        json: {
          id: 'resp_1',
          object: 'response',
          status: 'completed',
          output: [
            {
              type: 'tool_search_call',
              id: 'ts_1',
              call_id: 'call_ts',
              execution: 'client',
              status: 'completed',
              arguments: { query: 'latitude longitude' },
            },
          ],
        },
      },
      {
        json: {
          id: 'resp_2',
          object: 'response',
          status: 'completed',
          output: [
            {
              type: 'function_call',
              id: 'fc_1',
              call_id: 'call_geo',
              name: lookup,
              arguments: JSON.stringify({ latitude: 59.9, longitude: 10.7 }),
              status: 'completed',
            },
          ],
        },
      },
      {
        json: {
          id: 'resp_3',
          object: 'response',
          status: 'completed',
          output: [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'That is Oslo.', annotations: [] }],
            },
          ],
        },
      },
    );
    const openai = new OpenAI({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const result = await toolgate.runToolLoop({
      provider: 'openai-responses',
      client: openai,
      request: { model: 'gpt-5.4', input: 'Where is 59.9 N 10.7 E?', tools: [search.definition] },
      toolSearch: search,
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'That is Oslo.' });
    expect(result.steps[1]?.results[0]).toMatchObject({
      ok: true,
      data: { echoed: { latitude: 59.9, longitude: 10.7 } },
    });
    // The search's answer follows the model's call in the input, loading the found definition.
    const next = provider.requests[1]?.json as { input: Array<Record<string, unknown>> };
    expect(next.input.map((item) => item['type'] ?? item['role'])).toEqual([
      'user',
      'tool_search_call',
      'tool_search_output',
    ]);
    expect(next.input[2]).toMatchObject({
      call_id: 'call_ts',
      tools: [expect.objectContaining({ type: 'function', name: lookup })],
    });
  });
});
