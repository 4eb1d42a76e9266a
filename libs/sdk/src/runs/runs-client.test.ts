import { afterEach, describe, expect, it } from 'vitest';
import { problemOf, sendProblem } from '../../test/support/gateway-answers';
import { anthropicTurnAnswer, RUN_ID, runOf } from '../../test/support/run-answers';
import { sendJson, startTestServer, type TestServer } from '../../test/support/test-server';
import { Toolgate } from '../toolgate-client';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientOf(url: string): Toolgate {
  return new Toolgate({ baseUrl: url, apiKey: 'tg_key', sleep: () => Promise.resolve() });
}

/** A gateway that answers every request with the run (201 for its creation, 202 for a plan or compensation). */
async function runGateway(): Promise<TestServer> {
  server = await startTestServer((request, response) => {
    const status =
      request.method === 'POST' && request.url === '/v1/runs'
        ? 201
        : /\/(plan|compensate)$/.test(request.url)
          ? 202
          : 200;
    const body = request.url.startsWith('/v1/runs?')
      ? { items: [], next_cursor: null }
      : request.url.includes('/transcript')
        ? { format: 'anthropic', messages: [{ role: 'assistant', content: [] }] }
        : runOf();
    sendJson(response, { status, body });
  });
  return server;
}

describe('Toolgate#runs', () => {
  it("sends each runs route's method, path and body, and reads its answer by the contract", async () => {
    const gateway = await runGateway();
    const runs = clientOf(gateway.url).runs;
    await expect(runs.create({ mode: 'react', conversation_id: 'conv-1' })).resolves.toMatchObject({
      id: RUN_ID,
      status: 'running',
    });
    await runs.get(RUN_ID);
    await expect(runs.list({ status: 'running', limit: 5 })).resolves.toEqual({
      items: [],
      next_cursor: null,
    });
    await expect(runs.transcript(RUN_ID, 'anthropic')).resolves.toMatchObject({
      format: 'anthropic',
      messages: [{ role: 'assistant' }],
    });
    const plan = { steps: [{ name: 'find', calls: [{ tool: 'find_order', arguments: {} }] }] };
    await runs.plan(RUN_ID, plan);
    await runs.decide(RUN_ID, { step: 'find', action: 'retry' });
    await runs.cancel(RUN_ID);
    await runs.complete(RUN_ID);
    await runs.compensate(RUN_ID);
    await runs.compensate(RUN_ID, { step: 'find', scope: 'run' });
    expect(gateway.requests.map((request) => [request.method, request.url, request.json])).toEqual([
      ['POST', '/v1/runs', { mode: 'react', conversation_id: 'conv-1' }],
      ['GET', `/v1/runs/${RUN_ID}`, undefined],
      ['GET', '/v1/runs?status=running&limit=5', undefined],
      ['GET', `/v1/runs/${RUN_ID}/transcript?format=anthropic`, undefined],
      ['POST', `/v1/runs/${RUN_ID}/plan`, plan],
      ['POST', `/v1/runs/${RUN_ID}/decide`, { step: 'find', action: 'retry' }],
      ['POST', `/v1/runs/${RUN_ID}/cancel`, undefined],
      ['POST', `/v1/runs/${RUN_ID}/complete`, undefined],
      ['POST', `/v1/runs/${RUN_ID}/compensate`, {}],
      ['POST', `/v1/runs/${RUN_ID}/compensate`, { step: 'find', scope: 'run' }],
    ]);
  });

  it('refuses an answer the contract does not allow', async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, { body: { ...runOf(), status: 'paused' } }),
    );
    await expect(clientOf(server.url).runs.get(RUN_ID)).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('posts a turn as POST /v1/calls takes it, under its Idempotency-Key, and retries it with the key', async () => {
    const payload = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
    };
    server = await startTestServer((_request, response, index) => {
      if (index === 0) {
        sendProblem(response, problemOf('unavailable', 'restarting'));
        return;
      }
      sendJson(response, { body: anthropicTurnAnswer(['toolu_1']) });
    });
    const executed = await clientOf(server.url).runs.turn(
      RUN_ID,
      { provider: 'anthropic', payload, waitMs: 5_000, pins: { get_weather: '1.0.0' } },
      { idempotencyKey: 'turn-key-1' },
    );
    expect(executed.outcome).toBe('completed');
    expect(executed.toolResults).toMatchObject([{ call_id: 'toolu_1', ok: true, data: { c: 21 } }]);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe(`/v1/runs/${RUN_ID}/turns`);
      expect(request.headers['idempotency-key']).toBe('turn-key-1');
      // The run keeps its own conversation: a turn's body has none.
      expect(request.json).toEqual({
        provider: 'anthropic',
        payload,
        wait_ms: 5_000,
        pins: { get_weather: '1.0.0' },
      });
    }
  });

  it('does not repeat a turn without a key, nor the creation of a run', async () => {
    server = await startTestServer((_request, response) =>
      sendProblem(response, problemOf('unavailable', 'restarting')),
    );
    const runs = clientOf(server.url).runs;
    await expect(
      runs.turn(RUN_ID, { provider: 'anthropic', payload: { role: 'assistant', content: [] } }),
    ).rejects.toMatchObject({ code: 'api_error', status: 503 });
    await expect(runs.create({ mode: 'plan' })).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(2);
  });
});
