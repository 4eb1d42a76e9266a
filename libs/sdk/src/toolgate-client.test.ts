import type { ServerResponse } from 'node:http';
import { getAdapter } from '@toolgate/adapters';
import type {
  CallFinishedEvent,
  CallsAccepted,
  CallsCompleted,
  CallSummary,
  ExportBody,
  ExportToolResolution,
  IRCallsCompleted,
} from '@toolgate/contract';
import type { ToolResultIR } from '@toolgate/toolir';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { openAIChatCompletion } from '../test/support/fake-provider';
import {
  APPROVAL_ID,
  CALL_IDS,
  TOOL_ID,
  callEventMessage,
  callRecord,
  eventBase,
  problemOf,
  sendProblem,
  startEventStream,
} from '../test/support/gateway-answers';
import {
  delay,
  sendJson,
  startTestServer,
  type TestHandler,
  type TestServer,
} from '../test/support/test-server';
import type { CallEvent } from './transports/call-events';
import {
  ToolgateApiError,
  ToolgateInvalidResponseError,
  ToolgateNetworkError,
  ToolgateSdkError,
} from './errors/toolgate-sdk-error';
import { registryTypes } from './loop/tool-types';
import { Toolgate, type ToolgateOptions } from './toolgate-client';
import type { DeprecationNotice } from './transports/deprecation-notices';

const anthropicTool = {
  name: 'search',
  description: 'Searches',
  input_schema: { type: 'object', properties: {} },
};
const stableResolution = {
  tool_id: TOOL_ID,
  name: 'search',
  version: '2.1.0',
  reason: 'stable',
  deprecated: false,
  sunset_at: null,
  successor_version: null,
} satisfies ExportToolResolution;
const exportBody = {
  format: 'anthropic',
  tools: [anthropicTool],
  request_options: {},
  snapshot: 'snap_3kTMd4pQz9WcJ0xR7b2NfA',
  resolution: [stableResolution],
  skipped: [],
  downgrades: { entries: [], names: [{ name: 'search', wireName: 'search' }], limits: [] },
  total: 1,
  next_cursor: null,
} satisfies ExportBody;
/** What GET /v1/exports sends beside its body (the route's cache headers). */
const exportHeaders = {
  etag: '"v1"',
  'cache-control': 'private, no-cache',
  vary: 'Authorization, X-Toolgate-Subject',
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

describe('Toolgate with a tracer', () => {
  it('makes each request a CLIENT span and sends its context as traceparent', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const { client, server: http } = await setup(
      (_request, response) => sendJson(response, { body: exportBody, headers: exportHeaders }),
      { tracer: provider.getTracer('app') },
    );
    await client.tools({ format: 'anthropic' });
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('GET /v1/exports');
    expect(span?.kind).toBe(3);
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/v1/exports',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
    });
    const context = span!.spanContext();
    expect(http.requests[0]!.headers['traceparent']).toBe(
      `00-${context.traceId}-${context.spanId}-01`,
    );
    await provider.shutdown();
  });

  it('marks the span of a refused request failed', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const { client } = await setup(
      (_request, response) => sendProblem(response, problemOf('not_found', 'No such tool')),
      { tracer: provider.getTracer('app') },
    );
    await expect(client.tools({ format: 'anthropic' })).rejects.toBeInstanceOf(ToolgateApiError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes).toMatchObject({
      'error.type': '404',
      'http.response.status_code': 404,
    });
    expect(span?.status.code).toBe(2);
    await provider.shutdown();
  });

  it('sends no traceparent without a tracer', async () => {
    const { client, server: http } = await setup((_request, response) =>
      sendJson(response, { body: exportBody, headers: exportHeaders }),
    );
    await client.tools({ format: 'anthropic' });
    expect(http.requests[0]!.headers['traceparent']).toBeUndefined();
  });
});

