import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { toolExecutionErrorOf } from '../executors/executor';
import { createHttpExecutor } from '../executors/http-executor';
import { createMcpExecutor } from '../executors/mcp-executor';
import { executeCall } from '../pipeline/execute-call';
import {
  createEgressDispatcher,
  createEgressFetch,
  resolveEgressAddress,
  type EgressLookup,
} from './egress-dispatcher';
import { egressPolicyFrom, EgressDeniedError } from './egress-policy';

/** A loopback server that counts connections, so a test can prove none was attempted. */
interface CountingServer {
  port: number;
  connections: number;
  close: () => Promise<void>;
}

async function countingServer(
  handler: (
    url: string,
    respond: (status: number, headers?: Record<string, string>) => void,
  ) => void,
): Promise<CountingServer> {
  const server: Server = createServer((req, res) => {
    handler(req.url ?? '/', (status, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ reached: true }));
    });
  });
  const counting: CountingServer = { port: 0, connections: 0, close: () => Promise.resolve() };
  server.on('connection', () => {
    counting.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  counting.port = (server.address() as AddressInfo).port;
  counting.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return counting;
}

let allowed: CountingServer;
let forbidden: CountingServer;
let policy: ReturnType<typeof egressPolicyFrom>;
// An attacker's DNS: its name resolves to loopback. Other names resolve as the system resolves them.
const lookup: EgressLookup = (host) =>
  host === 'rebind.attacker.test'
    ? Promise.resolve([{ address: '127.0.0.1' }])
    : dnsLookup(host, { all: true });
const publicOnly: EgressLookup = () => Promise.resolve([{ address: '93.184.215.14' }]);

beforeAll(async () => {
  forbidden = await countingServer((_url, respond) => respond(200));
  allowed = await countingServer((url, respond) =>
    url === '/redirect'
      ? respond(302, { location: `http://127.0.0.1:${forbidden.port}/secret` })
      : respond(200),
  );
  // A real deployment that allow-lists only the test's own server.
  policy = egressPolicyFrom({ embedded: false, allow: `127.0.0.1:${allowed.port}` });
});
afterAll(async () => {
  await allowed?.close();
  await forbidden?.close();
});

async function refusedRequest(url: string): Promise<EgressDeniedError> {
  const dispatcher = createEgressDispatcher(policy, { lookup });
  const error = await request(url, { dispatcher }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const denial = toolExecutionErrorOf(error);
  expect(denial, `${url} was not refused: ${String(error)}`).toBeInstanceOf(EgressDeniedError);
  return denial as EgressDeniedError;
}

describe('the egress dispatcher (a real deployment, one server allow-listed)', () => {
  it('reaches the allow-listed server', async () => {
    const dispatcher = createEgressDispatcher(policy, { lookup });
    const response = await request(`http://127.0.0.1:${allowed.port}/`, { dispatcher });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ reached: true });
  });

  it.each([
    ['a loopback port', () => `http://127.0.0.1:${forbidden.port}/`],
    ['localhost', () => `http://localhost:${forbidden.port}/`],
    ['a name that resolves to loopback', () => `http://rebind.attacker.test:${forbidden.port}/`],
    ['the decimal spelling of 127.0.0.1', () => `http://2130706433:${forbidden.port}/`],
    ['the octal spelling of 127.0.0.1', () => `http://0177.0.0.1:${forbidden.port}/`],
    ['the hex spelling of 127.0.0.1', () => `http://0x7f000001:${forbidden.port}/`],
    ['IPv6 loopback', () => `http://[::1]:${forbidden.port}/`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${forbidden.port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.0.0.1:8080/'],
    ['0.0.0.0', () => `http://0.0.0.0:${forbidden.port}/`],
  ])('refuses %s before connecting', async (_label, url) => {
    const before = forbidden.connections;
    const denial = await refusedRequest(url());
    expect(denial.signal.code).toBe('egress_denied');
    expect(forbidden.connections).toBe(before);
  });

  it('refuses a redirect to loopback that fetch follows, before connecting to it', async () => {
    const before = forbidden.connections;
    const egressFetch = createEgressFetch(createEgressDispatcher(policy, { lookup }));
    const error = await egressFetch(`http://127.0.0.1:${allowed.port}/redirect`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(toolExecutionErrorOf(error)?.signal.code).toBe('egress_denied');
    expect(forbidden.connections).toBe(before);
  });

  it('refuses a name with any refused address, whatever order DNS returns them in', async () => {
    const mixed: EgressLookup = () =>
      Promise.resolve([{ address: '93.184.215.14' }, { address: '10.0.0.7' }]);
    await expect(
      resolveEgressAddress(policy, { host: 'split.example', port: 443 }, mixed),
    ).rejects.toBeInstanceOf(EgressDeniedError);
    await expect(
      resolveEgressAddress(policy, { host: 'public.example', port: 443 }, publicOnly),
    ).resolves.toBe('93.184.215.14');
  });
});

describe('the executors behind the egress policy', () => {
  it('fail an http call with egress_denied naming the host, and the tool is never reached', async () => {
    const before = forbidden.connections;
    const tool = ToolBuilder.from({ name: 'peek' })
      .executor({ kind: 'http', method: 'GET', url: `http://localhost:${forbidden.port}/admin` })
      .build();
    const { context } = createHarness({
      tools: [tool],
      executors: { http: createHttpExecutor({ dispatcher: createEgressDispatcher(policy) }) },
    });
    const outcome = await executeCall(callOf('peek'), context);
    expect(outcome.result).toMatchObject({
      ok: false,
      error: { code: 'egress_denied', retryable: false },
    });
    expect(JSON.stringify(outcome.result)).toContain('localhost');
    expect(forbidden.connections).toBe(before);
  });

  it('fail an mcp call with egress_denied, and an allowed upstream still answers', async () => {
    const dispatcher = createEgressDispatcher(policy);
    const tool = ToolBuilder.from({ name: 'upstream' })
      .executor({ kind: 'mcp', url: `http://127.0.0.1:${forbidden.port}/mcp` })
      .build();
    const { context } = createHarness({
      tools: [tool],
      executors: { mcp: createMcpExecutor({ fetch: createEgressFetch(dispatcher) }) },
    });
    const before = forbidden.connections;
    const outcome = await executeCall(callOf('upstream'), context);
    expect(outcome.result).toMatchObject({ ok: false, error: { code: 'egress_denied' } });
    expect(forbidden.connections).toBe(before);
    // The same fetch carries a real MCP client to an allowed address (the request reaches it).
    const transport = new StreamableHTTPClientTransport(
      new URL(`http://127.0.0.1:${allowed.port}/mcp`),
      { fetch: createEgressFetch(dispatcher) },
    );
    const reachedBefore = allowed.connections;
    await new Client({ name: 'egress-test', version: '0' })
      .connect(transport)
      .catch(() => undefined);
    expect(allowed.connections).toBeGreaterThan(reachedBefore);
  });
});
