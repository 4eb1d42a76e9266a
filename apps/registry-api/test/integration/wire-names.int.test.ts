import { randomUUID } from 'node:crypto';
import { PROVIDERS, type Provider } from '@toolgate/adapters';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicContent,
  createBuiltinTool,
  openAIChatMessage,
} from '../factories/gateway.factory';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp, type TestResponse } from '../support/test-app';

// The loop a model runs: the export names a tool on its wire, the model calls that name, the
// gateway must find the tool and answer under the model's own call id and name. The names are the
// kind a wire refuses: the console's own placeholder `orders.refund` (a dot: OpenAI and Anthropic
// refuse it), `get weather!` (refused everywhere), and `orders/refund`, which sanitizes like
// `orders.refund` and must still reach its own tool.
const NAMES = {
  refund: 'orders.refund',
  weather: 'get weather!',
  slashed: 'orders/refund',
} as const;
type ToolKey = keyof typeof NAMES;
const KEYS = Object.keys(NAMES) as ToolKey[];

let api: TestApp;
let team: TestTeam;

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('refund', (args) => ({ answer: `refund:${String(args['query'])}` }))
    .registerBuiltin('weather', (args) => ({ answer: `weather:${String(args['query'])}` }))
    .registerBuiltin('slashed', (args) => ({ answer: `slashed:${String(args['query'])}` }));
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  for (const key of KEYS) await createBuiltinTool(api, team, { handler: key, name: NAMES[key] });
});
afterAll(async () => {
  await api?.close();
});

/** The names the export's definitions carry, in the export's order (each wire's own shape). */
function definitionNames(provider: Provider, tools: unknown[]): string[] {
  const definitions =
    provider === 'gemini'
      ? (tools as Array<{ functionDeclarations: unknown[] }>).flatMap(
          (tool) => tool.functionDeclarations,
        )
      : tools;
  return (definitions as Array<{ name?: string; function?: { name: string } }>).map(
    (definition) => definition.function?.name ?? definition.name ?? '',
  );
}

/** GET /v1/exports for the team: ToolIR name -> the name the wire definition carries. */
async function exportedNames(
  provider: Provider,
  query = '',
  caller: TestTeam = team,
): Promise<Map<string, string>> {
  const response = await api.request({
    url: `/v1/exports?format=${provider}${query}`,
    key: caller.key,
  });
  expect(response.status, response.text).toBe(200);
  const names = definitionNames(provider, response.body.tools as unknown[]);
  const resolution = response.body.resolution as Array<{ name: string }>;
  // The report's map is what a client library would use; it must agree with the definitions.
  expect(response.body.downgrades.names).toEqual(
    resolution.map((tool, index) => ({ name: tool.name, wireName: names[index] })),
  );
  return new Map(resolution.map((tool, index) => [tool.name, names[index] ?? '']));
}

interface ModelCall {
  id: string;
  name: string;
  query: string;
}

/** The model's turn in the provider's own response format, calling the tools by `name`. */
function modelPayload(provider: Provider, calls: readonly ModelCall[]): unknown {
  switch (provider) {
    case 'openai-chat':
      return {
        id: 'chatcmpl-wire',
        object: 'chat.completion',
        created: 1_760_000_000,
        model: 'gpt-4.1',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: openAIChatMessage(
              calls.map((call) => ({
                id: call.id,
                name: call.name,
                arguments: JSON.stringify({ query: call.query }),
              })),
            ),
          },
        ],
      };
    case 'openai-responses':
      return {
        id: 'resp_wire',
        object: 'response',
        status: 'completed',
        model: 'gpt-4.1',
        output: calls.map((call, index) => ({
          type: 'function_call',
          id: `fc_${index}`,
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify({ query: call.query }),
          status: 'completed',
        })),
      };
    case 'anthropic':
      return {
        id: 'msg_wire',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        stop_reason: 'tool_use',
        content: anthropicContent(
          calls.map((call) => ({ id: call.id, name: call.name, input: { query: call.query } })),
        ),
      };
    case 'gemini':
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: calls.map((call) => ({
                functionCall: { id: call.id, name: call.name, args: { query: call.query } },
              })),
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.5-flash',
      };
    case 'mcp':
      return calls.map((call) => ({
        jsonrpc: '2.0',
        id: call.id,
        method: 'tools/call',
        params: { name: call.name, arguments: { query: call.query } },
      }));
  }
}