describe('Toolgate#tools', () => {
  it('builds the query, sends the key and the subject, and validates the body', async () => {
    const { client, server: http } = await setup(
      (_request, response) => sendJson(response, { body: exportBody, headers: exportHeaders }),
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
    expect(exported.skipped).toEqual([]);
    expect(exported.downgrades).toEqual(exportBody.downgrades);
    expect(exported.body).toEqual(exportBody);
    expect(exported.fromCache).toBe(false);
    const [request] = http.requests;
    const url = new URL(request!.url, http.url);
    expect(request!.method).toBe('GET');
    expect(url.pathname).toBe('/v1/exports');
    expect(url.searchParams.get('format')).toBe('anthropic');
    expect(url.searchParams.get('tags')).toBe('search,web');
    expect(url.searchParams.get('names')).toBe('search,fetch');
    expect(url.searchParams.getAll('pin')).toEqual(['fetch@canary', 'search@^2.1']);
    expect(request!.headers['authorization']).toBe('Bearer tg_test_key');
    expect(request!.headers['x-toolgate-subject']).toBe('user-42');
    expect(request!.headers['if-none-match']).toBeUndefined();
  });

  it('asks for a page by limit and cursor and reads where the selection goes on', async () => {
    const firstPage = { ...exportBody, total: 3, next_cursor: 'eyJuYW1lIjoic2VhcmNoIn0' };
    const { client, server: http } = await setup((request, response) =>
      sendJson(response, {
        body: new URL(request.url ?? '/', 'http://x').searchParams.has('cursor')
          ? { ...exportBody, total: 3 }
          : firstPage,
        headers: exportHeaders,
      }),
    );
    const first = await client.tools({ format: 'anthropic', limit: 1 });
    expect(first).toMatchObject({ total: 3, nextCursor: firstPage.next_cursor });
    const next = await client.tools({ format: 'anthropic', limit: 1, cursor: first.nextCursor! });
    expect(next).toMatchObject({ total: 3, nextCursor: null });
    const [firstUrl, nextUrl] = http.requests.map((request) => new URL(request.url, http.url));
    expect(firstUrl!.searchParams.get('limit')).toBe('1');
    expect(firstUrl!.searchParams.has('cursor')).toBe(false);
    expect(nextUrl!.searchParams.get('cursor')).toBe(firstPage.next_cursor);
  });

  it('reads the request options and the skipped tools', async () => {
    const body = {
      ...exportBody,
      request_options: { tool_choice: { type: 'auto' } },
      skipped: [{ tool_id: '5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716', name: 'old', reason: 'sunset' }],
    } satisfies ExportBody;
    const { client } = await setup((_request, response) =>
      sendJson(response, { body, headers: exportHeaders }),
    );
    const exported = await client.tools({ format: 'anthropic' });
    expect(exported.resolution).toEqual(exportBody.resolution);
    expect(exported.requestOptions).toEqual({ tool_choice: { type: 'auto' } });
    expect(exported.skipped).toEqual(body.skipped);
  });

  it('revalidates with If-None-Match and reuses the cached body on 304', async () => {
    const { client, server: http } = await setup((request, response) => {
      if (request.headers['if-none-match'] === '"v1"') {
        response.writeHead(304, exportHeaders);
        response.end();
        return;
      }
      sendJson(response, { body: exportBody, headers: exportHeaders });
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
    const resolution: ExportToolResolution = {
      ...stableResolution,
      deprecated: true,
      sunset_at: '2027-01-01T00:00:00.000Z',
      successor_version: '3.0.0',
    };
    const body = { ...exportBody, resolution: [resolution] } satisfies ExportBody;
    const notices: DeprecationNotice[] = [];
    const { client } = await setup(
      (request, response) => {
        const headers = {
          ...exportHeaders,
          deprecation,
          sunset: 'Fri, 01 Jan 2027 00:00:00 GMT',
          link: `</v1/tools/${TOOL_ID}/versions/3.0.0>; rel="successor-version"`,
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
          headers: {
            ...exportHeaders,
            deprecation,
            link: '</v2/exports>; rel="successor-version"',
          },
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
    const document = problemOf('invalid_request', 'The request does not match the route.', [
      {
        path: '/query/format',
        message: 'must be one of openai-chat, openai-responses, anthropic, gemini, mcp',
      },
    ]);
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response) => sendProblem(response, document));
    const error = await client.tools({ format: 'anthropic' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({
      code: 'api_error',
      status: 400,
      type: 'https://toolgate.dev/problems/invalid_request',
      title: document.title,
      detail: 'The request does not match the route.',
      problemCode: 'invalid_request',
      errors: document.errors,
      problem: document,
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
      if (index === 0)
        sendProblem(response, problemOf('unavailable', 'The database is unreachable.'));
      else sendJson(response, { body: exportBody, headers: exportHeaders });
    });
    await expect(client.tools({ format: 'anthropic' })).resolves.toMatchObject({
      tools: [anthropicTool],
    });
    expect(http.requests).toHaveLength(2);
    // Full jitter: random() * min(maxDelayMs, baseDelayMs * 2^0) = 0.5 * 250.
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([125]);
  });

  it("reads what it can of a proxy's JSON error that is not a problem document", async () => {
    const { client } = await setup(
      (_request, response) =>
        sendJson(response, {
          status: 502,
          body: {
            title: 'Bad Gateway',
            code: 'ECONNRESET',
            errors: [{ message: 'upstream reset' }],
          },
        }),
      { retry: { maxAttempts: 1 } },
    );
    const error = await client.tools({ format: 'anthropic' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({
      status: 502,
      title: 'Bad Gateway',
      problemCode: 'ECONNRESET',
      // An issue without the problem document's `path` is not one of its issues.
      errors: [],
      problem: undefined,
      retryable: true,
    });
    expect((error as ToolgateApiError).detail).toContain('Bad Gateway');
  });

  it('rejects a body that breaks the contract, listing every issue', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, { body: { format: 'anthropic', tools: 'nope' } }),
    );
    const error = await client.tools({ format: 'anthropic' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateInvalidResponseError);
    expect(error).toMatchObject({ code: 'invalid_response', retryable: false });
    const { issues } = error as ToolgateInvalidResponseError;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/tools: /),
        expect.stringMatching(/^\/resolution: /),
        expect.stringMatching(/^\/downgrades: /),
      ]),
    );
  });

  it('rejects an export in another format than the one asked for', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, { body: { ...exportBody, format: 'gemini' }, headers: exportHeaders }),
    );
    await expect(client.tools({ format: 'anthropic' })).rejects.toMatchObject({
      code: 'invalid_response',
      issues: ['/format: expected anthropic, got gemini'],
    });
  });

  it('rejects a status the route does not answer with', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, { status: 201, body: exportBody }),
    );
    await expect(client.tools({ format: 'anthropic' })).rejects.toMatchObject({
      code: 'invalid_response',
      issues: ['status 201 is not an answer of exportTools'],
    });
  });

  it('throws a network error naming the refused connection when nothing answers', async () => {
    const { client, server: http } = await setup(
      (_request, response) => sendJson(response, { body: exportBody }),
      { retry: { maxAttempts: 2 } },
    );
    await http.close();
    server = undefined;
    const error: unknown = await client
      .tools({ format: 'anthropic' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateNetworkError);
    expect(error).toMatchObject({
      code: 'network_error',
      systemCode: 'ECONNREFUSED',
      retryable: true,
    });
    // What failed, not the runtime's "fetch failed".
    expect((error as Error).message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/exports\?format=anthropic got no answer: connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
    );
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED', syscall: 'connect' });
  });

  it('throws a timeout error when an attempt runs past its budget', async () => {
    const { client } = await setup(
      async (_request, response) => {
        await delay(300);
        sendJson(response, { body: exportBody, headers: exportHeaders });
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
const [CALL_A, CALL_B] = CALL_IDS;
const weatherResult: ToolResultIR = {
  call_id: 'toolu_01A',
  name: 'get_weather',
  ok: true,
  data: { temp: 21 },
};
const deniedResult: ToolResultIR = {
  call_id: 'toolu_01B',
  name: 'get_time',
  ok: false,
  error: { code: 'approval_denied', message: 'denied', retryable: false },
};

function summary(id: string, tool: string, status: CallSummary['status']): CallSummary {
  return { id, status, tool, version: '1.0.0' };
}

/** A `finished` event of a call, as the runner announces it. */
function finished(callId: string, result: ToolResultIR): CallFinishedEvent {
  return {
    type: 'finished',
    ...eventBase(callId, result.name, 20),
    ok: result.ok,
    status: result.ok ? 'succeeded' : 'failed',
    ...(result.error === undefined ? {} : { error_code: result.error.code }),
    latency_ms: 12,
    result,
  };
}

/** An OpenAI Chat turn with one call, and the 200 the gateway answers it with. */
const chatTurn = openAIChatCompletion({
  calls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
});
const chatResult: ToolResultIR = { call_id: 'call_1', name: 'get_weather', ok: true, data: 1 };
const chatCompleted = {
  results: getAdapter('openai-chat').resultsToWire([chatResult]),
  calls: [summary(CALL_A, 'get_weather', 'succeeded')],
} satisfies CallsCompleted;

function accepted(...ids: string[]): CallsAccepted {
  return { call_ids: ids, calls: ids.map((id) => summary(id, 'get_weather', 'running')) };
}

/** Writes `text` in small pieces, cut mid-line, as a network delivers a stream. */
async function writeInPieces(response: ServerResponse, text: string): Promise<void> {
  for (let start = 0; start < text.length; start += 29) {
    response.write(text.slice(start, start + 29));
    await delay(2);
  }
}

describe('Toolgate#versionsOf', () => {
  const otherSnapshot = 'snap_9xY2bQ7mN4kLp0Rz8wVt3c';
  const fetchTool = { ...anthropicTool, name: 'fetch' };
  const fetchResolution = { ...stableResolution, name: 'fetch', version: '1.4.0' };

  it('names the export the offered tools came from, or pins each tool when they came from several', async () => {
    const { client } = await setup((request, response) => {
      const names = new URL(request.url, 'http://x').searchParams.get('names');
      sendJson(response, {
        body:
          names === 'fetch'
            ? {
                ...exportBody,
                tools: [fetchTool],
                resolution: [fetchResolution],
                snapshot: otherSnapshot,
              }
            : exportBody,
        headers: { ...exportHeaders, etag: `"${names ?? ''}"` },
      });
    });
    const search = await client.tools({ format: 'anthropic', names: ['search'] });
    const fetched = await client.tools({ format: 'anthropic', names: ['fetch'] });
    expect(search.snapshot).toBe(exportBody.snapshot);
    expect(client.versionsOf([...search.tools])).toEqual({ snapshot: exportBody.snapshot });
    expect(client.versionsOf([...search.tools, ...fetched.tools])).toEqual({
      pins: { search: '2.1.0', fetch: '1.4.0' },
    });
    // Tools this client did not hand out (local ones, rebuilt objects) name no version.
    expect(client.versionsOf([{ ...anthropicTool }, 'text', null])).toEqual({});
    expect(client.versionsOf([])).toEqual({});
  });

  it('sends the snapshot and the pins with the calls', async () => {
    const completed = {
      results: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' }],
      calls: [{ id: CALL_IDS[0], status: 'succeeded', tool: 'search', version: '2.1.0' }],
    } satisfies CallsCompleted;
    const { client, server: http } = await setup((_request, response) =>
      sendJson(response, { body: completed }),
    );
    await client.execute({
      provider: 'anthropic',
      payload: { role: 'assistant', content: [] },
      snapshot: otherSnapshot,
      pins: { search: '^2' },
    });
    expect(http.requests[0]?.json).toMatchObject({
      snapshot: otherSnapshot,
      pins: { search: '^2' },
    });
  });
});

describe('Toolgate#call', () => {
  const snapshot = 'snap_9xY2bQ7mN4kLp0Rz8wVt3c';

  it('runs one tool by name at the version asked for and returns its result on a 200', async () => {
    const result: ToolResultIR = {
      call_id: 'call_x',
      name: 'get_weather',
      ok: true,
      data: { temp: 3 },
    };
    const { client, server: http } = await setup((_request, response) =>
      sendJson(response, {
        body: {
          results: [result],
          calls: [summary(CALL_A, 'get_weather', 'succeeded')],
        } satisfies IRCallsCompleted,
      }),
    );
    const called = await client.call(
      'get_weather',
      { city: 'Oslo' },
      { version: '^1.2', snapshot, callId: 'call_x', idempotencyKey: 'key-9', waitMs: 2_000 },
    );
    expect(called).toEqual({
      result,
      call: summary(CALL_A, 'get_weather', 'succeeded'),
      outcome: 'completed',
    });
    const [request] = http.requests;
    expect(request!.method).toBe('POST');
    const url = new URL(request!.url, 'http://x');
    expect(url.pathname).toBe('/v1/calls/ir');
    expect(Object.fromEntries(url.searchParams)).toEqual({ wait_ms: '2000', snapshot });
    expect(request!.json).toEqual([
      { id: 'call_x', name: 'get_weather', arguments: { city: 'Oslo' }, tool_version: '^1.2' },
    ]);
    expect(request!.headers['idempotency-key']).toBe('key-9');
  });

  it("types a call's arguments and data by the registry types the client was given", async () => {
    const result: ToolResultIR = { call_id: 'c', name: 'get_weather', ok: true, data: { temp: 3 } };
    const { server: http } = await setup((_request, response) =>
      sendJson(response, {
        body: { results: [result], calls: [summary(CALL_A, 'get_weather', 'succeeded')] },
      }),
    );
    const typed = new Toolgate({
      baseUrl: http.url,
      apiKey: 'tg_test_key',
      types: registryTypes<{
        get_weather: { arguments: { city: string }; result: { temp: number } };
      }>(['get_weather']),
    });
    expect(typed.typedToolNames).toEqual(new Set(['get_weather']));
    const called = await typed.call('get_weather', { city: 'Oslo' });
    expectTypeOf(called.result.data).toEqualTypeOf<{ temp: number } | undefined>();
    expect(called.result.data).toEqual({ temp: 3 });
    // A tool without declared types takes any object and gives unknown data.
    const other = await typed.call('get_time', { zone: 'UTC' });
    expectTypeOf(other.result.data).toEqualTypeOf<unknown>();
    // @ts-expect-error -- get_weather's arguments are declared: a city, not a town.
    await typed.call('get_weather', { town: 'Oslo' });
  });

  it('gives each call a fresh id and follows it to its end after a 202', async () => {
    const { client, server: http } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      response.end(callEventMessage('finished', finished(CALL_A, weatherResult)));
    });
    const called = await client.call('get_weather', { city: 'Paris' });
    expect(called.outcome).toBe('followed');
    expect(called.result).toEqual(weatherResult);
    expect(called.call.status).toBe('succeeded');
    const [call] = http.requests[0]!.json as Array<{ id: string }>;
    expect(call!.id).toMatch(/^call_[0-9a-f-]{36}$/);
    expect(http.requests[1]!.url).toBe(`/v1/calls/${CALL_A}/events`);
  });

  it("returns a tool's failure as a result, and throws the gateway's refusal as an API error", async () => {
    const failed: ToolResultIR = {
      call_id: 'c',
      name: 'get_weather',
      ok: false,
      error: { code: 'invalid_arguments', message: '/city is required', retryable: false },
    };
    const { client } = await setup((request, response) => {
      if (request.url.includes('snapshot=')) {
        sendProblem(response, problemOf('version_sunset', 'get_weather@1.0.0 is past its sunset.'));
        return;
      }
      sendJson(response, {
        body: { results: [failed], calls: [summary(CALL_A, 'get_weather', 'failed')] },
      });
    });
    await expect(client.call('get_weather', {})).resolves.toMatchObject({ result: failed });
    await expect(client.call('get_weather', {}, { snapshot })).rejects.toMatchObject({
      status: 410,
      problemCode: 'version_sunset',
    });
  });
});

describe('Toolgate#execute', () => {
  it('reads the results back from the wire when an older gateway sends no tool_results', async () => {
    const { client } = await setup((_request, response) =>
      sendJson(response, { body: chatCompleted }),
    );
    const result = await client.execute({ provider: 'openai-chat', payload: chatTurn });
    expect(result.toolResults).toEqual([
      expect.objectContaining({ call_id: 'call_1', name: 'get_weather', ok: true }),
    ]);
  });

  it('returns the wire and the parsed results of a 200 and sends the contract body and headers', async () => {
    const wire = getAdapter('anthropic').resultsToWire([weatherResult]);
    const completed = {
      results: wire,
      tool_results: [weatherResult],
      calls: [summary(CALL_A, 'get_weather', 'succeeded')],
    } satisfies CallsCompleted;
    const { client, server: http } = await setup((_request, response) =>
      sendJson(response, { body: completed }),
    );
    const result = await client.execute({
      provider: 'anthropic',
      payload: anthropicResponse,
      conversationId: 'conv-1',
      idempotencyKey: 'key-1',
      waitMs: 5000,
    });
    expect(result).toEqual({
      outcome: 'completed',
      results: wire,
      calls: completed.calls,
      toolResults: [weatherResult],
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
        sendJson(response, { status: 202, body: accepted(CALL_A, CALL_B) });
        return;
      }
      startEventStream(response);
      if (request.url === `/v1/calls/${CALL_A}/events`) {
        const record = { id: CALL_A, tool: 'get_weather', providerCallId: 'toolu_01A' };
        await writeInPieces(
          response,
          callEventMessage('state', callRecord({ ...record, status: 'queued' })) +
            callEventMessage('queued', { type: 'queued', ...eventBase(CALL_A, 'get_weather') }) +
            callEventMessage('started', {
              type: 'started',
              ...eventBase(CALL_A, 'get_weather', 1),
              attempt: 1,
            }) +
            callEventMessage('progress', {
              type: 'progress',
              ...eventBase(CALL_A, 'get_weather', 5),
              progress: 0.5,
              total: 1,
              message: 'halfway',
            }) +
            callEventMessage('finished', finished(CALL_A, weatherResult)),
        );
        response.end();
        return;
      }
      const record = { id: CALL_B, tool: 'get_time', providerCallId: 'toolu_01B' };
      response.write(callEventMessage('state', callRecord({ ...record, status: 'queued' })));
      response.write(
        callEventMessage('awaiting_approval', {
          type: 'awaiting_approval',
          ...eventBase(CALL_B, 'get_time', 2),
          approval_id: APPROVAL_ID,
          reason: 'The tool is destructive.',
        }),
      );
      await delay(60);
      response.write(callEventMessage('finished', finished(CALL_B, deniedResult)));
      response.end();
    });
    const events: CallEvent[] = [];
    const result = await client.execute({
      provider: 'anthropic',
      payload: anthropicResponse,
      onEvent: (event) => events.push(event),
    });
    expect(result.outcome).toBe('followed');
    expect(result.toolResults).toEqual([weatherResult, deniedResult]);
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
    // The 202's summaries, each with the status its call finished with.
    expect(result.calls.map((call) => [call.id, call.status])).toEqual([
      [CALL_A, 'succeeded'],
      [CALL_B, 'failed'],
    ]);
    expect(events.filter((event) => event.callId === CALL_A).map((event) => event.type)).toEqual([
      'state',
      'queued',
      'started',
      'progress',
      'finished',
    ]);
    const progress = events.find((event) => event.type === 'progress');
    expect(progress?.type === 'progress' && progress.data.message).toBe('halfway');
    expect(events.map((event) => `${event.callId}:${event.type}`)).toContain(
      `${CALL_B}:awaiting_approval`,
    );
    const streams = http.requests.filter((request) => request.method === 'GET');
    expect(streams.every((request) => request.headers['accept'] === 'text/event-stream')).toBe(
      true,
    );
    expect(
      streams.every((request) => request.headers['authorization'] === 'Bearer tg_test_key'),
    ).toBe(true);
  });

  it('takes the result from the state event when the call finished before its stream opened', async () => {
    const { client, server: http } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      // A final call's stream is its state alone.
      response.end(
        callEventMessage(
          'state',
          callRecord({
            id: CALL_A,
            tool: 'get_weather',
            providerCallId: 'call_1',
            status: 'succeeded',
            result: chatResult,
          }),
        ),
      );
    });
    const result = await client.execute({ provider: 'openai-chat', payload: chatTurn });
    expect(result.results).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '1' }]);
    expect(result.calls).toMatchObject([{ id: CALL_A, status: 'succeeded' }]);
    expect(http.requests).toHaveLength(2);
  });

  it("reads a cancelled call's result from its record", async () => {
    const cancelledResult: ToolResultIR = {
      call_id: 'call_1',
      name: 'get_weather',
      ok: false,
      error: { code: 'cancelled', message: 'The call was cancelled.', retryable: false },
    };
    const record = { id: CALL_A, tool: 'get_weather', providerCallId: 'call_1' };
    const { client, server: http } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      if (request.url === `/v1/calls/${CALL_A}`) {
        sendJson(response, {
          body: callRecord({ ...record, status: 'cancelled', result: cancelledResult }),
        });
        return;
      }
      startEventStream(response);
      response.write(callEventMessage('state', callRecord({ ...record, status: 'running' })));
      response.end(
        callEventMessage('cancelled', {
          type: 'cancelled',
          ...eventBase(CALL_A, 'get_weather', 3),
        }),
      );
    });
    const result = await client.execute({ provider: 'openai-chat', payload: chatTurn });
    expect(result.toolResults).toEqual([cancelledResult]);
    expect(result.calls).toMatchObject([{ id: CALL_A, status: 'cancelled' }]);
    expect(http.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/calls',
      `GET /v1/calls/${CALL_A}/events`,
      `GET /v1/calls/${CALL_A}`,
    ]);
  });

  it('reconnects an event stream that ends early', async () => {
    const record = { id: CALL_A, tool: 'get_weather', providerCallId: 'call_1' };
    const { client, server: http } = await setup((request, response, index) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      response.write(callEventMessage('state', callRecord({ ...record, status: 'running' })));
      if (index === 1) {
        // The connection drops before the call finishes.
        response.end();
        return;
      }
      response.end(callEventMessage('finished', finished(CALL_A, chatResult)));
    });
    const result = await client.execute({ provider: 'openai-chat', payload: chatTurn });
    expect(result.results).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '1' }]);
    expect(http.requests).toHaveLength(3);
  });

  it('passes an event of a name it does not know to onEvent untyped', async () => {
    const { client } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      // A newer gateway's event, then one whose data is not JSON.
      response.write('event: heartbeat\ndata: {"at":1}\n\n');
      response.write('event: note\ndata: plain text\n\n');
      response.end(callEventMessage('finished', finished(CALL_A, chatResult)));
    });
    const events: CallEvent[] = [];
    await client.execute({
      provider: 'openai-chat',
      payload: chatTurn,
      onEvent: (event) => events.push(event),
    });
    expect(events.slice(0, 2)).toEqual([
      { callId: CALL_A, type: 'unknown', event: 'heartbeat', data: { at: 1 } },
      { callId: CALL_A, type: 'unknown', event: 'note', data: 'plain text' },
    ]);
    expect(events[2]?.type).toBe('finished');
  });

  it('refuses a finished event that breaks the contract, listing every issue', async () => {
    const { client, server: http } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      // A bare ToolResultIR is not a finished event.
      response.end(`event: finished\ndata: ${JSON.stringify(chatResult)}\n\n`);
    });
    const error = await client
      .execute({ provider: 'openai-chat', payload: chatTurn })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateInvalidResponseError);
    expect((error as ToolgateInvalidResponseError).issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/type: /),
        expect.stringMatching(/^\/call_id: /),
        expect.stringMatching(/^\/result: /),
      ]),
    );
    // Not retried: another attempt would read the same event.
    expect(http.requests).toHaveLength(2);
  });

  it('retries a 503 when an Idempotency-Key makes the POST safe', async () => {
    const {
      client,
      server: http,
      sleep,
    } = await setup((_request, response, index) => {
      if (index === 0)
        sendProblem(response, problemOf('unavailable', 'The database is unreachable.'));
      else sendJson(response, { body: chatCompleted });
    });
    await expect(
      client.execute({ provider: 'openai-chat', payload: chatTurn, idempotencyKey: 'key-1' }),
    ).resolves.toMatchObject({ outcome: 'completed', results: chatCompleted.results });
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
      sendProblem(response, problemOf('unavailable', 'The database is unreachable.')),
    );
    const error = await client
      .execute({ provider: 'openai-chat', payload: chatTurn })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({ status: 503, retryable: true, problemCode: 'unavailable' });
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
        sendProblem(response, problemOf('rate_limited', 'Too many calls for this key.'), {
          'retry-after': '2',
        });
      else if (index === 1) {
        sendProblem(response, problemOf('unavailable', 'The database is unreachable.'), {
          'retry-after': new Date(Date.now() + 3000).toUTCString(),
        });
      } else sendJson(response, { body: chatCompleted });
    });
    await client.execute({ provider: 'openai-chat', payload: chatTurn, idempotencyKey: 'key-1' });
    expect(http.requests).toHaveLength(3);
    const [first, second] = sleep.mock.calls.map(([ms]) => ms);
    expect(first).toBe(2000);
    // An HTTP-date has one-second resolution.
    expect(second).toBeGreaterThan(1000);
    expect(second).toBeLessThanOrEqual(3000);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs', async () => {
    const { client, server: http } = await setup((_request, response) =>
      sendProblem(response, problemOf('rate_limited', 'Too many calls for this key.'), {
        'retry-after': '3600',
      }),
    );
    await expect(
      client.execute({ provider: 'openai-chat', payload: chatTurn, idempotencyKey: 'key-1' }),
    ).rejects.toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(http.requests).toHaveLength(1);
  });

  it('never retries a 4xx, even with an Idempotency-Key, and exposes the problem fields', async () => {
    const document = problemOf('invalid_payload', 'The payload holds no readable tool calls.', [
      { path: '/body/payload/content/0', message: 'unknown block type "tool_usage"' },
    ]);
    const { client, server: http } = await setup((_request, response) =>
      sendProblem(response, document),
    );
    const error = await client
      .execute({ provider: 'anthropic', payload: {}, idempotencyKey: 'key-1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolgateApiError);
    expect(error).toMatchObject({
      status: document.status,
      title: document.title,
      detail: 'The payload holds no readable tool calls.',
      problemCode: 'invalid_payload',
      errors: document.errors,
      retryable: false,
    });
    expect(http.requests).toHaveLength(1);
  });

  it('gives up following after followTimeoutMs, naming the calls that go on', async () => {
    const { client } = await setup((request, response) => {
      if (request.method === 'POST') {
        sendJson(response, { status: 202, body: accepted(CALL_A) });
        return;
      }
      startEventStream(response);
      const record = { id: CALL_A, tool: 'get_weather', providerCallId: 'call_1' };
      response.write(
        callEventMessage('state', callRecord({ ...record, status: 'awaiting_approval' })),
      );
      response.write(
        callEventMessage('awaiting_approval', {
          type: 'awaiting_approval',
          ...eventBase(CALL_A, 'get_weather', 2),
          approval_id: APPROVAL_ID,
          reason: 'The policy requires an approval.',
        }),
      );
    });
    await expect(
      client.execute({ provider: 'openai-chat', payload: chatTurn, followTimeoutMs: 100 }),
    ).rejects.toMatchObject({ code: 'timeout', timeoutMs: 100, callIds: [CALL_A] });
  });

  it("stops on the caller's abort signal without retrying", async () => {
    const controller = new AbortController();
    const { client, server: http } = await setup(async (_request, response) => {
      controller.abort();
      await delay(50);
      sendJson(response, { body: chatCompleted });
    });
    const error = await client
      .execute({
        provider: 'openai-chat',
        payload: chatTurn,
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
