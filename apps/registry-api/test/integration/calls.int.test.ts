import { randomUUID } from 'node:crypto';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicContent,
  createBuiltinTool,
  openAIChatMessage,
  waitForCallStatus,
} from '../factories/gateway.factory';
import { createKey, createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let team: TestTeam;
let search: TestTool;
const runs = { search: 0, slow: 0 };

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('search', (args) => {
      runs.search += 1;
      return { hits: [`result for ${String(args['query'])}`] };
    })
    .registerBuiltin('slow', async (args, { signal }) => {
      runs.slow += 1;
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 150);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
      return { echoed: args['query'] };
    })
    .registerBuiltin('stepwise', async (_args, { reportProgress }) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reportProgress({ progress: 1, total: 2, message: 'half way' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { done: true };
    });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  search = await createBuiltinTool(api, team, { handler: 'search' });
});
afterAll(async () => {
  await api?.close();
});

async function callCount(teamId: string): Promise<number> {
  return api.database.prisma.call.count({ where: { teamId } });
}

describe('POST /v1/calls', () => {
  it('executes an OpenAI Chat tool call and answers with role: tool messages', async () => {
    const before = runs.search;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        conversation_id: randomUUID(),
        payload: openAIChatMessage([
          { id: 'call_a1', name: search.name, arguments: '{"query":"oslo"}' },
        ]),
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(runs.search).toBe(before + 1);
    expect(response.body.results).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_a1',
        content: expect.stringContaining('result for oslo'),
      },
    ]);
    // The same results without the wire's losses, for clients that want them structured.
    expect(response.body.tool_results).toEqual([
      { call_id: 'call_a1', name: search.name, ok: true, data: { hits: ['result for oslo'] } },
    ]);
    expect(response.body.calls).toEqual([
      { id: expect.any(String), status: 'succeeded', tool: search.name, version: '1.0.0' },
    ]);
    const call = await api.request({
      url: `/v1/calls/${response.body.calls[0].id}`,
      key: team.key,
    });
    expect(call.body).toMatchObject({
      status: 'succeeded',
      provider: 'openai-chat',
      provider_call_id: 'call_a1',
      tool: { id: search.id, name: search.name, version: '1.0.0' },
      attempts: 1,
      answered_by: search.name,
      result: { call_id: 'call_a1', ok: true, data: { hits: ['result for oslo'] } },
    });
    expect(call.body.latency_ms).toEqual(expect.any(Number));
    expect(call.body.finished_at).not.toBeNull();
  });

  it('executes Anthropic tool_use blocks and answers with tool_result blocks', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        conversation_id: randomUUID(),
        payload: anthropicContent([
          { id: 'toolu_1', name: search.name, input: { query: 'bergen' } },
          { id: 'toolu_2', name: search.name, input: { query: 'tromso' } },
        ]),
      },
    });
    expect(response.status, response.text).toBe(200);
    const results = response.body.results;
    const blocks = (Array.isArray(results) ? results : results.content) as Array<
      Record<string, unknown>
    >;
    expect(blocks).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_1' }),
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_2' }),
    ]);
    expect(JSON.stringify(blocks[0])).toContain('result for bergen');
    expect(blocks.some((block) => block['is_error'] === true)).toBe(false);
  });

  it('runs a call once per Idempotency-Key, also when the duplicates arrive together', async () => {
    const before = runs.search;
    const conversation = randomUUID();
    const post = () =>
      api.request({
        method: 'POST',
        url: '/v1/calls',
        key: team.key,
        headers: { 'idempotency-key': `turn-${conversation}` },
        body: {
          provider: 'openai-chat',
          conversation_id: conversation,
          payload: openAIChatMessage([
            { id: 'call_same', name: search.name, arguments: '{"query":"once"}' },
          ]),
        },
      });
    const concurrent = await Promise.all([post(), post(), post(), post(), post()]);
    const again = await post();
    for (const response of [...concurrent, again]) {
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(concurrent[0].body);
    }
    expect(runs.search).toBe(before + 1);
    const rows = await api.database.prisma.call.findMany({
      where: { teamId: team.id, idempotencyKey: `turn-${conversation}:call_same` },
    });
    expect(rows).toHaveLength(1);
  });

  it('dedupes by conversation id and provider call id when no Idempotency-Key is sent', async () => {
    const before = runs.search;
    const body = {
      provider: 'openai-chat',
      conversation_id: randomUUID(),
      payload: openAIChatMessage([
        { id: 'call_dflt', name: search.name, arguments: '{"query":"x"}' },
      ]),
    };
    const first = await api.request({ method: 'POST', url: '/v1/calls', key: team.key, body });
    const second = await api.request({ method: 'POST', url: '/v1/calls', key: team.key, body });
    expect(second.body).toEqual(first.body);
    expect(runs.search).toBe(before + 1);
  });

  it('runs a call without an id (Gemini) in every request, and once per Idempotency-Key', async () => {
    const before = runs.search;
    // Older Gemini models send no ids: the adapter makes one up from the call itself.
    const body = {
      provider: 'gemini',
      payload: {
        role: 'model',
        parts: [{ functionCall: { name: search.name, args: { query: 'twice' } } }],
      },
    };
    const post = (headers: Record<string, string> = {}) =>
      api.request({ method: 'POST', url: '/v1/calls', key: team.key, body, headers });
    const first = await post();
    const second = await post();
    expect([first.status, second.status]).toEqual([200, 200]);
    const ids = [first, second].map(
      (response) => (response.body as { calls: Array<{ id: string }> }).calls[0]?.id,
    );
    expect(new Set(ids).size).toBe(2);
    expect(runs.search).toBe(before + 2);
    // The caller's key still makes a retry the same request.
    const key = { 'idempotency-key': `gemini-${randomUUID()}` };
    const keyed = await post(key);
    expect((await post(key)).body).toEqual(keyed.body);
    expect(runs.search).toBe(before + 3);
  });

  it('refuses an Idempotency-Key reused for different arguments, recording nothing', async () => {
    const key = `reuse-${randomUUID()}`;
    const post = (query: string) =>
      api.request({
        method: 'POST',
        url: '/v1/calls',
        key: team.key,
        headers: { 'idempotency-key': key },
        body: {
          provider: 'openai-chat',
          payload: openAIChatMessage([
            { id: 'call_r', name: search.name, arguments: JSON.stringify({ query }) },
          ]),
        },
      });
    expect((await post('a')).status).toBe(200);
    const count = await callCount(team.id);
    const conflict = await post('b');
    expect(conflict.status).toBe(409);
    expect(conflict.headers['content-type']).toContain('application/problem+json');
    expect(await callCount(team.id)).toBe(count);
    // A turn whose other call is new is refused whole: the new call is not left behind either.
    const mixed = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      headers: { 'idempotency-key': key },
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_r', name: search.name, arguments: JSON.stringify({ query: 'c' }) },
          { id: 'call_new', name: search.name, arguments: JSON.stringify({ query: 'd' }) },
        ]),
      },
    });
    expect(mixed.status).toBe(409);
    expect(await callCount(team.id)).toBe(count);
  });

  it('gives a model its schema errors as an invalid_arguments result, not a 4xx', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_bad', name: search.name, arguments: '{"query":""}' },
        ]),
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.calls[0].status).toBe('failed');
    expect(response.body.results[0].content).toContain('invalid_arguments');
  });

  it('answers 202 with the call ids when the calls outlast wait_ms, and the result is read later', async () => {
    const slow = await createBuiltinTool(api, team, { handler: 'slow' });
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        wait_ms: 0,
        payload: anthropicContent([
          { id: 'toolu_slow', name: slow.name, input: { query: 'later' } },
        ]),
      },
    });
    expect(response.status, response.text).toBe(202);
    expect(response.body.call_ids).toHaveLength(1);
    const call = await waitForCallStatus(api, {
      key: team.key,
      id: response.body.call_ids[0],
      statuses: ['succeeded'],
    });
    expect(call['result']).toMatchObject({ ok: true, data: { echoed: 'later' } });
  });

  it('cancels a running call: its handler is aborted and the result is cancelled', async () => {
    const slow = await createBuiltinTool(api, team, { handler: 'slow' });
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        wait_ms: 0,
        payload: anthropicContent([{ id: 'toolu_c', name: slow.name, input: { query: 'stop' } }]),
      },
    });
    const id = response.body.call_ids[0] as string;
    await waitForCallStatus(api, { key: team.key, id, statuses: ['running'] });
    const cancelled = await api.request({
      method: 'POST',
      url: `/v1/calls/${id}/cancel`,
      key: team.key,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', error_code: 'cancelled' });
    const again = await api.request({
      method: 'POST',
      url: `/v1/calls/${id}/cancel`,
      key: team.key,
    });
    expect(again.status).toBe(409);
  });

  it('executes ToolCallIR calls posted to /v1/calls/ir and lists calls by status and tool', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [{ id: `ir-${randomUUID()}`, name: search.name, arguments: { query: 'ir' } }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true, name: search.name });
    const list = await api.request({
      url: `/v1/calls?status=succeeded&tool=${search.name}&limit=2`,
      key: team.key,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.next_cursor).toEqual(expect.any(String));
    const next = await api.request({
      url: `/v1/calls?status=succeeded&tool=${search.name}&limit=2&cursor=${list.body.next_cursor}`,
      key: team.key,
    });
    expect(next.status).toBe(200);
    const ids = new Set(
      [...list.body.items, ...next.body.items].map((item: { id: string }) => item.id),
    );
    expect(ids.size).toBe(list.body.items.length + next.body.items.length);
  });

  it("resolves names to the caller's own tool first and hides other teams' private tools", async () => {
    const other = await createTeam(api);
    const shadow = await createBuiltinTool(api, other, {
      handler: 'slow',
      name: search.name,
      visibility: 'public',
    });
    await api.request({
      method: 'POST',
      url: '/v1/tools',
      key: other.key,
      body: { name: `${shadow.name}-x`, visibility: 'private' },
    });
    const before = runs.slow;
    const own = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        payload: anthropicContent([{ id: 'toolu_own', name: search.name, input: { query: 'q' } }]),
      },
    });
    expect(own.status, own.text).toBe(200);
    expect(runs.slow).toBe(before);
    const hidden = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: other.key,
      body: {
        provider: 'anthropic',
        payload: anthropicContent([{ id: 'toolu_h', name: `${shadow.name}-x`, input: {} }]),
      },
    });
    expect(hidden.status).toBe(422);
    const foreign = await api.request({ url: `/v1/calls/${own.body.calls[0].id}`, key: other.key });
    expect(foreign.status).toBe(404);
  });

  it('needs the calls:execute scope', async () => {
    const readOnly = await createKey(api, { teamId: team.id, scopes: ['tools:read'] });
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: readOnly,
      body: { provider: 'anthropic', payload: anthropicContent([]) },
    });
    expect(response.status).toBe(403);
  });
});

