import { afterEach, describe, expect, it } from 'vitest';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { readBody, startTestServer, type TestServer } from '../__fixtures__/http-test-server';
import { createHttpExecutor } from '../executors/http-executor';
import { executeCall } from '../pipeline/execute-call';

/** An order store that versions each order with an ETag and honours If-Match, like a real API. */
async function orderStore(): Promise<{
  server: TestServer;
  seen: { method: string | undefined; ifMatch: string | undefined; body: string }[];
  writes: () => number;
}> {
  let version = 1;
  let writes = 0;
  const seen: { method: string | undefined; ifMatch: string | undefined; body: string }[] = [];
  const server = await startTestServer((request, response) => {
    void readBody(request).then((body) => {
      const ifMatch = request.headers['if-match'];
      seen.push({ method: request.method, ifMatch, body });
      response.setHeader('content-type', 'application/json');
      if (request.method === 'PUT') {
        if (ifMatch !== undefined && ifMatch !== `"v${version}"`) {
          response.statusCode = 412;
          response.setHeader('etag', `"v${version}"`);
          response.end(JSON.stringify({ error: 'precondition failed' }));
          return;
        }
        version += 1;
        writes += 1;
      }
      response.setHeader('etag', `"v${version}"`);
      response.end(JSON.stringify({ id: 'o-1', note: 'x', version: `v${version}` }));
    });
  });
  return { server, seen, writes: () => writes };
}

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

function orderTools(url: string) {
  const concurrency = {
    resource: { type: 'order', id: '/arguments/order_id' },
    version: { header: 'ETag' },
  };
  const get = ToolBuilder.from({ name: 'get_order' })
    .behavior({ readonly: true, idempotent: true })
    .executor({ kind: 'http', method: 'GET', url: `${url}/orders/{order_id}` })
    .with({ concurrency })
    .build();
  const update = ToolBuilder.from({ name: 'update_order' })
    .behavior({ readonly: false, idempotent: true })
    .constraints({ timeout_ms: 2000, max_retries: 3 })
    .executor({ kind: 'http', method: 'PUT', url: `${url}/orders/{order_id}` })
    .with({ concurrency: { ...concurrency, expected: { header: 'If-Match' } } })
    .build();
  return [get, update];
}

describe('optimistic concurrency on the http executor', () => {
  it('reports the version a read saw, sends it as If-Match on a write, and reports the new one', async () => {
    const store = await orderStore();
    servers.push(store.server);
    const executors = { http: createHttpExecutor() };
    const read = await executeCall(
      callOf('get_order', { order_id: 'o-1' }),
      createHarness({ tools: orderTools(store.server.url), executors }).context,
    );
    expect(read.execution.resource).toEqual({ key: 'order:o-1', version: '"v1"' });
    const seenVersion = read.execution.resource?.version ?? 'none';

    const write = await executeCall(callOf('update_order', { order_id: 'o-1', note: 'x' }), {
      ...createHarness({ tools: orderTools(store.server.url), executors }).context,
      expectedVersion: seenVersion,
    });
    expect(write.result.ok).toBe(true);
    expect(write.execution.resource).toEqual({ key: 'order:o-1', version: '"v2"' });
    expect(store.seen.at(-1)).toMatchObject({ method: 'PUT', ifMatch: '"v1"' });
  });

  it('turns a 412 into a conflict with the current version, and never retries it', async () => {
    const store = await orderStore();
    servers.push(store.server);
    const { context } = createHarness({
      tools: orderTools(store.server.url),
      executors: { http: createHttpExecutor() },
    });
    // Someone else wrote first: the store is at v2, the model still holds v1.
    await executeCall(callOf('update_order', { order_id: 'o-1', note: 'first' }), context);
    const stale = await executeCall(callOf('update_order', { order_id: 'o-1', note: 'late' }), {
      ...context,
      expectedVersion: 'v1',
    });
    expect(stale.status).toBe('failed');
    expect(stale.result.error).toMatchObject({
      code: 'conflict',
      retryable: false,
      details: {
        status: 412,
        resource: 'order:o-1',
        expected_version: 'v1',
        current_version: '"v2"',
      },
    });
    expect(stale.execution.attempts).toBe(1);
    expect(store.seen.at(-1)?.ifMatch).toBe('"v1"');
    expect(store.writes()).toBe(1);
  });

  it('writes the expected version into an argument when the tool takes it there', async () => {
    const store = await orderStore();
    servers.push(store.server);
    const tool = ToolBuilder.from({ name: 'set_note' })
      .behavior({ readonly: false, idempotent: false })
      .executor({ kind: 'http', method: 'POST', url: `${store.server.url}/notes` })
      .with({
        concurrency: {
          resource: { type: 'order', id: '/arguments/order_id' },
          version: '/result/version',
          expected: { argument: '/expected_version' },
        },
      })
      .build();
    const outcome = await executeCall(callOf('set_note', { order_id: 'o-1', note: 'n' }), {
      ...createHarness({ tools: [tool], executors: { http: createHttpExecutor() } }).context,
      expectedVersion: 'v1',
    });
    expect(outcome.result.ok).toBe(true);
    expect(JSON.parse(store.seen.at(-1)?.body ?? '{}')).toEqual({
      order_id: 'o-1',
      note: 'n',
      expected_version: 'v1',
    });
    expect(outcome.execution.resource).toEqual({ key: 'order:o-1', version: 'v1' });
  });

  it('sends no expected version to a tool that does not declare where it takes one', async () => {
    const store = await orderStore();
    servers.push(store.server);
    const [get] = orderTools(store.server.url);
    const outcome = await executeCall(callOf('get_order', { order_id: 'o-1' }), {
      ...createHarness({ tools: [get!], executors: { http: createHttpExecutor() } }).context,
      expectedVersion: 'v9',
    });
    expect(outcome.result.ok).toBe(true);
    expect(store.seen.at(-1)?.ifMatch).toBeUndefined();
  });
});
