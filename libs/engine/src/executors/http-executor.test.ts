import { Writable } from 'node:stream';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { readBody, startTestServer } from '../__fixtures__/http-test-server';
import type { TestServer } from '../__fixtures__/http-test-server';
import { executeCall } from '../pipeline/execute-call';
import { ExecutorConfigSchema, type HttpExecutorConfig } from '@toolgate/contract';
import { createHttpExecutor } from './http-executor';
import { secretReferencesOf, staticSecretResolver } from './secret-resolver';

const SECRET = 'sk-live-very-secret-value-123';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server;
}

function httpTool(input: {
  name?: string;
  config: Omit<HttpExecutorConfig, 'headers' | 'max_response_bytes'> & Partial<HttpExecutorConfig>;
  idempotent?: boolean;
  timeout_ms?: number;
  max_retries?: number;
}) {
  return ToolBuilder.from({ name: input.name ?? 'http_tool' })
    .behavior({ idempotent: input.idempotent ?? true })
    .constraints({ timeout_ms: input.timeout_ms ?? 2000, max_retries: input.max_retries ?? 0 })
    .executor(input.config)
    .build();
}

function harnessFor(tool: ReturnType<typeof httpTool>) {
  return createHarness({
    tools: [tool],
    executors: { http: createHttpExecutor({ secrets: staticSecretResolver({ API_KEY: SECRET }) }) },
  });
}