describe('bad payloads to POST /v1/calls', () => {
  it('names every provider it speaks when refusing an unknown one', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: { provider: 'palm', payload: {} },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      {
        path: '/body/provider',
        message: 'must be one of openai-chat, openai-responses, anthropic, gemini, mcp',
      },
    ]);
  });

  const cases: Array<{ name: string; status: number; body: () => unknown; code?: string }> = [
    {
      name: 'an unknown provider',
      status: 400,
      code: 'unknown_format',
      body: () => ({ provider: 'palm', payload: {} }),
    },
    {
      name: 'a malformed tool call',
      status: 422,
      code: 'invalid_payload',
      body: () => ({
        provider: 'openai-chat',
        payload: {
          role: 'assistant',
          tool_calls: [{ id: 'x', type: 'function', function: 'nope' }],
        },
      }),
    },
    {
      name: 'an unknown tool',
      status: 422,
      code: 'unknown_tool',
      body: () => ({
        provider: 'anthropic',
        payload: anthropicContent([{ id: 'toolu_x', name: 'no_such_tool', input: {} }]),
      }),
    },
    {
      name: 'arguments that are not JSON',
      status: 422,
      code: 'invalid_payload',
      body: () => ({
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_j', name: search.name, arguments: '{"query": oslo' },
        ]),
      }),
    },
    {
      name: 'wrong types',
      status: 400,
      code: 'invalid_request',
      body: () => ({ provider: 42, payload: [], wait_ms: 'soon' }),
    },
    {
      name: 'unknown fields',
      status: 400,
      code: 'invalid_request',
      body: () => ({ provider: 'anthropic', payload: [], stream: true }),
    },
    {
      name: 'a payload without tool calls',
      status: 422,
      code: 'invalid_payload',
      body: () => ({ provider: 'anthropic', payload: [{ type: 'text', text: 'hi' }] }),
    },
  ];

  for (const testCase of cases) {
    it(`refuses ${testCase.name} with a problem document and records nothing`, async () => {
      const before = await callCount(team.id);
      const response = await api.request({
        method: 'POST',
        url: '/v1/calls',
        key: team.key,
        body: testCase.body(),
      });
      expect(response.status, response.text).toBe(testCase.status);
      expect(response.headers['content-type']).toContain('application/problem+json');
      if (testCase.code !== undefined) expect(response.body.code).toBe(testCase.code);
      expect(response.body.errors.length).toBeGreaterThan(0);
      expect(await callCount(team.id)).toBe(before);
    });
  }

  it('refuses a bad Idempotency-Key header', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      headers: { 'idempotency-key': 'has spaces' },
      body: {
        provider: 'anthropic',
        payload: anthropicContent([{ id: 't', name: search.name, input: { query: 'q' } }]),
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe('/headers/idempotency-key');
  });
});

