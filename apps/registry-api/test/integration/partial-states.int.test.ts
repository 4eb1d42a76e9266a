import type { AddressInfo } from 'node:net';
import { PARTIAL_STATES_LIMITS } from '@toolgate/contract';
import { BuiltinExecutor } from '@toolgate/engine';
import { recordPartialStates, streamToolCalls, Toolgate } from '@toolgate/sdk';
import { openAIChatToolCallStream } from '@toolgate/sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool, openAIChatMessage } from '../factories/gateway.factory';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// The partial-argument stream a client recorded while the model streamed its calls: posted with
// the calls, stored in the same insert, returned on the call's detail; bad records change nothing.
let api: TestApp;
let team: TestTeam;
let baseUrl: string;

const GROWN = {
  entries: [
    { offset_ms: 0, pointers: ['/city'] },
    { offset_ms: 35, pointers: ['/days', ''] },
  ],
  truncated: false,
};

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('forecast', (args) => ({ for: args }));
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  await createBuiltinTool(api, team, {
    handler: 'forecast',
    name: 'get_forecast',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city'],
    },
  });
});
afterAll(async () => {
  await api?.close();
});

function payloadOf(...ids: string[]) {
  return openAIChatMessage(
    ids.map((id) => ({ id, name: 'get_forecast', arguments: '{"city":"Oslo","days":3}' })),
  );
}

async function callCount(): Promise<number> {
  const rows = await api.sql<{ calls: number }>('SELECT count(*)::int AS calls FROM calls');
  return rows[0]?.calls ?? -1;
}

async function post(body: Record<string, unknown>) {
  return api.request({ method: 'POST', url: '/v1/calls', key: team.key, body });
}

describe('partial states of POST /v1/calls', () => {
  it('stores each posted record with its call and returns it on the call detail', async () => {
    const response = await post({
      provider: 'openai-chat',
      payload: payloadOf('call_grown', 'call_plain'),
      partial_states: { call_grown: GROWN },
    });
    expect(response.status, response.text).toBe(200);
    const [grown, plain] = response.body.calls as Array<{ id: string }>;

    const detail = await api.request({ url: `/v1/calls/${grown?.id ?? ''}`, key: team.key });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.provider_call_id).toBe('call_grown');
    expect(detail.body.partial_states).toEqual(GROWN);

    const other = await api.request({ url: `/v1/calls/${plain?.id ?? ''}`, key: team.key });
    expect(other.body.partial_states).toBeNull();

    // The list shows the same records.
    const list = await api.request({ url: '/v1/calls?tool=get_forecast', key: team.key });
    const listed = (list.body.items as Array<{ id: string; partial_states: unknown }>).find(
      (item) => item.id === grown?.id,
    );
    expect(listed?.partial_states).toEqual(GROWN);
  });

  it('keeps what the SDK recorded from a stream and posted with execute()', async () => {
    // A Chat Completions stream whose arguments come in three deltas.
    const sse = openAIChatToolCallStream([
      { id: 'call_sdk', name: 'get_forecast', arguments: { city: 'Oslo', days: 3 } },
    ]);
    let time = 1_000;
    const recorder = recordPartialStates({ now: () => (time += 20) });
    for await (const event of streamToolCalls('openai-chat', new Blob([sse]).stream(), {
      partialStates: recorder,
    }))
      void event;

    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'openai-chat',
      payload: payloadOf('call_sdk'),
      partialStates: recorder.byCall(),
    });
    const detail = await api.request({
      url: `/v1/calls/${executed.calls[0]?.id ?? ''}`,
      key: team.key,
    });
    expect(detail.body.partial_states).toEqual({
      entries: [
        { offset_ms: 20, pointers: ['/city'] },
        { offset_ms: 40, pointers: ['/days', ''] },
      ],
      truncated: false,
    });
  });

  it('keeps a truncated record as posted', async () => {
    const truncated = { entries: [{ offset_ms: 3, pointers: ['/city'] }], truncated: true };
    const response = await post({
      provider: 'openai-chat',
      payload: payloadOf('call_cut'),
      partial_states: { call_cut: truncated },
    });
    expect(response.status, response.text).toBe(200);
    const id = (response.body.calls as Array<{ id: string }>)[0]?.id ?? '';
    const detail = await api.request({ url: `/v1/calls/${id}`, key: team.key });
    expect(detail.body.partial_states).toEqual(truncated);
  });

  const refusals: Array<{ name: string; partialStates: unknown; path: RegExp }> = [
    {
      name: 'more entries than a call may record',
      partialStates: {
        call_1: {
          entries: Array.from({ length: PARTIAL_STATES_LIMITS.maxEntries + 1 }, (_, index) => ({
            offset_ms: index,
            pointers: ['/city'],
          })),
          truncated: false,
        },
      },
      path: /^\/body\/partial_states\/call_1\/entries/,
    },
    {
      name: 'more pointer bytes than a call may record',
      partialStates: {
        call_1: {
          entries: [{ offset_ms: 0, pointers: [`/${'x'.repeat(PARTIAL_STATES_LIMITS.maxBytes)}`] }],
          truncated: false,
        },
      },
      path: /^\/body\/partial_states\/call_1\/entries$/,
    },
    {
      name: 'a pointer that is not a JSON Pointer',
      partialStates: {
        call_1: { entries: [{ offset_ms: 0, pointers: ['city'] }], truncated: false },
      },
      path: /^\/body\/partial_states\/call_1\/entries\/0\/pointers\/0$/,
    },
    {
      name: 'a record for a call the payload does not hold',
      partialStates: { call_1: GROWN, 'call/x': GROWN },
      path: /^\/body\/partial_states\/call~1x$/,
    },
  ];

  it.each(refusals)('refuses $name with a 400 that records nothing', async (refusal) => {
    const before = await callCount();
    const response = await post({
      provider: 'openai-chat',
      payload: payloadOf('call_1'),
      partial_states: refusal.partialStates,
    });
    expect(response.status, response.text).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('invalid_request');
    expect(
      (response.body.errors as Array<{ path: string }>).map((issue) => issue.path),
    ).toContainEqual(expect.stringMatching(refusal.path));
    expect(await callCount()).toBe(before);
  });
});
