import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { BuiltinExecutor } from '@toolgate/engine';
import { Toolgate, type CallEvent, type DeprecationNotice } from '@toolgate/sdk';
import { anthropicMessage, openAIChatCompletion } from '@toolgate/sdk/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, publish, setStable, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const logLines: string[] = [];
let api: TestApp;
let baseUrl: string;
let team: TestTeam;

beforeAll(async () => {
  // The server's own request log tells which answers it sent (a 304 must come from the server).
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const builtins = new BuiltinExecutor()
    .registerBuiltin('search', (args) => ({ hits: [`result for ${String(args['query'])}`] }))
    .registerBuiltin('slow', async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { finished: String(args['query']) };
    });
  api = await startTestApp({}, { builtins, logger: pino({ level: 'info' }, sink) });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
});
afterAll(async () => {
  await api?.close();
});

/** Status codes the server logged for GETs of `/v1/exports` naming `toolName`, in order. */
function exportStatusesSeen(toolName: string): number[] {
  const entries = logLines.map(
    (line) =>
      JSON.parse(line) as {
        reqId?: string;
        req?: { url?: string };
        res?: { statusCode?: number };
      },
  );
  const exportRequests = new Set(
    entries
      .filter(
        (entry) =>
          entry.req?.url?.startsWith('/v1/exports') === true && entry.req.url.includes(toolName),
      )
      .map((entry) => entry.reqId),
  );
  return entries
    .filter((entry) => exportRequests.has(entry.reqId) && entry.res?.statusCode !== undefined)
    .map((entry) => entry.res?.statusCode ?? 0);
}

const FORMATS = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'mcp'] as const;

describe('Toolgate#tools against the registry', () => {
  it.each(FORMATS)(
    'pulls %s tools, then revalidates with the ETag: the server answers 304',
    async (format) => {
      const search = await createBuiltinTool(api, team, { handler: 'search' });
      const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
      const first = await toolgate.tools({ format, names: [search.name] });
      expect(first.fromCache).toBe(false);
      expect(first.tools).toHaveLength(1);
      expect(JSON.stringify(first.tools[0])).toContain(search.name);
      expect(first.resolution).toEqual([
        expect.objectContaining({ name: search.name, version: '1.0.0' }),
      ]);
      const second = await toolgate.tools({ format, names: [search.name] });
      expect(second.fromCache).toBe(true);
      expect(second.tools).toEqual(first.tools);
      expect(exportStatusesSeen(search.name)).toEqual([200, 304]);
    },
  );

  it('surfaces a deprecation once, however often the tools are pulled', async () => {
    const tool = await createBuiltinTool(api, team, { handler: 'search' });
    await publish(api, team, tool, '1.1.0');
    const sunset = new Date(Date.now() + 7 * 86_400_000);
    const deprecated = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
      key: team.key,
      body: { sunset_at: sunset.toISOString(), successor: '1.1.0' },
    });
    expect(deprecated.status, deprecated.text).toBe(200);
    const notices: DeprecationNotice[] = [];
    const toolgate = new Toolgate({
      baseUrl,
      apiKey: team.key,
      onDeprecation: (notice) => notices.push(notice),
    });
    for (let pull = 0; pull < 3; pull += 1) {
      await toolgate.tools({ format: 'anthropic', names: [tool.name] });
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ tool: tool.name, version: '1.0.0', successor: '1.1.0' });
    expect(exportStatusesSeen(tool.name)).toEqual([200, 304, 304]);

    // Moving stable to the successor ends the deprecation: nothing more is surfaced.
    await setStable(api, team, tool, '1.1.0');
    await toolgate.tools({ format: 'anthropic', names: [tool.name] });
    expect(notices).toHaveLength(1);
  });
});

describe('Toolgate#execute against the registry', () => {
  it('runs OpenAI Chat tool calls and returns role: tool messages', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'openai-chat',
      payload: openAIChatCompletion({
        calls: [{ id: 'call_chat1', name: search.name, arguments: { query: 'oslo' } }],
      }),
      conversationId: 'sdk-chat',
    });
    expect(executed.outcome).toBe('completed');
    expect(executed.results).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_chat1',
        content: JSON.stringify({ hits: ['result for oslo'] }),
      },
    ]);
    expect(executed.calls).toEqual([
      expect.objectContaining({ status: 'succeeded', tool: search.name, version: '1.0.0' }),
    ]);
  });

  it('runs OpenAI Responses function_call items and returns function_call_output items', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'openai-responses',
      payload: {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        model: 'gpt-4.1',
        output: [
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_resp1',
            name: search.name,
            arguments: '{"query":"rome"}',
            status: 'completed',
          },
        ],
      },
      conversationId: 'sdk-responses',
    });
    expect(executed.results).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_resp1',
        output: JSON.stringify({ hits: ['result for rome'] }),
      },
    ]);
  });

  it('runs Anthropic tool_use blocks and returns one user message of tool_result blocks', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'anthropic',
      payload: anthropicMessage({
        text: 'Let me look.',
        calls: [
          { id: 'toolu_a1', name: search.name, arguments: { query: 'lima' } },
          { id: 'toolu_a2', name: search.name, arguments: { query: '' } },
        ],
      }),
      conversationId: 'sdk-anthropic',
    });
    expect(executed.results).toMatchObject({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_a1',
          content: JSON.stringify({ hits: ['result for lima'] }),
          is_error: false,
        },
        { type: 'tool_result', tool_use_id: 'toolu_a2', is_error: true },
      ],
    });
  });

  it('runs Gemini functionCall parts and returns a user content of functionResponse parts', async () => {
    const search = await createBuiltinTool(api, team, { handler: 'search' });
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const executed = await toolgate.execute({
      provider: 'gemini',
      payload: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { id: 'fc-g1', name: search.name, args: { query: 'quito' } } },
              ],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.5-flash',
      },
      conversationId: 'sdk-gemini',
    });
    expect(executed.results).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'fc-g1',
            name: search.name,
            response: { output: { hits: ['result for quito'] } },
          },
        },
      ],
    });
  });

  it('follows the SSE stream after a 202 for a slow tool and returns the result', async () => {
    const slow = await createBuiltinTool(api, team, { handler: 'slow' });
    const toolgate = new Toolgate({ baseUrl, apiKey: team.key });
    const events: CallEvent[] = [];
    const executed = await toolgate.execute({
      provider: 'anthropic',
      payload: anthropicMessage({
        calls: [{ id: 'toolu_slow', name: slow.name, arguments: { query: 'later' } }],
      }),
      conversationId: 'sdk-slow',
      waitMs: 0,
      onEvent: (event) => events.push(event),
    });
    expect(executed.outcome).toBe('followed');
    expect(executed.results).toMatchObject({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_slow',
          content: JSON.stringify({ finished: 'later' }),
          is_error: false,
        },
      ],
    });
    expect(events.map((event) => event.type)).toContain('finished');
    expect(executed.toolResults).toEqual([
      expect.objectContaining({ ok: true, data: { finished: 'later' } }),
    ]);
  });
});