/** Each result's call id, the tool name it carries (where the wire has one) and its text. */
function resultsOf(
  provider: Provider,
  results: unknown,
): Array<{ id: string; name?: string; text: string; isError: boolean }> {
  switch (provider) {
    case 'openai-chat':
      return (results as Array<{ role: string; tool_call_id: string; content: string }>).map(
        (message) => {
          expect(message.role).toBe('tool');
          return { id: message.tool_call_id, text: message.content, isError: false };
        },
      );
    case 'openai-responses':
      return (results as Array<{ type: string; call_id: string; output: string }>).map((item) => {
        expect(item.type).toBe('function_call_output');
        return { id: item.call_id, text: item.output, isError: false };
      });
    case 'anthropic': {
      const message = results as {
        role: string;
        content: Array<{ type: string; tool_use_id: string; content: unknown; is_error: boolean }>;
      };
      expect(message.role).toBe('user');
      return message.content.map((block) => {
        expect(block.type).toBe('tool_result');
        return {
          id: block.tool_use_id,
          text: JSON.stringify(block.content),
          isError: block.is_error,
        };
      });
    }
    case 'gemini': {
      const content = results as {
        role: string;
        parts: Array<{ functionResponse: { id: string; name: string; response: unknown } }>;
      };
      expect(content.role).toBe('user');
      return content.parts.map(({ functionResponse }) => ({
        id: functionResponse.id,
        name: functionResponse.name,
        text: JSON.stringify(functionResponse.response),
        isError: 'error' in (functionResponse.response as object),
      }));
    }
    case 'mcp':
      return (results as Array<{ jsonrpc: string; id: string; result: { isError?: boolean } }>).map(
        (response) => {
          expect(response.jsonrpc).toBe('2.0');
          return {
            id: response.id,
            text: JSON.stringify(response.result),
            isError: response.result.isError === true,
          };
        },
      );
  }
}

function postCalls(
  provider: Provider,
  payload: unknown,
  options: { caller?: TestTeam; idempotencyKey?: string } = {},
): Promise<TestResponse> {
  return api.request({
    method: 'POST',
    url: '/v1/calls',
    key: (options.caller ?? team).key,
    ...(options.idempotencyKey === undefined
      ? {}
      : { headers: { 'idempotency-key': options.idempotencyKey } }),
    body: { provider, conversation_id: randomUUID(), payload },
  });
}

describe.each(PROVIDERS)('%s: exported wire names come back as calls', (provider) => {
  it('runs each tool called by its exported name and answers under the call id and name the model used', async () => {
    const wire = await exportedNames(provider);
    expect([...wire.keys()]).toEqual(expect.arrayContaining(Object.values(NAMES)));
    const wireName = (key: ToolKey) => wire.get(NAMES[key]) ?? '';
    // Every wire refuses `get weather!`; only OpenAI and Anthropic refuse the dot.
    expect(wireName('weather')).toMatch(/^get_weather__[0-9a-f]{8}$/);
    if (provider === 'gemini' || provider === 'mcp') expect(wireName('refund')).toBe(NAMES.refund);
    else expect(wireName('refund')).toMatch(/^orders_refund_[0-9a-f]{8}$/);
    // Names that sanitize alike still get names of their own.
    expect(new Set(KEYS.map(wireName)).size).toBe(KEYS.length);

    const calls = KEYS.map((key, index) => ({
      key,
      // Anthropic's ids are `toolu_…`; the others are kept as the model wrote them.
      id: provider === 'anthropic' ? `toolu_wire${index}` : `call_${provider}_${index}`,
      name: wireName(key),
      query: `q${index}`,
    }));
    const response = await postCalls(provider, modelPayload(provider, calls));
    expect(response.status, response.text).toBe(200);
    expect(response.body.calls).toEqual(
      calls.map((call): unknown =>
        expect.objectContaining({ status: 'succeeded', tool: NAMES[call.key] }),
      ),
    );
    const results = resultsOf(provider, response.body.results);
    expect(results.map((result) => result.id)).toEqual(calls.map((call) => call.id));
    for (const [index, call] of calls.entries()) {
      const result = results[index];
      expect(result?.isError).toBe(false);
      // Each handler answers `<its key>:<query>`: the right tool ran with the model's arguments.
      expect(result?.text).toContain(`${call.key}:${call.query}`);
      // Gemini matches a functionResponse to its call by name: it must be the wire name.
      if (provider === 'gemini') expect(result?.name).toBe(call.name);
    }

    // The recorded call keeps the model's id beside the tool it resolved to.
    const [first] = response.body.calls as Array<{ id: string }>;
    const recorded = await api.request({ url: `/v1/calls/${first?.id ?? ''}`, key: team.key });
    expect(recorded.body).toMatchObject({
      provider,
      provider_call_id: calls[0]?.id,
      tool: { name: NAMES.refund },
    });
  });

  it('gives a tool the same wire name in every export and every catalog state', async () => {
    const full = await exportedNames(provider);
    const alone = await exportedNames(provider, `&names=${encodeURIComponent(NAMES.weather)}`);
    expect(alone.get(NAMES.weather)).toBe(full.get(NAMES.weather));
    // A catalog change (a new tool) reloads the catalog; the names stay.
    await createBuiltinTool(api, team, { handler: 'refund', name: `other ${provider}!` });
    const after = await exportedNames(provider);
    for (const name of Object.values(NAMES)) expect(after.get(name)).toBe(full.get(name));
    // Deterministic on the calls side too: a retried turn is the same call, not a new one.
    const payload = modelPayload(provider, [
      {
        id: provider === 'anthropic' ? 'toolu_retry' : 'call_retry',
        name: after.get(NAMES.refund) ?? '',
        query: 'retry',
      },
    ]);
    const idempotencyKey = `wire-${provider}-${randomUUID()}`;
    const firstTry = await postCalls(provider, payload, { idempotencyKey });
    const secondTry = await postCalls(provider, payload, { idempotencyKey });
    expect(firstTry.status, firstTry.text).toBe(200);
    expect(secondTry.status, secondTry.text).toBe(200);
    expect(secondTry.body.calls[0].id).toBe(firstTry.body.calls[0].id);
  });

  it('still answers 422 unknown_tool for a name no export gave out', async () => {
    const response = await postCalls(
      provider,
      modelPayload(provider, [
        {
          id: provider === 'anthropic' ? 'toolu_unknown' : 'call_unknown',
          name: 'orders_refund_00000000',
          query: 'x',
        },
      ]),
    );
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe('unknown_tool');
    expect(response.body.errors).toEqual([
      {
        path: '/calls/0/name',
        message: 'no tool named "orders_refund_00000000" is registered for this team',
      },
    ]);
  });
});