describe('http executor', () => {
  it('fills URL placeholders (encoded), sends the rest as query or JSON body, and resolves secret headers', async () => {
    const seen: {
      method: string | undefined;
      url: string | undefined;
      auth: string | undefined;
      body: string;
    }[] = [];
    const server = await serve((request, response) => {
      void readBody(request).then((body) => {
        seen.push({
          method: request.method,
          url: request.url,
          auth: request.headers.authorization,
          body,
        });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ ok: true }));
      });
    });
    const getTool = httpTool({
      name: 'get_order',
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/orders/{order_id}`,
        headers: { authorization: { secret: 'API_KEY', prefix: 'Bearer ' } },
      },
    });
    const postTool = httpTool({
      name: 'create_note',
      config: { kind: 'http', method: 'POST', url: `${server.url}/users/{user}/notes` },
    });
    const { context } = createHarness({
      tools: [getTool, postTool],
      executors: {
        http: createHttpExecutor({ secrets: staticSecretResolver({ API_KEY: SECRET }) }),
      },
    });
    const got = await executeCall(
      callOf('get_order', { order_id: 'a/b c', expand: 'items' }),
      context,
    );
    expect(got.result).toMatchObject({ ok: true, data: { ok: true } });
    const posted = await executeCall(callOf('create_note', { user: 'u1', text: 'hi' }), context);
    expect(posted.result.ok).toBe(true);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/orders/a%2Fb%20c?expand=items',
      auth: `Bearer ${SECRET}`,
      body: '',
    });
    expect(seen[1]).toMatchObject({
      method: 'POST',
      url: '/users/u1/notes',
      body: '{"text":"hi"}',
    });
  });

  it("resolves secrets with the call's own resolver (its team's) before the executor's", async () => {
    const seen: Array<string | undefined> = [];
    const server = await serve((request, response) => {
      seen.push(request.headers['x-api-key'] as string | undefined);
      response.setHeader('content-type', 'application/json');
      response.end('{}');
    });
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/x`,
        headers: { 'X-Api-Key': { secret: 'API_KEY' } },
      },
    });
    const { context } = harnessFor(tool);
    const teamContext = { ...context, secrets: staticSecretResolver({ API_KEY: 'team-value' }) };
    expect((await executeCall(callOf('http_tool', {}), teamContext)).result.ok).toBe(true);
    const other = { ...context, secrets: staticSecretResolver({}) };
    const refused = await executeCall(callOf('http_tool', {}), other);
    expect(refused.result).toMatchObject({ ok: false, error: { code: 'secret_unavailable' } });
    expect(seen).toEqual(['team-value']);
    const config = ExecutorConfigSchema.parse(
      (tool.protocol_meta?.['toolgate'] as { executor: unknown }).executor,
    );
    expect(secretReferencesOf(config)).toEqual([
      { name: 'API_KEY', pointer: '/headers/X-Api-Key/secret' },
    ]);
  });

  it('sends fixed query parameters, a secret among them, after the arguments, and redacts an echo', async () => {
    const urls: string[] = [];
    const server = await serve((request, response) => {
      urls.push(request.url ?? '');
      response.statusCode = request.url?.startsWith('/fail') ? 502 : 200;
      response.setHeader('content-type', 'application/json');
      // A careless upstream echoing the request line back.
      response.end(JSON.stringify({ echoed: request.url }));
    });
    const tool = (path: string) =>
      httpTool({
        config: {
          kind: 'http',
          method: 'GET',
          url: `${server.url}${path}`,
          query_params: { api_key: { secret: 'API_KEY' }, v: '2 beta' },
        },
      });
    const ok = await executeCall(
      callOf('http_tool', { q: 'oslo' }),
      harnessFor(tool('/search')).context,
    );
    expect(urls[0]).toBe(`/search?q=oslo&api_key=${encodeURIComponent(SECRET)}&v=2%20beta`);
    expect(ok.result).toMatchObject({
      ok: true,
      data: { echoed: expect.stringContaining('[redacted]') },
    });
    expect(JSON.stringify(ok.result)).not.toContain(encodeURIComponent(SECRET));
    const failed = await executeCall(callOf('http_tool'), harnessFor(tool('/fail')).context);
    expect(failed.result.ok).toBe(false);
    expect(JSON.stringify(failed.result)).not.toContain(SECRET);
    const config = ExecutorConfigSchema.parse(
      (tool('/x').protocol_meta?.['toolgate'] as { executor: unknown }).executor,
    );
    expect(secretReferencesOf(config)).toEqual([
      { name: 'API_KEY', pointer: '/query_params/api_key/secret' },
    ]);
  });

  it('keeps secrets out of every span, on success and on failure', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const server = await serve((request, response) => {
      // An upstream that echoes the credential back, in its error and in its answer.
      response.statusCode = request.url?.startsWith('/fail') ? 401 : 200;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ echoed: request.headers.authorization }));
    });
    for (const path of ['/ok', '/fail']) {
      const tool = httpTool({
        config: {
          kind: 'http',
          method: 'GET',
          url: `${server.url}${path}`,
          headers: { authorization: { secret: 'API_KEY', prefix: 'Bearer ' } },
        },
      });
      const { context } = harnessFor(tool);
      context.tracer = provider.getTracer('test');
      await executeCall(callOf('http_tool'), context);
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThanOrEqual(4);
    const exported = JSON.stringify(
      spans.map((span) => ({
        name: span.name,
        attributes: span.attributes,
        events: span.events,
        status: span.status,
      })),
    );
    expect(exported).toContain('http_tool');
    expect(exported).not.toContain(SECRET);
    await provider.shutdown();
  });

  it('keeps secrets out of logs and errors', async () => {
    const server = await serve((request, response) => {
      response.statusCode = 400;
      response.setHeader('content-type', 'application/json');
      // A careless upstream echoing the credentials back.
      response.end(JSON.stringify({ error: `bad key ${request.headers.authorization ?? ''}` }));
    });
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/x`,
        headers: { authorization: { secret: 'API_KEY' } },
      },
    });
    const { context } = harnessFor(tool);
    const lines: string[] = [];
    context.logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          lines.push(chunk.toString());
          callback();
        },
      }),
    );
    const outcome = await executeCall(callOf('http_tool'), context);
    expect(outcome.result.error?.code).toBe('tool_error');
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
    expect(JSON.stringify(outcome)).toContain('[redacted]');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(SECRET);
  });

  it('fails without calling when a referenced secret is missing, naming only the secret', async () => {
    let hits = 0;
    const server = await serve((_request, response) => {
      hits += 1;
      response.end();
    });
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: server.url,
        headers: { 'x-key': { secret: 'MISSING' } },
      },
    });
    const outcome = await executeCall(callOf('http_tool'), harnessFor(tool).context);
    expect(hits).toBe(0);
    // The name (never a value) and who can fix it; not retried, since only storing it helps.
    expect(outcome.result.error).toMatchObject({ code: 'secret_unavailable', retryable: false });
    expect(outcome.result.error?.message).toContain('"MISSING"');
  });

  it('aborts the connection when the timeout fires', async () => {
    let requestAt = 0;
    let closeAt = 0;
    let markClosed: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    const server = await serve((request) => {
      requestAt = Date.now();
      // Never answer: the server only watches the client hang up.
      request.on('close', () => {
        closeAt = Date.now();
        markClosed();
      });
    });
    const tool = httpTool({
      config: { kind: 'http', method: 'GET', url: `${server.url}/slow` },
      timeout_ms: 150,
    });
    const [outcome] = await Promise.all([
      executeCall(callOf('http_tool'), harnessFor(tool).context),
      closed,
    ]);
    expect(outcome.result.error?.code).toBe('timeout');
    expect(closeAt - requestAt).toBeGreaterThanOrEqual(100);
    expect(closeAt - requestAt).toBeLessThan(2000);
  });

  it('stops reading past the response size cap', async () => {
    let serverSawClose = false;
    let written = 0;
    const server = await serve((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.on('close', () => {
        serverSawClose = true;
      });
      const chunk = 'x'.repeat(16 * 1024);
      const pump = (): void => {
        // Up to 50 MB unless the client hangs up first.
        while (!response.destroyed && written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        if (!response.destroyed) response.end();
      };
      pump();
    });
    const tool = httpTool({
      config: { kind: 'http', method: 'GET', url: server.url, max_response_bytes: 64 * 1024 },
    });
    const outcome = await executeCall(callOf('http_tool'), harnessFor(tool).context);
    expect(outcome.result.error).toMatchObject({
      code: 'tool_error',
      message: 'the response is larger than the 65536-byte limit',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(serverSawClose).toBe(true);
    expect(written).toBeLessThan(50 * 1024 * 1024);
  });

  it('rejects a declared Content-Length over the cap without reading', async () => {
    const server = await serve((_request, response) => {
      response.setHeader('content-length', String(10_000));
      response.end('y'.repeat(10_000));
    });
    const tool = httpTool({
      config: { kind: 'http', method: 'GET', url: server.url, max_response_bytes: 1000 },
    });
    const outcome = await executeCall(callOf('http_tool'), harnessFor(tool).context);
    expect(outcome.result.error?.message).toContain('1000-byte limit');
  });

  it('honors Retry-After in seconds and as an HTTP date', async () => {
    let hits = 0;
    let retryAfter = '';
    const server = await serve((_request, response) => {
      hits += 1;
      if (hits % 2 === 1) {
        response.statusCode = 503;
        response.setHeader('retry-after', retryAfter);
        response.end('busy');
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end('{"done":true}');
    });
    const tool = httpTool({
      config: { kind: 'http', method: 'GET', url: server.url },
      max_retries: 1,
    });
    const harness = harnessFor(tool);
    retryAfter = '3';
    expect((await executeCall(callOf('http_tool'), harness.context)).result).toMatchObject({
      ok: true,
      data: { done: true },
    });
    retryAfter = new Date(harness.clock.time + 5000).toUTCString();
    expect((await executeCall(callOf('http_tool'), harness.context)).result.ok).toBe(true);
    expect(harness.clock.sleeps).toEqual([3000, 5000]);
  });

  it('does not retry a non-idempotent POST on 503', async () => {
    let hits = 0;
    const server = await serve((_request, response) => {
      hits += 1;
      response.statusCode = 503;
      response.end();
    });
    const tool = httpTool({
      config: { kind: 'http', method: 'POST', url: server.url },
      idempotent: false,
      max_retries: 3,
    });
    const outcome = await executeCall(callOf('http_tool'), harnessFor(tool).context);
    expect(hits).toBe(1);
    expect(outcome.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
  });

  it('classifies a refused connection as a transient upstream error', async () => {
    const server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    servers = [];
    const tool = httpTool({ config: { kind: 'http', method: 'GET', url }, max_retries: 1 });
    const harness = harnessFor(tool);
    const outcome = await executeCall(callOf('http_tool'), harness.context);
    expect(outcome.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(outcome.execution.attempts).toBe(2);
  });

  it('fails with invalid_arguments when a URL placeholder has no argument', async () => {
    const tool = httpTool({
      config: { kind: 'http', method: 'GET', url: 'http://127.0.0.1:9/{id}' },
    });
    const outcome = await executeCall(callOf('http_tool'), harnessFor(tool).context);
    expect(outcome.result.error).toMatchObject({ code: 'invalid_arguments' });
    expect(outcome.result.error?.message).toContain('"id"');
  });
});

describe('http executor parameters mapping', () => {
  interface Seen {
    method: string | undefined;
    url: string | undefined;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }

  async function recordingServer(): Promise<{ server: TestServer; seen: Seen[] }> {
    const seen: Seen[] = [];
    const server = await serve((request, response) => {
      void readBody(request).then((body) => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.setHeader('content-type', 'application/json');
        response.end('{"ok":true}');
      });
    });
    return { server, seen };
  }

  it('serializes query arguments per OpenAPI style and explode, after the unmapped ones', async () => {
    const { server, seen } = await recordingServer();
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/search?v=2`,
        parameters: {
          tags: { in: 'query' },
          ids: { in: 'query', explode: false },
          words: { in: 'query', style: 'spaceDelimited' },
          pipes: { in: 'query', style: 'pipeDelimited', explode: false },
          filter: { in: 'query', style: 'deepObject', explode: true },
          point: { in: 'query' },
          color: { in: 'query', explode: false },
          page_size: { in: 'query', name: 'page size' },
          path: { in: 'query', allow_reserved: true },
          skipped: { in: 'query' },
          empty: { in: 'query' },
        },
      },
    });
    const outcome = await executeCall(
      callOf('http_tool', {
        legacy: 'a b',
        tags: ['red', 'a&b'],
        ids: [3, 4, 5],
        words: ['x y', 'z'],
        pipes: ['p', 'q'],
        filter: { status: 'open', owner: { id: 7 } },
        point: { x: 1, y: 2 },
        color: { R: 100, G: 200 },
        page_size: 20,
        path: '/a/b?c=d',
        empty: [],
      }),
      harnessFor(tool).context,
    );
    expect(outcome.result.ok, JSON.stringify(outcome.result)).toBe(true);
    expect(seen[0]?.url).toBe(
      [
        '/search?v=2',
        'legacy=a+b',
        'tags=red',
        'tags=a%26b',
        'ids=3,4,5',
        'words=x%20y%20z',
        'pipes=p%7Cq',
        'filter%5Bstatus%5D=open',
        'filter%5Bowner%5D%5Bid%5D=7',
        'x=1',
        'y=2',
        'color=R,100,G,200',
        'page%20size=20',
        'path=/a/b?c=d',
      ].join('&'),
    );
  });

  it('sends header and cookie arguments, renames wire names and keeps the configured headers', async () => {
    const { server, seen } = await recordingServer();
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/pets/{pet-id}`,
        headers: { authorization: { secret: 'API_KEY', prefix: 'Bearer ' }, cookie: 'fixed=1' },
        parameters: {
          pet_id: { in: 'path', name: 'pet-id' },
          request_id: { in: 'header', name: 'X-Request-Id' },
          flags: { in: 'header', name: 'X-Flags' },
          session: { in: 'cookie' },
          prefs: { in: 'cookie', explode: false },
          absent: { in: 'header', name: 'X-Absent' },
        },
        query: 'none',
      },
    });
    const outcome = await executeCall(
      callOf('http_tool', {
        pet_id: 'a/b',
        request_id: 'r-1',
        flags: ['a', 'b'],
        session: 's; x=1',
        prefs: ['dark', 'wide'],
        unused: 'not sent',
      }),
      harnessFor(tool).context,
    );
    expect(outcome.result.ok, JSON.stringify(outcome.result)).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/pets/a%2Fb', body: '' });
    expect(seen[0]?.headers).toMatchObject({
      authorization: `Bearer ${SECRET}`,
      'x-request-id': 'r-1',
      'x-flags': 'a,b',
      cookie: 'fixed=1; session=s%3B%20x%3D1; prefs=dark,wide',
    });
    expect(seen[0]?.headers).not.toHaveProperty('x-absent');
  });

  it.each([
    ['a line feed', 'v\r\nX-Injected: 1'],
    ['a NUL', 'v\u0000'],
    ['a character outside Latin-1', 'snowman \u2603'],
  ])(
    'refuses a header argument with %s, without calling, as a non-retryable invalid_arguments',
    async (_name, value) => {
      let hits = 0;
      const server = await serve((_request, response) => {
        hits += 1;
        response.end();
      });
      const tool = httpTool({
        config: {
          kind: 'http',
          method: 'GET',
          url: server.url,
          parameters: { trace: { in: 'header', name: 'X-Trace' } },
        },
        max_retries: 2,
      });
      const outcome = await executeCall(
        callOf('http_tool', { trace: value }),
        harnessFor(tool).context,
      );
      expect(hits).toBe(0);
      expect(outcome.result.error).toMatchObject({ code: 'invalid_arguments', retryable: false });
      expect(outcome.result.error?.message).toContain('X-Trace');
      expect(outcome.execution.attempts).toBe(1);
    },
  );

  it('sends one argument as the whole body, beside a path argument of the same name inside it', async () => {
    const { server, seen } = await recordingServer();
    const putUser = httpTool({
      name: 'put_user',
      config: {
        kind: 'http',
        method: 'PUT',
        url: `${server.url}/users/{username}`,
        parameters: { username: { in: 'path' }, dry_run: { in: 'query', name: 'dryRun' } },
        body: { argument: 'body' },
        query: 'none',
      },
    });
    const postList = httpTool({
      name: 'post_list',
      config: {
        kind: 'http',
        method: 'POST',
        url: `${server.url}/users/list`,
        body: { argument: 'body' },
      },
    });
    const { context } = createHarness({
      tools: [putUser, postList],
      executors: { http: createHttpExecutor() },
    });
    const put = await executeCall(
      callOf('put_user', { username: 'old name', dry_run: true, body: { username: 'new' } }),
      context,
    );
    expect(put.result.ok, JSON.stringify(put.result)).toBe(true);
    const list = await executeCall(callOf('post_list', { body: [{ id: 1 }, { id: 2 }] }), context);
    expect(list.result.ok).toBe(true);
    const none = await executeCall(callOf('post_list', {}), context);
    expect(none.result.ok).toBe(true);
    expect(
      seen.map(({ method, url, body, headers }) => [method, url, body, headers['content-type']]),
    ).toEqual([
      ['PUT', '/users/old%20name?dryRun=true', '{"username":"new"}', 'application/json'],
      ['POST', '/users/list', '[{"id":1},{"id":2}]', 'application/json'],
      ['POST', '/users/list', '', undefined],
    ]);
  });

  it('sends a form-urlencoded body: repeated names for arrays, brackets for objects, no nulls', async () => {
    const { server, seen } = await recordingServer();
    const charge = httpTool({
      name: 'create_charge',
      config: {
        kind: 'http',
        method: 'POST',
        url: `${server.url}/v1/charges/{account}`,
        body_encoding: 'form',
      },
    });
    const wholeBody = httpTool({
      name: 'form_body',
      config: {
        kind: 'http',
        method: 'POST',
        url: `${server.url}/v1/forms`,
        body: { argument: 'body' },
        body_encoding: 'form',
      },
    });
    const { context } = createHarness({
      tools: [charge, wholeBody],
      executors: { http: createHttpExecutor() },
    });
    const sent = await executeCall(
      callOf('create_charge', {
        account: 'acct 1',
        amount: 2000,
        description: 'Tea & cake = 20 €',
        expand: ['customer', 'invoice'],
        metadata: { order: 'A-17', gift: true },
        coupon: null,
      }),
      context,
    );
    expect(sent.result.ok, JSON.stringify(sent.result)).toBe(true);
    const refused = await executeCall(callOf('form_body', { body: [1, 2] }), context);
    expect(refused.result).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/v1/charges/acct%201');
    expect(seen[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect([...new URLSearchParams(seen[0]?.body ?? '')]).toEqual([
      ['amount', '2000'],
      ['description', 'Tea & cake = 20 €'],
      ['expand', 'customer'],
      ['expand', 'invoice'],
      ['metadata[order]', 'A-17'],
      ['metadata[gift]', 'true'],
    ]);
  });

  it('sends a multipart body: text parts, repeated parts for arrays, files from base64', async () => {
    const { server, seen } = await recordingServer();
    const upload = httpTool({
      name: 'upload_document',
      config: {
        kind: 'http',
        method: 'POST',
        url: `${server.url}/documents`,
        body_encoding: 'multipart',
        files: ['file', 'attachments'],
      },
    });
    const { context } = createHarness({
      tools: [upload],
      executors: { http: createHttpExecutor() },
    });
    const pdf = Buffer.from('%PDF-1.7 tiny').toString('base64');
    const sent = await executeCall(
      callOf('upload_document', {
        title: 'Q3 report',
        tags: ['finance', 'q3'],
        meta: { pages: 1 },
        file: { base64: pdf, filename: 'report.pdf', content_type: 'application/pdf' },
        attachments: [{ base64: Buffer.from('a,b').toString('base64'), filename: 'data.csv' }],
        note: null,
      }),
      context,
    );
    expect(sent.result.ok, JSON.stringify(sent.result)).toBe(true);
    const refused = await executeCall(
      callOf('upload_document', { file: 'not a file object' }),
      context,
    );
    expect(refused.result).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    expect(seen).toHaveLength(1);
    const contentType = String(seen[0]?.headers['content-type']);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    // Read back the way a server framework would.
    const form = await new Response(seen[0]?.body, {
      headers: { 'content-type': contentType },
    }).formData();
    expect(form.get('title')).toBe('Q3 report');
    expect(form.getAll('tags')).toEqual(['finance', 'q3']);
    expect(form.get('meta')).toBe('{"pages":1}');
    expect(form.has('note')).toBe(false);
    const file = form.get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual([
      'report.pdf',
      'application/pdf',
      '%PDF-1.7 tiny',
    ]);
    const [attachment] = form.getAll('attachments') as File[];
    expect([attachment?.name, await attachment?.text()]).toEqual(['data.csv', 'a,b']);
  });

  it('fetches a file given by URL for a multipart part, and refuses one that answers no file or too much', async () => {
    const { server, seen } = await recordingServer();
    const files = await serve((request, response) => {
      if (request.url === '/files/scan.png') {
        response.setHeader('content-type', 'image/png');
        response.end('PNG bytes');
      } else if (request.url === '/files/huge.bin') {
        response.end('x'.repeat(4096));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    const upload = httpTool({
      name: 'upload_scan',
      config: {
        kind: 'http',
        method: 'POST',
        url: `${server.url}/scans`,
        body_encoding: 'multipart',
        files: ['scan'],
        max_response_bytes: 1024,
      },
    });
    const { context } = createHarness({
      tools: [upload],
      executors: { http: createHttpExecutor() },
    });
    const sent = await executeCall(
      callOf('upload_scan', { scan: { url: `${files.url}/files/scan.png` } }),
      context,
    );
    expect(sent.result.ok, JSON.stringify(sent.result)).toBe(true);
    const form = await new Response(seen[0]?.body, {
      headers: { 'content-type': String(seen[0]?.headers['content-type']) },
    }).formData();
    const scan = form.get('scan') as File;
    expect([scan.name, scan.type, await scan.text()]).toEqual([
      'scan.png',
      'image/png',
      'PNG bytes',
    ]);
    for (const [argument, message] of [
      [{ url: `${files.url}/files/gone.png?sig=secret` }, /HTTP 404/],
      [{ url: `${files.url}/files/huge.bin` }, /larger than the 1024-byte limit/],
      [{ url: 'file:///etc/passwd' }, /must be an http\(s\) URL/],
      [{ url: `${files.url}/x`, base64: 'AAAA' }, /either base64 or url/],
    ] as const) {
      const refused = await executeCall(callOf('upload_scan', { scan: argument }), context);
      expect(refused.result).toMatchObject({
        ok: false,
        error: { code: 'invalid_arguments', message: expect.stringMatching(message) },
      });
      expect(JSON.stringify(refused.result)).not.toContain('sig=secret');
    }
    expect(seen).toHaveLength(1);
  });

  it('fills path arguments in label and matrix style, exploded or not', async () => {
    const { server, seen } = await recordingServer();
    const tool = (name: string, style: 'label' | 'matrix', explode: boolean) =>
      httpTool({
        name,
        config: {
          kind: 'http',
          method: 'GET',
          url: `${server.url}/colors/{color}`,
          parameters: { color: { in: 'path', style, explode } },
          query: 'none',
        },
      });
    const { context } = createHarness({
      tools: [
        tool('label', 'label', false),
        tool('label_x', 'label', true),
        tool('matrix', 'matrix', false),
        tool('matrix_x', 'matrix', true),
      ],
      executors: { http: createHttpExecutor() },
    });
    const values = ['blue', ['blue', 'dark red'], { R: 100, G: 200 }];
    for (const name of ['label', 'label_x', 'matrix', 'matrix_x'])
      for (const color of values) {
        const outcome = await executeCall(callOf(name, { color }), context);
        expect(outcome.result.ok, JSON.stringify(outcome.result)).toBe(true);
      }
    // RFC 6570's examples (OpenAPI 3.1, "Style Examples"), with a space to show the encoding.
    expect(seen.map(({ url }) => url)).toEqual([
      '/colors/.blue',
      '/colors/.blue,dark%20red',
      '/colors/.R,100,G,200',
      '/colors/.blue',
      '/colors/.blue.dark%20red',
      '/colors/.R=100.G=200',
      '/colors/;color=blue',
      '/colors/;color=blue,dark%20red',
      '/colors/;color=R,100,G,200',
      '/colors/;color=blue',
      '/colors/;color=blue;color=dark%20red',
      '/colors/;R=100;G=200',
    ]);
  });

  it('fills array and object path arguments in simple style and refuses a missing one', async () => {
    const { server, seen } = await recordingServer();
    const tool = httpTool({
      config: {
        kind: 'http',
        method: 'GET',
        url: `${server.url}/m/{ids}/{point}`,
        parameters: { ids: { in: 'path' }, point: { in: 'path', explode: true } },
      },
    });
    const { context } = harnessFor(tool);
    const ok = await executeCall(
      callOf('http_tool', { ids: ['a b', 'c'], point: { x: 1, y: 2 } }),
      context,
    );
    expect(ok.result.ok).toBe(true);
    expect(seen[0]?.url).toBe('/m/a%20b,c/x=1,y=2');
    const missing = await executeCall(callOf('http_tool', { ids: ['a'] }), context);
    expect(missing.result.error).toMatchObject({ code: 'invalid_arguments' });
    expect(missing.result.error?.message).toContain('"point"');
    expect(seen).toHaveLength(1);
  });

  it('rejects mappings the request cannot honor when the config is read', () => {
    const base = { kind: 'http', method: 'GET', url: 'https://api.example.com/a/{id}' } as const;
    const messages = (config: Record<string, unknown>) => {
      const parsed = ExecutorConfigSchema.safeParse({ ...base, ...config });
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    };
    expect(messages({ parameters: { id: { in: 'path' } }, body: { argument: 'body' } })).toEqual(
      [],
    );
    expect(messages({ parameters: { other: { in: 'path' } } })).toEqual([
      'the URL has no {other} placeholder',
    ]);
    expect(messages({ parameters: { q: { in: 'query', style: 'simple' } } })).toEqual([
      'style simple is not defined for query parameters',
    ]);
    expect(
      messages({ parameters: { q: { in: 'query', style: 'deepObject', explode: false } } }),
    ).toEqual(['deepObject is defined for explode: true only']);
    expect(messages({ parameters: { h: { in: 'header', allow_reserved: true } } })).toEqual([
      'allow_reserved applies to query parameters only',
    ]);
    expect(
      messages({
        headers: { Authorization: { secret: 'KEY' } },
        parameters: {
          auth: { in: 'header', name: 'authorization' },
          c: { in: 'header', name: 'Content-Type' },
        },
      }),
    ).toEqual([
      'the header authorization is set by the executor or by `headers`',
      'the header Content-Type is set by the executor or by `headers`',
    ]);
    expect(messages({ parameters: { h: { in: 'header', name: 'bad name' } } })).toEqual([
      '"bad name" is not a header name',
    ]);
    expect(messages({ parameters: { body: { in: 'query' } }, body: { argument: 'body' } })).toEqual(
      ['"body" is also listed in parameters'],
    );
  });
});