describe('GET /v1/calls/:id/events', () => {
  function eventsOf(text: string): Array<{ event: string; data: Record<string, unknown> }> {
    return text
      .split('\n\n')
      .filter((block) => block.trim() !== '')
      .map((block) => {
        const event = /^event: (.+)$/m.exec(block)?.[1] ?? '';
        const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? 'null') as Record<
          string,
          unknown
        >;
        return { event, data };
      });
  }

  it('replays the current state, then streams progress until the call finishes', async () => {
    const stepwise = await createBuiltinTool(api, team, { handler: 'stepwise' });
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        wait_ms: 0,
        payload: anthropicContent([
          { id: 'toolu_sse', name: stepwise.name, input: { query: 'go' } },
        ]),
      },
    });
    const id = response.body.call_ids[0] as string;
    const stream = await api.request({ url: `/v1/calls/${id}/events`, key: team.key });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    const events = eventsOf(stream.text);
    expect(events[0]).toMatchObject({ event: 'state', data: { id } });
    expect(events.map((event) => event.event)).toContain('progress');
    expect(events.find((event) => event.event === 'progress')?.data).toMatchObject({
      call_id: id,
      message: 'half way',
    });
    expect(events.at(-1)).toMatchObject({
      event: 'finished',
      data: {
        call_id: id,
        ok: true,
        status: 'succeeded',
        result: { call_id: 'toolu_sse', ok: true, data: { done: true } },
      },
    });

    await waitForCallStatus(api, { key: team.key, id, statuses: ['succeeded'] });
    const replay = eventsOf(
      (await api.request({ url: `/v1/calls/${id}/events`, key: team.key })).text,
    );
    expect(replay).toEqual([
      { event: 'state', data: expect.objectContaining({ status: 'succeeded' }) },
    ]);
  });

  it('answers 404 problem for a call of another team', async () => {
    const other = await createTeam(api);
    const [row] = await api.database.prisma.call.findMany({ where: { teamId: team.id }, take: 1 });
    const response = await api.request({ url: `/v1/calls/${row!.id}/events`, key: other.key });
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});
