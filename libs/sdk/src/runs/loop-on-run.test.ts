import { defineTool } from '@toolgate/toolir';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CALL_IDS,
  callEventMessage,
  eventBase,
  problemOf,
  sendProblem,
  startEventStream,
} from '../../test/support/gateway-answers';
import { anthropicTurnAnswer, RUN_ID, runOf, turnStepOf } from '../../test/support/run-answers';
import { anthropicToolUseStream, startFakeProvider } from '../../test/support/fake-provider';
import { sendJson, startTestServer, type TestServer } from '../../test/support/test-server';
import Anthropic from '@anthropic-ai/sdk';
import { ToolgateRunEndedError } from '../errors/toolgate-sdk-error';
import { localTools } from '../local-tools';
import { Toolgate } from '../toolgate-client';
import type { Run } from '@toolgate/contract';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The transcript of two earlier turns, as the gateway writes it for Anthropic. */
const transcript = [0, 1].flatMap((position) => [
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: `call_${position}`,
        name: 'get_weather',
        input: { city: 'Oslo' },
      },
    ],
  },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: `call_${position}`,
        content: '{"c":21}',
        is_error: false,
      },
    ],
  },
]);

function toolUse(id: string) {
  return {
    id: `msg_${id}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'tool_use', id, name: 'get_weather', input: { city: 'Rome' } }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
const final = {
  ...toolUse('final'),
  content: [{ type: 'text', text: 'Done.' }],
  stop_reason: 'end_turn',
};

/** A structural Anthropic client that replays `replies` and keeps a copy of each request. */
function scriptedModel(replies: unknown[]) {
  const requests: Array<{ messages: unknown[] }> = [];
  return {
    requests,
    client: {
      messages: {
        create(request: { messages: unknown[] }): Promise<unknown> {
          requests.push(structuredClone(request));
          const reply = replies.shift();
          return reply === undefined
            ? Promise.reject(new Error('the model has no more replies'))
            : Promise.resolve(reply);
        },
      },
    },
  };
}

/** A gateway holding one ReAct run: its state, its transcript, and turns answered per tool_use id. */
async function runGateway(
  run: Run,
  answerTurn?: (response: Parameters<Parameters<typeof startTestServer>[0]>[1]) => boolean,
): Promise<TestServer> {
  server = await startTestServer((request, response) => {
    if (request.method === 'GET' && request.url === `/v1/runs/${RUN_ID}`) {
      sendJson(response, { body: run });
    } else if (request.url.startsWith(`/v1/runs/${RUN_ID}/transcript?`)) {
      sendJson(response, { body: { format: 'anthropic', messages: transcript } });
    } else if (request.url === `/v1/runs/${RUN_ID}/turns`) {
      if (answerTurn?.(response) === true) return;
      const payload = (request.json as { payload: { content: Array<{ id?: string }> } }).payload;
      const ids = payload.content.flatMap((block) => (block.id === undefined ? [] : [block.id]));
      sendJson(response, { body: anthropicTurnAnswer(ids) });
    } else {
      sendProblem(response, problemOf('not_found', request.url));
    }
  });
  return server;
}

const appRequest = {
  model: 'claude-sonnet-4-6',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Weather in Oslo, then Rome?' }],
};

describe('runToolLoop on a durable run', () => {
  it("puts the run's transcript after the app's messages and posts each turn under the key of its place in the run", async () => {
    const gateway = await runGateway(runOf({ steps: [turnStepOf(0), turnStepOf(1)] }));
    const model = scriptedModel([toolUse('toolu_a'), toolUse('toolu_b'), final]);
    const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
    const result = await toolgate.runToolLoop({
      provider: 'anthropic',
      client: model.client,
      request: appRequest,
      run: { id: RUN_ID },
    });
    expect(result).toMatchObject({ stopped: 'final', text: 'Done.' });
    expect(model.requests[0]?.messages).toEqual([...appRequest.messages, ...transcript]);
    // The loop's own turns follow the transcript.
    expect(model.requests[2]?.messages.slice(0, 5)).toEqual([
      ...appRequest.messages,
      ...transcript,
    ]);
    expect(model.requests[2]?.messages).toHaveLength(9);
    const turns = gateway.requests.filter((request) => request.url.endsWith('/turns'));
    expect(turns.map((request) => request.headers['idempotency-key'])).toEqual([
      `run:${RUN_ID}:turn:2`,
      `run:${RUN_ID}:turn:3`,
    ]);
    expect(turns[0]?.json).toEqual({ provider: 'anthropic', payload: toolUse('toolu_a') });
    expect(gateway.requests.some((request) => request.url === '/v1/calls')).toBe(false);
    expect(gateway.requests[1]?.url).toBe(`/v1/runs/${RUN_ID}/transcript?format=anthropic`);
  });

  it('streams a loop on a run the same way: transcript first, turns posted to the run', async () => {
    const gateway = await runGateway(runOf({ steps: [turnStepOf(0), turnStepOf(1)] }));
    const model = await startFakeProvider([
      {
        sse: anthropicToolUseStream([
          { id: 'toolu_s', name: 'get_weather', arguments: { city: 'Rome' } },
        ]),
      },
      { sse: anthropicToolUseStream([], 'Done.') },
    ]);
    try {
      const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: model.url, maxRetries: 0 });
      const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
      const events = toolgate.streamToolLoop({
        provider: 'anthropic',
        client: anthropic,
        request: appRequest,
        run: { id: RUN_ID },
      });
      const steps: number[] = [];
      let text: string | undefined;
      for await (const event of events) {
        if (event.type === 'step_finish') steps.push(event.toolStep.results.length);
        if (event.type === 'finish') text = event.result.text;
      }
      expect(steps).toEqual([1]);
      expect(text).toBe('Done.');
      const first = model.requests[0]?.json as { messages: unknown[] };
      expect(first.messages).toEqual([...appRequest.messages, ...transcript]);
      const turns = gateway.requests.filter((request) => request.url.endsWith('/turns'));
      expect(turns.map((request) => request.headers['idempotency-key'])).toEqual([
        `run:${RUN_ID}:turn:2`,
      ]);
    } finally {
      await model.close();
    }
  });

  it('waits for a turn a stopped process left running before it reads the transcript', async () => {
    const run = runOf({
      steps: [
        turnStepOf(0, {
          status: 'running',
          finished_at: null,
          calls: [{ ...turnStepOf(0).calls[0]!, status: 'running', result: null }],
        }),
      ],
    });
    const result = { call_id: 'call_0', name: 'get_weather', ok: true, data: { c: 21 } };
    const events = await startTestServer((_request, response) => {
      startEventStream(response);
      response.end(
        callEventMessage('finished', {
          type: 'finished',
          ...eventBase(CALL_IDS[0], 'get_weather'),
          ok: true,
          status: 'succeeded',
          latency_ms: 5,
          result,
        }),
      );
    });
    const gateway = await runGateway(run);
    const model = scriptedModel([final]);
    // The call's events come from a second server: the run's gateway proxies them there.
    const toolgate = new Toolgate({
      baseUrl: gateway.url,
      apiKey: 'tg_key',
      fetch: (input, init) =>
        String(input).includes('/events')
          ? fetch(String(input).replace(gateway.url, events.url), init)
          : fetch(input, init),
    });
    try {
      await toolgate.runToolLoop({
        provider: 'anthropic',
        client: model.client,
        request: appRequest,
        run: { id: RUN_ID },
      });
      expect(events.requests.map((request) => request.url)).toEqual([
        `/v1/calls/${CALL_IDS[0]}/events`,
      ]);
      // The run was read again once the call ended, then its transcript.
      expect(gateway.requests.map((request) => request.url)).toEqual([
        `/v1/runs/${RUN_ID}`,
        `/v1/runs/${RUN_ID}`,
        `/v1/runs/${RUN_ID}/transcript?format=anthropic`,
      ]);
    } finally {
      await events.close();
    }
  });

  it('stops with ToolgateRunEndedError before calling the model when the run has ended', async () => {
    const gateway = await runGateway(runOf({ status: 'cancelled' }));
    const model = scriptedModel([final]);
    const error = await new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' })
      .runToolLoop({
        provider: 'anthropic',
        client: model.client,
        request: appRequest,
        run: { id: RUN_ID },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateRunEndedError);
    expect(error).toMatchObject({ code: 'run_ended', runId: RUN_ID, status: 'cancelled' });
    expect(model.requests).toHaveLength(0);
  });

  it('stops with ToolgateRunEndedError when the run ends while the loop runs (the turn is refused)', async () => {
    const run = runOf();
    const gateway = await runGateway(run, (response) => {
      run.status = 'cancelled';
      sendProblem(response, problemOf('conflict', `Run ${RUN_ID} has ended (cancelled).`));
      return true;
    });
    const model = scriptedModel([toolUse('toolu_a'), final]);
    await expect(
      new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' }).runToolLoop({
        provider: 'anthropic',
        client: model.client,
        request: appRequest,
        run: { id: RUN_ID },
      }),
    ).rejects.toMatchObject({ code: 'run_ended', status: 'cancelled' });
  });

  it('refuses a plan-mode run, local tools, a tool search and a conversation id beside a run', async () => {
    const gateway = await runGateway(runOf({ mode: 'plan' }));
    const toolgate = new Toolgate({ baseUrl: gateway.url, apiKey: 'tg_key' });
    const base = {
      provider: 'anthropic' as const,
      client: scriptedModel([final]).client,
      request: appRequest,
      run: { id: RUN_ID },
    };
    await expect(toolgate.runToolLoop(base)).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('runs a plan'),
    });
    const weather = defineTool({
      name: 'get_weather',
      description: 'Weather of a city.',
      behavior: { readonly: true, destructive: false, idempotent: true },
      constraints: { timeout_ms: 1_000 },
      parameters: z.object({ city: z.string() }),
      handler: ({ city }) => ({ city }),
    });
    await expect(
      toolgate.runToolLoop({ ...base, execute: localTools([weather]) }),
    ).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('execute'),
    });
    await expect(
      toolgate.runToolLoop({ ...base, toolSearch: toolgate.toolSearch({ format: 'anthropic' }) }),
    ).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('toolSearch'),
    });
    await expect(toolgate.runToolLoop({ ...base, conversationId: 'c' })).rejects.toMatchObject({
      code: 'invalid_options',
    });
    // Only the plan-mode run was read: the others were refused before any request.
    expect(gateway.requests).toHaveLength(1);
  });
});
