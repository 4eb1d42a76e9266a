import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool, DESTRUCTIVE_BEHAVIOR } from '../factories/gateway.factory';
import { createTeam, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// Calls whose arguments were cut off (the model hit its token limit) through POST /v1/calls: a
// version that opts in runs the completed call and records the repair; anything else is answered
// incomplete_arguments, recorded, and never runs.
const SEARCH_PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer', default: 10 },
    note: { type: 'string' },
  },
  required: ['query'],
  additionalProperties: false,
};

let api: TestApp;
let team: TestTeam;
let repairing: TestTool;
let plain: TestTool;
let destructive: TestTool;
const seen: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('record_search', (args) => {
    seen.push(args);
    return { hits: 3 };
  });
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  repairing = await createBuiltinTool(api, team, {
    handler: 'record_search',
    name: 'search_repairing',
    parameters: SEARCH_PARAMETERS,
    repair_cut_arguments: true,
  });
  plain = await createBuiltinTool(api, team, {
    handler: 'record_search',
    name: 'search_plain',
    parameters: SEARCH_PARAMETERS,
  });
  destructive = await createBuiltinTool(api, team, {
    handler: 'record_search',
    name: 'purge_index',
    parameters: SEARCH_PARAMETERS,
    behavior: DESTRUCTIVE_BEHAVIOR,
  });
});
afterAll(async () => {
  await api?.close();
});

/** A Chat Completions answer cut by its token limit inside the arguments of one call. */
function cutCompletion(id: string, name: string, args: string) {
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id, type: 'function', function: { name, arguments: args } }],
        },
        finish_reason: 'length',
      },
    ],
  };
}

interface CallsAnswer {
  tool_results: Array<{ ok: boolean; error?: { code: string; message: string } }>;
  results: Array<{ role: string; content: string }>;
  calls: Array<{ id: string; status: string }>;
}

async function postCut(id: string, tool: TestTool, args: string): Promise<CallsAnswer> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: { provider: 'openai-chat', payload: cutCompletion(id, tool.name, args) },
  });
  expect(response.status, response.text).toBe(200);
  return response.body as CallsAnswer;
}

async function callRecord(id: string): Promise<Record<string, unknown>> {
  const response = await api.request({ url: `/v1/calls/${id}`, key: team.key });
  expect(response.status, response.text).toBe(200);
  return response.body as Record<string, unknown>;
}

describe('cut-off arguments through POST /v1/calls', () => {
  it('runs a cut call of a version that opts in with the completed arguments, and records the repair', async () => {
    const text = '{"query": "trams in Oslo", "note": "after mid';
    const body = await postCut('call_cut_ok', repairing, text);
    expect(body.tool_results).toEqual([expect.objectContaining({ ok: true })]);
    expect(seen).toContainEqual({ query: 'trams in Oslo', limit: 10 });
    const record = await callRecord(body.calls[0]!.id);
    expect(record).toMatchObject({
      status: 'succeeded',
      provider_call_id: 'call_cut_ok',
      arguments: { query: 'trams in Oslo', limit: 10 },
      arguments_repair: {
        outcome: 'repaired',
        received: text.length,
        raw_arguments: text,
        closed: ['/'],
        completed: [],
        dropped: [{ path: '/note', cut: 'string' }],
        filled: [{ path: '/limit', value: 10 }],
      },
    });
  });

  it('answers a cut call of a version that does not opt in with incomplete_arguments, and never runs it', async () => {
    const before = seen.length;
    const body = await postCut('call_cut_plain', plain, '{"query": "trams in Oslo", "note": "a');
    expect(body.tool_results[0]).toMatchObject({
      ok: false,
      error: { code: 'incomplete_arguments' },
    });
    expect(JSON.parse(body.results[0]!.content)).toMatchObject({
      error: { code: 'incomplete_arguments' },
    });
    expect(seen).toHaveLength(before);
    const record = await callRecord(body.calls[0]!.id);
    expect(record).toMatchObject({
      status: 'failed',
      error_code: 'incomplete_arguments',
      arguments: {},
      arguments_repair: {
        outcome: 'not_repaired',
        reason: expect.stringContaining('does not opt in'),
      },
    });
  });

  it('answers an ambiguous cut incomplete_arguments even when the version opts in, saying why', async () => {
    const before = seen.length;
    const body = await postCut('call_cut_ambiguous', repairing, '{"query": "trams in Os');
    expect(body.tool_results[0]?.error).toMatchObject({
      code: 'incomplete_arguments',
      message: expect.stringContaining('/query is required'),
    });
    expect(seen).toHaveLength(before);
    expect(await callRecord(body.calls[0]!.id)).toMatchObject({
      status: 'failed',
      arguments_repair: { outcome: 'not_repaired', reason: expect.stringContaining('/query') },
    });

    const deep = await postCut('call_cut_deep', repairing, `{"query": ${'['.repeat(100_000)}`);
    expect(deep.tool_results[0]?.error?.message).toContain('nested deeper than 64 levels');
  });

  it('never repairs a destructive tool: the version cannot opt in, and its cut call does not wait for approval', async () => {
    const refused = await api.request({
      method: 'POST',
      url: `/v1/tools/${destructive.id}/versions`,
      key: team.key,
      body: { ir: destructive.ir.with({ repair_cut_arguments: true }).version('1.1.0').build() },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors).toContainEqual(
      expect.objectContaining({ path: '/body/ir/repair_cut_arguments' }),
    );
    const body = await postCut('call_cut_destructive', destructive, '{"query": "all"');
    expect(body.tool_results[0]?.error?.code).toBe('incomplete_arguments');
    expect(body.calls[0]?.status).toBe('failed');
  });

  it('takes cut IR calls at POST /v1/calls/ir, as the SDK stream helper reports them', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: 'call_ir_cut',
          name: repairing.name,
          arguments: {},
          raw_arguments: '{"query": "ferries", "limit": 3, "no',
          cut: true,
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true });
    expect(seen).toContainEqual({ query: 'ferries', limit: 3 });
    const record = await callRecord(response.body.calls[0].id as string);
    expect(record).toMatchObject({
      provider: 'ir',
      arguments_repair: { outcome: 'repaired', dropped: [{ path: '/', cut: 'member_name' }] },
    });
  });

  it('replays a recorded cut call by its idempotency key and still refuses malformed JSON', async () => {
    const request = {
      method: 'POST' as const,
      url: '/v1/calls',
      key: team.key,
      headers: { 'idempotency-key': 'cut-replay-1' },
      body: {
        provider: 'openai-chat',
        payload: cutCompletion('call_cut_replay', plain.name, '{"query": "x'),
      },
    };
    const first = await api.request(request);
    const second = await api.request(request);
    expect(second.status, second.text).toBe(200);
    expect(second.body.calls[0].id).toBe(first.body.calls[0].id);

    const malformed = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: cutCompletion('call_bad_json', plain.name, '{"query": x}'),
      },
    });
    expect(malformed.status, malformed.text).toBe(422);
    expect(malformed.body.code).toBe('invalid_payload');
  });
});