describe('wire names on the MCP endpoint', () => {
  /** One JSON-RPC request to POST /mcp; the answer is one SSE `message` event. */
  async function mcp(body: unknown): Promise<{ id: number; result: Record<string, unknown> }> {
    const response = await api.request({
      method: 'POST',
      url: '/mcp',
      key: team.key,
      headers: { accept: 'application/json, text/event-stream' },
      body,
    });
    expect(response.status, response.text).toBe(200);
    const data = response.text
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('');
    return JSON.parse(data) as { id: number; result: Record<string, unknown> };
  }

  it('lists the rewritten name in tools/list and runs it in tools/call', async () => {
    const listed = await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const names = (listed.result['tools'] as Array<{ name: string }>).map((tool) => tool.name);
    const mcpNames = await exportedNames('mcp');
    const weather = mcpNames.get(NAMES.weather);
    expect(weather).toMatch(/^get_weather__[0-9a-f]{8}$/);
    expect(names).toEqual(expect.arrayContaining([weather, NAMES.refund]));
    const called = await mcp({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: weather, arguments: { query: 'oslo' } },
    });
    expect(called).toMatchObject({
      id: 2,
      result: { structuredContent: { answer: 'weather:oslo' } },
    });
    expect(called.result['isError']).not.toBe(true);
  });
});

describe('two tools one wire would name alike', () => {
  let other: TestTeam;
  let wireName: string;

  beforeAll(async () => {
    other = await createTeam(api);
    await createBuiltinTool(api, other, { handler: 'refund', name: NAMES.refund });
    wireName = (await exportedNames('openai-chat', '', other)).get(NAMES.refund) ?? '';
    // A tool named exactly like the other's rewrite, e.g. an OpenAI export imported back.
    await createBuiltinTool(api, other, { handler: 'slashed', name: wireName });
  });

  it('refuses the export that would hand out one name for both (409), not a 500', async () => {
    for (const provider of ['openai-chat', 'openai-responses', 'anthropic'] as const) {
      const response = await api.request({ url: `/v1/exports?format=${provider}`, key: other.key });
      expect(response.status, response.text).toBe(409);
      expect(response.body.code).toBe('conflict');
      expect(response.body.errors[0].message).toContain(wireName);
    }
  });

  it('refuses a call of the shared name as ambiguous instead of running either tool', async () => {
    const response = await postCalls(
      'anthropic',
      modelPayload('anthropic', [{ id: 'toolu_amb', name: wireName, query: 'x' }]),
      { caller: other },
    );
    expect(response.status, response.text).toBe(422);
    expect(response.body.code).toBe('unknown_tool');
    expect(response.body.errors).toEqual([
      {
        path: '/calls/0/name',
        message: expect.stringMatching(/names several tools on anthropic/),
      },
    ]);
    expect(response.body.errors[0].message).toContain(`"${NAMES.refund}"`);
    expect(response.body.errors[0].message).toContain(`"${wireName}"`);
  });

  it('resolves both where the wire keeps the dot: each name reaches its own tool', async () => {
    const wire = await exportedNames('gemini', '', other);
    expect(wire.get(NAMES.refund)).toBe(NAMES.refund);
    expect(wire.get(wireName)).toBe(wireName);
    const response = await postCalls(
      'gemini',
      modelPayload('gemini', [
        { id: 'g_dot', name: NAMES.refund, query: 'a' },
        { id: 'g_literal', name: wireName, query: 'b' },
      ]),
      { caller: other },
    );
    expect(response.status, response.text).toBe(200);
    const results = resultsOf('gemini', response.body.results);
    expect(results.map((result) => [result.id, result.name])).toEqual([
      ['g_dot', NAMES.refund],
      ['g_literal', wireName],
    ]);
    expect(results[0]?.text).toContain('refund:a');
    expect(results[1]?.text).toContain('slashed:b');
  });

  it("keeps another team's private tools out: the first team's name stays unambiguous", async () => {
    const response = await postCalls(
      'openai-chat',
      modelPayload('openai-chat', [{ id: 'call_mine', name: wireName, query: 'mine' }]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.calls).toEqual([expect.objectContaining({ tool: NAMES.refund })]);
  });
});
