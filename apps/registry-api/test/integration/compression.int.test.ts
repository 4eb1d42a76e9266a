import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicContent, createBuiltinTool } from '../factories/gateway.factory';
import {
  createTeam,
  createTool,
  publish,
  uniqueName,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { ADMIN_KEY, startTestApp, type TestApp } from '../support/test-app';

/** Enough tools for an export well past the synchronous coding bound, so the stream path runs. */
const TOOL_COUNT = 60;

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let tag: string;
let gated: TestTool;
/** Opened by the test: the `gated` tool reports progress after the first, returns after the second. */
let gates = { progress: Promise.resolve(), finish: Promise.resolve() };

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin(
    'gated',
    async (_args, { reportProgress }) => {
      await gates.progress;
      reportProgress({ progress: 1, total: 2, message: 'half way' });
      await gates.finish;
      return { done: true };
    },
  );
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  tag = uniqueName('zip');
  gated = await createBuiltinTool(api, team, { handler: 'gated' });
  const properties = Object.fromEntries(
    ['city', 'country', 'units', 'days', 'language'].map((name) => [
      name,
      { type: 'string', description: `The ${name} the forecast is for, as the user said it.` },
    ]),
  );
  for (let start = 0; start < TOOL_COUNT; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, TOOL_COUNT - start) }, async () => {
        const tool = await createTool(api, team, { tags: [tag] });
        const ir = tool.ir.with({
          tags: [tag],
          description: `Looks up the weather forecast for ${tool.name}: temperature, wind and rain per day.`,
          parameters: { type: 'object', properties, required: ['city'] },
        });
        await publish(api, team, { ...tool, ir }, '1.0.0', ir);
      }),
    );
  }
});
afterAll(async () => {
  await api?.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The bytes on the wire, before any decoding. */
  raw: Buffer;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const response = await api.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${team.key}`, ...headers },
  });
  return { status: response.statusCode, headers: response.headers, raw: response.rawPayload };
}

function varyOf(response: RawResponse): string[] {
  return String(response.headers['vary'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
}

const DECODERS: Record<string, (raw: Buffer) => Buffer> = {
  gzip: gunzipSync,
  br: brotliDecompressSync,
};

describe('compression', () => {
  const exportUrl = () => `/v1/exports?format=openai-chat&tags=${tag}`;

  it.each([
    { acceptEncoding: 'gzip', coding: 'gzip' },
    { acceptEncoding: 'br', coding: 'br' },
    { acceptEncoding: 'gzip, deflate, br', coding: 'br' },
    { acceptEncoding: 'br;q=0.5, gzip', coding: 'gzip' },
    { acceptEncoding: 'x-gzip', coding: 'gzip' },
  ])(
    'codes a large export as $coding for Accept-Encoding: $acceptEncoding',
    async ({ acceptEncoding, coding }) => {
      const plain = await get(exportUrl());
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(plain.raw.toString('utf8')).tools).toHaveLength(TOOL_COUNT);
      const coded = await get(exportUrl(), { 'accept-encoding': acceptEncoding });
      expect(coded.status).toBe(200);
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(coded.headers['content-type']).toBe(plain.headers['content-type']);
      expect(DECODERS[coding]!(coded.raw).equals(plain.raw)).toBe(true);
      expect(coded.raw.length).toBeLessThan(plain.raw.length / 5);
      expect(varyOf(coded)).toEqual(['authorization', 'x-toolgate-subject', 'accept-encoding']);
      expect(varyOf(plain)).toContain('accept-encoding');
    },
  );

  it('gives a coded export a weak ETag that revalidates, and the identity one its strong ETag', async () => {
    const plain = await get(exportUrl());
    const strong = plain.headers['etag'] as string;
    expect(strong).toMatch(/^"[^"]+"$/);
    const coded = await get(exportUrl(), { 'accept-encoding': 'gzip' });
    expect(coded.headers['etag']).toBe(`W/${strong}`);

    const revalidated = await get(exportUrl(), {
      'accept-encoding': 'gzip',
      'if-none-match': `W/${strong}`,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.raw.length).toBe(0);
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    expect(revalidated.headers['etag']).toBe(`W/${strong}`);
    expect(varyOf(revalidated)).toContain('accept-encoding');

    const plainRevalidated = await get(exportUrl(), { 'if-none-match': strong });
    expect(plainRevalidated.status).toBe(304);
    expect(plainRevalidated.headers['etag']).toBe(strong);
    // Weak comparison (RFC 9110 §13.1.2): the strong form held matches a coded answer as well.
    const crossed = await get(exportUrl(), { 'accept-encoding': 'br', 'if-none-match': strong });
    expect(crossed.status).toBe(304);
  });

  it('leaves small answers and codings it does not offer as they are', async () => {
    const small = await get(`/v1/tools/${gated.id}`, { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.raw.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.raw.toString('utf8'))).toMatchObject({ id: gated.id });

    const empty = await get(`/v1/exports?format=anthropic&tags=${uniqueName('none')}`, {
      'accept-encoding': 'gzip',
    });
    expect(empty.status).toBe(200);
    expect(empty.headers['content-encoding']).toBeUndefined();
    expect(empty.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(varyOf(empty)).toContain('accept-encoding');

    for (const acceptEncoding of ['identity', 'deflate', 'zstd', 'gzip;q=0, br;q=0']) {
      const response = await get(exportUrl(), { 'accept-encoding': acceptEncoding });
      expect(response.status, acceptEncoding).toBe(200);
      expect(response.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(JSON.parse(response.raw.toString('utf8')).tools).toHaveLength(TOOL_COUNT);
    }
  });

  it('codes a large problem+json answer and leaves a small one as it is', async () => {
    const small = await get('/v1/tools/00000000-0000-4000-8000-000000000000', {
      'accept-encoding': 'gzip',
    });
    expect(small.status).toBe(404);
    expect(small.headers['content-type']).toContain('application/problem+json');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.raw.toString('utf8'))).toMatchObject({ code: 'not_found' });

    // Forty unknown query parameters: one issue each, well past the threshold.
    const query = Array.from({ length: 40 }, (_, index) => `unknown_parameter_${index}=1`);
    const large = await get(`/v1/audit?${query.join('&')}`, {
      authorization: `Bearer ${ADMIN_KEY}`,
      'accept-encoding': 'gzip',
    });
    expect(large.status).toBe(400);
    expect(large.headers['content-type']).toContain('application/problem+json');
    expect(large.headers['content-encoding']).toBe('gzip');
    const problem = JSON.parse(gunzipSync(large.raw).toString('utf8'));
    expect(problem).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(gunzipSync(large.raw).length).toBeGreaterThan(1024);
  });
});

/** A GET held open on a real socket and read as bytes arrive, undecoded. */
interface OpenStream {
  headers: IncomingHttpHeaders;
  /** What arrived so far. */
  text(): string;
  /** Resolves once `marker` has arrived; fails after two seconds. */
  until(marker: string): Promise<void>;
  ended(): boolean;
  close(): void;
}

function openStream(path: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, baseUrl), { headers }, (response) => {
      let received = '';
      let ended = false;
      const waiters: Array<() => void> = [];
      response.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        for (const wake of waiters.splice(0)) wake();
      });
      response.on('end', () => {
        ended = true;
      });
      resolve({
        headers: response.headers,
        text: () => received,
        ended: () => ended,
        close: () => outgoing.destroy(),
        until: async (marker) => {
          const deadline = Date.now() + 2_000;
          while (!received.includes(marker)) {
            if (Date.now() > deadline)
              throw new Error(`"${marker}" did not arrive; received: ${received}`);
            await new Promise<void>((wake) => {
              waiters.push(wake);
              setTimeout(wake, 50);
            });
          }
        },
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function opening(): { promise: Promise<void>; open: () => void } {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('event streams', () => {
  it('delivers call events one by one, uncoded, while the call runs', async () => {
    const progress = opening();
    const finish = opening();
    gates = { progress: progress.promise, finish: finish.promise };
    const started = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        wait_ms: 0,
        payload: anthropicContent([{ id: 'toolu_zip', name: gated.name, input: { query: 'q' } }]),
      },
    });
    expect(started.status, started.text).toBe(202);
    const id = started.body.call_ids[0] as string;
    const stream = await openStream(`/v1/calls/${id}/events`, {
      authorization: `Bearer ${team.key}`,
      'accept-encoding': 'gzip, deflate, br',
    });
    try {
      expect(stream.headers['content-type']).toContain('text/event-stream');
      expect(stream.headers['content-encoding']).toBeUndefined();
      await stream.until('event: state');
      progress.open();
      await stream.until('event: progress');
      expect(stream.text()).not.toContain('event: finished');
      expect(stream.ended()).toBe(false);
      finish.open();
      await stream.until('event: finished');
    } finally {
      stream.close();
    }
  });

  it('keeps the MCP GET stream uncoded and flowing: a notification arrives while it is open', async () => {
    const mcpHeaders = {
      authorization: `Bearer ${team.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'accept-encoding': 'gzip, br',
    };
    const initialized = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: mcpHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'toolgate-compression-test', version: '1.0.0' },
        },
      }),
    });
    expect(initialized.status).toBe(200);
    expect(initialized.headers.get('content-encoding')).toBeNull();
    await initialized.text();
    const sessionId = initialized.headers.get('mcp-session-id') ?? '';
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const acknowledged = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, ...session },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(acknowledged.status).toBe(202);

    const stream = await openStream('/mcp', {
      authorization: `Bearer ${team.key}`,
      accept: 'text/event-stream',
      'accept-encoding': 'gzip, br',
      ...session,
    });
    try {
      expect(stream.headers['content-type']).toContain('text/event-stream');
      expect(stream.headers['content-encoding']).toBeUndefined();
      const tool = await createBuiltinTool(api, team, { handler: 'gated' });
      await publish(api, team, tool, '1.1.0');
      await stream.until('notifications/tools/list_changed');
      expect(stream.ended()).toBe(false);
    } finally {
      stream.close();
    }
  });
});
