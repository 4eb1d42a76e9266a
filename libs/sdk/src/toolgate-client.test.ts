import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  delay,
  sendJson,
  startTestServer,
  type TestHandler,
  type TestServer,
} from '../test/support/test-server';
import {
  ToolgateApiError,
  ToolgateNetworkError,
  ToolgateSdkError,
} from './errors/toolgate-sdk-error';
import { Toolgate, type ToolgateOptions } from './toolgate-client';
import type { DeprecationNotice } from './transports/deprecation-notices';

const anthropicTool = {
  name: 'search',
  description: 'Searches',
  input_schema: { type: 'object', properties: {} },
};
const exportBody = {
  format: 'anthropic',
  tools: [anthropicTool],
  request_options: {},
  resolution: [
    {
      tool_id: 't1',
      name: 'search',
      version: '2.1.0',
      reason: 'stable',
      deprecated: false,
      sunset_at: null,
      successor_version: null,
    },
  ],
  skipped: [],
  downgrades: { entries: [] },
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(handler: TestHandler, options: Partial<ToolgateOptions> = {}) {
  server = await startTestServer(handler);
  const sleep = vi.fn((_ms: number) => Promise.resolve());
  const client = new Toolgate({
    baseUrl: `${server.url}/`,
    apiKey: 'tg_test_key',
    sleep,
    random: () => 0.5,
    ...options,
  });
  return { client, server, sleep };
}

function problem(
  response: ServerResponse,
  input: { status: number; body: Record<string, unknown>; headers?: Record<string, string> },
): void {
  response.writeHead(input.status, {
    'content-type': 'application/problem+json; charset=utf-8',
    ...input.headers,
  });
  response.end(JSON.stringify({ status: input.status, ...input.body }));
}

describe('Toolgate#tools', () => {
  it('builds the query, sends the key and the subject, and validates the body', async () => {
    const { client, server: http } = await setup(
      (_request, response) => sendJson(response, { body: exportBody }),
      { subject: 'user-42' },
    );
    const exported = await client.tools({
      format: 'anthropic',
      tags: ['search', 'web'],
      names: ['search', 'fetch'],
      pins: { search: '^2.1', fetch: 'canary' },
    });
    expect(exported.tools).toEqual([anthropicTool]);
    expect(exported.resolution).toEqual(exportBody.resolution);
    expect(exported.downgrades).toEqual(exportBody.downgrades);
    expect(exported.fromCache).toBe(false);
    const [request] = http.requests;
    const url = new URL(request!.url, http.url);
    expect(url.pathname).toBe('/v1/exports');
    expect(url.searchParams.get('format')).toBe('anthropic');
    expect(url.searchParams.get('tags')).toBe('search,web');
    expect(url.searchParams.get('names')).toBe('search,fetch');
    expect(url.searchParams.getAll('pin')).toEqual(['fetch@canary', 'search@^2.1']);
    expect(request!.headers['authorization']).toBe('Bearer tg_test_key');
    expect(request!.headers['x-toolgate-subject']).toBe('user-42');
    expect(request!.headers['if-none-match']).toBeUndefined();
  });

  it('reads the request options and keeps unknown fields', async () => {
    const body = {
      ...exportBody,
      request_options: { tool_choice: { type: 'auto' } },
      etag_hint: 'x',
    };
    const { client } = await setup((_request, response) => sendJson(response, { body }));
    const exported = await client.tools({ format: 'anthropic' });
    expect(exported.resolution).toEqual(exportBody.resolution);
    expect(exported.requestOptions).toEqual({ tool_choice: { type: 'auto' } });
    expect((exported.body as Record<string, unknown>)['etag_hint']).toBe('x');
  });

  it('revalidates with If-None-Match and reuses the cached body on 304', async () => {
    const { client, server: http } = await setup((request, response) => {
      if (request.headers['if-none-match'] === '"v1"') {
        response.writeHead(304, { etag: '"v1"' });
        response.end();
        return;
      }
      sendJson(response, { body: exportBody, headers: { etag: '"v1"' } });
    });
    const first = await client.tools({ format: 'anthropic', tags: ['search'] });
    const second = await client.tools({ format: 'anthropic', tags: ['search'] });
    expect(http.requests).toHaveLength(2);
    expect(http.requests[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.fromCache).toBe(true);
    expect(second.tools).toEqual(first.tools);
    expect(second.resolution).toEqual(first.resolution);
    // Another query is another cache entry: no If-None-Match.
    await client.tools({ format: 'anthropic', tags: ['other'] });
    expect(http.requests[2]!.headers['if-none-match']).toBeUndefined();
  });

  it('surfaces a deprecated tool once per deprecation (sunset, successor)', async () => {
    const deprecation = '@1767225600';
    const resolution = {
      name: 'search',
      version: '2.1.0',
      reason: 'stable',
      deprecated: true,
      sunset_at: '2027-01-01T00:00:00.000Z',
      successor_version: '3.0.0',
    };
    const body = { ...exportBody, resolution: [resolution] };
    const notices: DeprecationNotice[] = [];
    const { client } = await setup(
      (request, response) => {
        const headers = {
          etag: '"v1"',
          deprecation,
          sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
          link: '</v1/tools/t1/versions/3.0.0>; rel="successor-version"',
        };
        if (request.headers['if-none-match'] === '"v1"') {
          response.writeHead(304, headers);
          response.end();
          return;
        }
        sendJson(response, { body, headers });
      },
      { onDeprecation: (notice) => notices.push(notice) },
    );
    await client.tools({ format: 'anthropic' });
    await client.tools({ format: 'anthropic' });
    await client.tools({ format: 'anthropic' });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      tool: 'search',
      version: '2.1.0',
      deprecation: '@1767225600',
      sunset: '2027-01-01T00:00:00.000Z',
      successor: '3.0.0',
    });
    // The sunset moved: that is a new deprecation of the same version, surfaced again (the body changed, so no 304).
    resolution.sunset_at = '2027-02-01T00:00:00.000Z';
    await client.tools({ format: 'anthropic', names: ['search'] });
    expect(notices).toHaveLength(2);
    expect(notices[1]).toMatchObject({ tool: 'search', sunset: '2027-02-01T00:00:00.000Z' });
  });

  it('surfaces a deprecated URL once per Deprecation value through the logger when the body names no tool', async () => {
    const warn = vi.fn();
    let deprecation = '@1767225600';
    const { client } = await setup(
      (_request, response) =>
        sendJson(response, {
          body: exportBody,
          headers: { deprecation, link: '</v2/exports>; rel="successor-version"' },
        }),
      { logger: { warn } },
    );
    await client.tools({ format: 'anthropic' });
    await client.tools({ format: 'anthropic' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![1]).toMatchObject({
      deprecation: '@1767225600',
      successor: '/v2/exports',
    });
    deprecation = '@1767312000';
    await client.tools({ format: 'anthropic' });
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('throws a typed error with the problem document on a 4xx, without retrying', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response) =>
      problem(response, {
        status: 400,
        body: {
          type: 'https://toolgate.dev/problems/invalid_request',
          title: 'Invalid request',
          detail: 'format must be one of openai-chat, openai-responses, anthropic, gemini, mcp',
          code: 'invalid_request',
          errors: [{ path: '/query/format', message: 'must be one of ...' }],
        },
      }),
    );
    const error = await client.tools({ format: 'anthropic' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({
      code: 'api_error',
      status: 400,
      type: 'https://toolgate.dev/problems/invalid_request',
      title: 'Invalid request',
      detail: 'format must be one of openai-chat, openai-responses, anthropic, gemini, mcp',
      problemCode: 'invalid_request',
      errors: [{ path: '/query/format', message: 'must be one of ...' }],
      retryable: false,
    });
    expect(http.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('retries a GET on 503 with jittered backoff', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response, index) => {
      if (index === 0) problem(response, { status: 503, body: { title: 'Service unavailable' } });
      else sendJson(response, { body: exportBody });
    });
    await expect(client.tools({ format: 'anthropic' })).resolves.toMatchObject({
      tools: [anthropicTool],
    });
    expect(http.requests).toHaveLength(2);
    // Full jitter: random() * min(maxDelayMs, baseDelayMs * 2^0) = 0.5 * 250.
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([125]);
  });

  it('rejects a body that breaks the contract', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, { body: { format: 'anthropic', tools: 'nope' } }),
    );
    await expect(client.tools({ format: 'anthropic' })).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });

  it('throws a network error when nothing answers', async () => {
    const { client, server: http } = await setup(
      (_request, response) => sendJson(response, { body: exportBody }),
      { retry: { maxAttempts: 2 } },
    );
    await http.close();
    server = undefined;
    await expect(client.tools({ format: 'anthropic' })).rejects.toBeInstanceOf(
      ToolgateNetworkError,
    );
  });

  it('throws a timeout error when an attempt runs past its budget', async () => {
    const { client } = await setup(
      async (_request, response) => {
        await delay(300);
        sendJson(response, { body: exportBody });
      },
      { timeoutMs: 50, retry: { maxAttempts: 1 } },
    );
    await expect(client.tools({ format: 'anthropic' })).rejects.toMatchObject({
      code: 'timeout',
      timeoutMs: 50,
    });
  });
});

const anthropicResponse = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: { zone: 'Europe/Paris' } },
  ],
  stop_reason: 'tool_use',
};

function sse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

describe('Toolgate#execute', () => {
  it('returns the wire results of a 200 and sends the contract body and headers', async () => {
    const wire = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"temp":21}', is_error: false },
      ],
    };
    const { client, server: http } = await setup((_request, response) =>
      sendJson(response, {
        body: {
          results: wire,
          calls: [{ id: 'toolu_01A', status: 'succeeded', tool: 'get_weather', version: '1.0.0' }],
        },
      }),
    );
    const result = await client.execute({
      provider: 'anthropic',
      payload: anthropicResponse,
      conversationId: 'conv-1',
      idempotencyKey: 'key-1',
      waitMs: 5000,
    });
    expect(result).toMatchObject({
      outcome: 'completed',
      results: wire,
      calls: [{ id: 'toolu_01A', status: 'succeeded' }],
    });
    const [request] = http.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/calls');
    expect(request!.json).toEqual({
      provider: 'anthropic',
      payload: anthropicResponse,
      conversation_id: 'conv-1',
      wait_ms: 5000,
    });
    expect(request!.headers['idempotency-key']).toBe('key-1');
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it("follows every call's event stream after a 202 and converts the results to the provider wire", async () => {
    const { client, server: http } = await setup(async (request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: { call_ids: ['toolu_01A', 'toolu_01B'] } });
        return;
      }
      sse(response);
      if (request.url === '/v1/calls/toolu_01A/events') {
        response.write('id: 1\nevent: queued\ndata: {"call_id":"toolu_01A"}\n\n');
        await delay(20);
        response.write('id: 2\nevent: started\nda');
        await delay(20);
        response.write('ta: {"call_id":"toolu_01A"}\r\n\r');
        await delay(20);
        response.write(
          '\n: keep-alive\n\nid: 3\nevent: progress\ndata: {"call_id":"toolu_01A",\ndata: "progress":0.5}\n\n',
        );
        await delay(20);
        response.write(
          'id: 4\nevent: finished\ndata: {"call_id":"toolu_01A","result":{"call_id":"toolu_01A","name":"get_weather","ok":true,"data":{"temp":21}}}\n\n',
        );
        response.end();
        return;
      }
      response.write('event: awaiting_approval\ndata: {"call_id":"toolu_01B"}\n\n');
      await delay(60);
      response.write(
        'event: finished\ndata: {"call_id":"toolu_01B","result":{"call_id":"toolu_01B","name":"get_time","ok":false,"error":{"code":"approval_denied","message":"denied","retryable":false}}}\n\n',
      );
      response.end();
    });
    const events: string[] = [];
    const result = await client.execute({
      provider: 'anthropic',
      payload: anthropicResponse,
      onEvent: (event) => events.push(`${event.callId}:${event.type}`),
    });
    expect(result.outcome).toBe('followed');
    expect(result.toolResults?.map((toolResult) => toolResult.call_id)).toEqual([
      'toolu_01A',
      'toolu_01B',
    ]);
    expect(result.results).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01A', content: '{"temp":21}', is_error: false },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01B',
          content: expect.stringContaining('approval_denied'),
          is_error: true,
        },
      ],
    });
    expect(events.filter((event) => event.startsWith('toolu_01A'))).toEqual([
      'toolu_01A:queued',
      'toolu_01A:started',
      'toolu_01A:progress',
      'toolu_01A:finished',
    ]);
    expect(events).toContain('toolu_01B:awaiting_approval');
    const streams = http.requests.filter((request) => request.method === 'GET');
    expect(streams.every((request) => request.headers['accept'] === 'text/event-stream')).toBe(
      true,
    );
    expect(
      streams.every((request) => request.headers['authorization'] === 'Bearer tg_test_key'),
    ).toBe(true);
  });

  it('reconnects an event stream that ends early, resuming after the last event id', async () => {
    const { client, server: http } = await setup((request, response, index) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: { call_ids: ['call_1'] } });
        return;
      }
      sse(response);
      if (index === 1) {
        response.end('id: 7\nevent: started\ndata: {"call_id":"call_1"}\n\n');
        return;
      }
      response.end(
        'id: 8\nevent: finished\ndata: {"call_id":"call_1","name":"get_weather","ok":true,"data":1}\n\n',
      );
    });
    const result = await client.execute({ provider: 'openai-chat', payload: [] });
    expect(result.results).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '1' }]);
    expect(http.requests[2]!.headers['last-event-id']).toBe('7');
  });

  it('retries a 503 when an Idempotency-Key makes the POST safe', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response, index) => {
      if (index === 0) problem(response, { status: 503, body: { title: 'Service unavailable' } });
      else sendJson(response, { body: { results: [], calls: [] } });
    });
    await expect(
      client.execute({ provider: 'openai-chat', payload: [], idempotencyKey: 'key-1' }),
    ).resolves.toMatchObject({ outcome: 'completed' });
    expect(http.requests).toHaveLength(2);
    expect(http.requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'key-1',
      'key-1',
    ]);
    expect(sleep).toHaveBeenCalledTimes(1);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response) =>
      problem(response, { status: 503, body: { title: 'Service unavailable' } }),
    );
    const error = await client
      .execute({ provider: 'openai-chat', payload: [] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(http.requests).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('honors Retry-After (seconds and HTTP-date) before retrying', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response, index) => {
      if (index === 0)
        problem(response, {
          status: 429,
          body: { title: 'Too many requests' },
          headers: { 'retry-after': '2' },
        });
      else if (index === 1) {
        problem(response, {
          status: 503,
          body: { title: 'Service unavailable' },
          headers: { 'retry-after': new Date(Date.now() + 3000).toUTCString() },
        });
      } else sendJson(response, { body: { results: [], calls: [] } });
    });
    await client.execute({ provider: 'openai-chat', payload: [], idempotencyKey: 'key-1' });
    expect(http.requests).toHaveLength(3);
    const [first, second] = sleep.mock.calls.map(([ms]) => ms);
    expect(first).toBe(2000);
    // An HTTP-date has one-second resolution.
    expect(second).toBeGreaterThan(1000);
    expect(second).toBeLessThanOrEqual(3000);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs', async () => {
    const { client, server: http } = await setup((_request, response) =>
      problem(response, {
        status: 429,
        body: { title: 'Too many requests' },
        headers: { 'retry-after': '3600' },
      }),
    );
    await expect(
      client.execute({ provider: 'openai-chat', payload: [], idempotencyKey: 'key-1' }),
    ).rejects.toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(http.requests).toHaveLength(1);
  });

  it('never retries a 400, even with an Idempotency-Key, and exposes the problem fields', async () => {
    const { client, server: http } = await setup((_request, response) =>
      problem(response, {
        status: 400,
        body: {
          type: 'https://toolgate.dev/problems/invalid_request',
          title: 'Invalid request',
          detail: 'payload is not an Anthropic message',
          code: 'invalid_request',
          errors: [{ path: '/payload/content/0', message: 'unknown block type "tool_usage"' }],
        },
      }),
    );
    const error = await client
      .execute({ provider: 'anthropic', payload: {}, idempotencyKey: 'key-1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({
      status: 400,
      title: 'Invalid request',
      detail: 'payload is not an Anthropic message',
      errors: [{ path: '/payload/content/0', message: 'unknown block type "tool_usage"' }],
    });
    expect(http.requests).toHaveLength(1);
  });

  it('gives up following after followTimeoutMs', async () => {
    const { client } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: { call_ids: ['call_1'] } });
        return;
      }
      sse(response);
      response.write('event: awaiting_approval\ndata: {"call_id":"call_1"}\n\n');
    });
    await expect(
      client.execute({ provider: 'openai-chat', payload: [], followTimeoutMs: 100 }),
    ).rejects.toMatchObject({ code: 'timeout', timeoutMs: 100 });
  });

  it("stops on the caller's abort signal without retrying", async () => {
    const controller = new AbortController();
    const { client, server: http } = await setup(async (_request, response) => {
      controller.abort();
      await delay(50);
      sendJson(response, { body: { results: [], calls: [] } });
    });
    const error = await client
      .execute({
        provider: 'openai-chat',
        payload: [],
        idempotencyKey: 'key-1',
        signal: controller.signal,
      })
      .catch((caught: unknown) => caught);
    expect(ToolgateSdkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'aborted' });
    expect(http.requests).toHaveLength(1);
  });
});

describe('new Toolgate', () => {
  it('refuses missing options', () => {
    expect(() => new Toolgate({ baseUrl: '', apiKey: 'key' })).toThrow(ToolgateSdkError);
  });
});
