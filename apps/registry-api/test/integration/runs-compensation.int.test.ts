import { createServer, type IncomingMessage, type Server } from 'node:http';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool, openAIChatMessage } from '../factories/gateway.factory';
import {
  createTeam,
  createTool,
  publish,
  type TestTeam,
  type TestTool,
} from '../factories/registry.factory';
import { closeServer, listen } from '../support/otlp-collector';
import { startTestApp, type TestApp } from '../support/test-app';

// Orders: `create_order` makes one (failing while `refusing` names its customer), `cancel_order`
// undoes it; `note_customer` writes without a way back; `look_up` only reads.
const WRITE = { readonly: false, destructive: false, idempotent: false } as const;
let api: TestApp;
let team: TestTeam;
let createOrder: TestTool;
let noteCustomer: TestTool;
let lookUp: TestTool;
const orders = new Map<string, string>();
const effects: string[] = [];
const memos: unknown[] = [];
const refusing = new Set<string>();
let nextOrder = 0;

// A document store that honours If-Match: its ETag is "v<n>", bumped by every accepted PUT.
let docs: Server;
let docsUrl: string;
let docVersion = 1;
const docRequests: Array<{ method: string; ifMatch: string | undefined }> = [];

function waitFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor()
    .registerBuiltin('create_order', async (args) => {
      const customer = String(args['customer']);
      // Staggered so the completed calls finish in a known order.
      await waitFor(Number(args['delay_ms'] ?? 0));
      if (refusing.has(customer)) throw new Error(`the shop refused ${customer}`);
      const id = `order-${++nextOrder}`;
      orders.set(id, customer);
      effects.push(`create:${customer}`);
      // An upstream's data may look like a plan's reference; a compensation copies it as it is.
      return { order_id: id, memo: { $ref: { step: 'elsewhere', call: 0, pointer: '' } } };
    })
    .registerBuiltin('cancel_order', (args) => {
      const id = String(args['order_id']);
      const customer = orders.get(id);
      if (customer === undefined) throw new Error(`no order ${id}`);
      orders.delete(id);
      effects.push(`cancel:${customer}:${String(args['reason'])}`);
      memos.push(args['memo']);
      return { cancelled: id };
    })
    .registerBuiltin('note_customer', (args) => {
      effects.push(`note:${String(args['customer'])}`);
      return { noted: true };
    })
    .registerBuiltin('look_up', (args) => ({ customer: args['customer'], tier: 'gold' }));
  api = await startTestApp({}, { builtins });
  team = await createTeam(api);
  const cancelOrder = await createBuiltinTool(api, team, {
    handler: 'cancel_order',
    behavior: WRITE,
    parameters: {
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        reason: { type: 'string' },
        memo: { type: 'object' },
      },
      required: ['order_id'],
    },
  });
  createOrder = await createBuiltinTool(api, team, {
    handler: 'create_order',
    behavior: WRITE,
    parameters: {
      type: 'object',
      properties: { customer: { type: 'string' }, delay_ms: { type: 'number' } },
      required: ['customer'],
    },
  });
  // A second version declares how an order is undone (createBuiltinTool publishes 1.0.0 only).
  // Orders of different customers are different resources, so one step's run side by side.
  const compensable = createOrder.ir.with({
    provider_hints: { toolgate: { resource_key: '/customer' } },
    compensation: {
      tool: cancelOrder.name,
      arguments: {
        order_id: { from: '/result/order_id' },
        reason: { value: 'compensated' },
        memo: { from: '/result/memo' },
      },
    },
  });
  await publish(api, team, { ...createOrder, ir: compensable }, '1.1.0', compensable, {
    release: 'stable',
  });
  noteCustomer = await createBuiltinTool(api, team, { handler: 'note_customer', behavior: WRITE });
  lookUp = await createBuiltinTool(api, team, { handler: 'look_up' });

  docs = createServer((request, response) => {
    void (async () => {
      await readBody(request);
      const ifMatch = request.headers['if-match'];
      docRequests.push({ method: request.method ?? '', ifMatch });
      const etag = `"v${docVersion}"`;
      if (request.method === 'PUT') {
        if (ifMatch !== undefined && ifMatch !== etag) {
          response.writeHead(412, { etag, 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: 'the document changed' }));
          return;
        }
        docVersion += 1;
      }
      response.writeHead(200, { etag: `"v${docVersion}"`, 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'doc-1', version: docVersion }));
    })();
  });
  docsUrl = await listen(docs);
});
afterAll(async () => {
  await api?.close();
  if (docs !== undefined) await closeServer(docs);
});

interface RunBody {
  status: string;
  failed_step: string | null;
  compensations: Array<{
    requested_by: string;
    steps: string[];
    cannot_be_undone: Array<{ tool: string; step: string; reason: string }>;
  }>;
  steps: Array<{
    name: string;
    kind: string;
    status: string;
    attempt: number;
    depends_on: string[];
    compensates: { step: string; call_id: string; tool: string } | null;
    calls: Array<{ id: string; status: string; arguments: Record<string, unknown> }>;
  }>;
}

async function createRun(
  mode: 'plan' | 'react',
  compensation?: 'manual' | 'automatic',
): Promise<string> {
  const response = await api.request({
    method: 'POST',
    url: '/v1/runs',
    key: team.key,
    body: { mode, ...(compensation === undefined ? {} : { compensation }) },
  });
  expect(response.status, response.text).toBe(201);
  expect(response.body).toMatchObject({
    compensation: compensation ?? 'manual',
    compensations: [],
  });
  return response.body.id as string;
}

async function getRun(id: string): Promise<RunBody> {
  const response = await api.request({ url: `/v1/runs/${id}`, key: team.key });
  expect(response.status, response.text).toBe(200);
  return response.body as RunBody;
}

async function waitForRun(
  id: string,
  done: (run: RunBody) => boolean,
  timeoutMs = 20_000,
): Promise<RunBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getRun(id);
    if (done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} stayed ${JSON.stringify(run)}`);
    await waitFor(50);
  }
}

async function postPlan(id: string, steps: unknown[]): Promise<void> {
  const response = await api.request({
    method: 'POST',
    url: `/v1/runs/${id}/plan`,
    key: team.key,
    body: { steps },
  });
  expect(response.status, response.text).toBe(202);
}

/** Five orders in one step: the customers at `refused` indexes fail, the others finish 0, 2, 4. */
function fiveOrders(prefix: string): { customers: string[]; step: unknown } {
  const customers = [0, 1, 2, 3, 4].map((index) => `${prefix}-${index}`);
  return {
    customers,
    step: {
      name: 'orders',
      calls: customers.map((customer, index) => ({
        tool: createOrder.name,
        arguments: { customer, delay_ms: index * 40 },
      })),
    },
  };
}

describe('compensation', () => {
  it('undoes the 3 completed calls of a 5-call step latest first, then the retry runs the step again', async () => {
    const id = await createRun('plan');
    const { customers, step } = fiveOrders('saga');
    refusing.add(customers[1]!).add(customers[3]!);
    await postPlan(id, [step]);
    const failed = await waitForRun(id, (run) => run.status === 'failed');
    expect(failed.failed_step).toBe('orders');
    expect(failed.steps[0]!.calls.map((call) => call.status)).toEqual([
      'succeeded',
      'failed',
      'succeeded',
      'failed',
      'succeeded',
    ]);

    const compensated = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: {},
    });
    expect(compensated.status, compensated.text).toBe(202);
    const asked = compensated.body as RunBody;
    expect(asked.status).toBe('compensating');
    // Latest first (the calls finished 0, 2, 4), each after the one before it.
    expect(asked.compensations).toEqual([
      expect.objectContaining({
        requested_by: expect.any(String),
        failed_step: 'orders',
        scope: 'step',
        steps: ['undo:orders.4:1', 'undo:orders.2:1', 'undo:orders.0:1'],
        cannot_be_undone: [],
      }),
    ]);
    const chain = asked.steps.filter((entry) => entry.kind === 'compensation');
    expect(chain.map((entry) => entry.depends_on)).toEqual([
      [],
      ['undo:orders.4:1'],
      ['undo:orders.2:1'],
    ]);
    expect(chain.map((entry) => entry.compensates?.call_id)).toEqual(
      [4, 2, 0].map((index) => failed.steps[0]!.calls[index]!.id),
    );

    const after = await waitForRun(id, (run) => run.status === 'failed');
    expect(
      after.steps.filter((entry) => entry.kind === 'compensation').map((e) => e.status),
    ).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(memos.at(-1)).toEqual({ $ref: { step: 'elsewhere', call: 0, pointer: '' } });
    expect(effects.filter((effect) => effect.includes('saga-'))).toEqual([
      `create:${customers[0]}`,
      `create:${customers[2]}`,
      `create:${customers[4]}`,
      `cancel:${customers[4]}:compensated`,
      `cancel:${customers[2]}:compensated`,
      `cancel:${customers[0]}:compensated`,
    ]);
    // Compensating again finds nothing left to undo.
    const again = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: { step: 'orders' },
    });
    expect(again.status, again.text).toBe(202);
    expect((again.body as RunBody).compensations.at(-1)).toMatchObject({ steps: [] });

    // The step's effects are all undone, so the retry runs all five again.
    refusing.clear();
    const retried = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/decide`,
      key: team.key,
      body: { step: 'orders', action: 'retry' },
    });
    expect(retried.status, retried.text).toBe(200);
    const done = await waitForRun(id, (run) => ['succeeded', 'failed'].includes(run.status));
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.steps[0]).toMatchObject({ name: 'orders', attempt: 2, status: 'succeeded' });
    expect(effects.filter((effect) => effect.startsWith('create:saga-')).length).toBe(8);
    expect([...orders.values()].filter((customer) => customer.startsWith('saga-')).sort()).toEqual(
      [...customers].sort(),
    );
  });

  it('retries only the 2 failed calls of a step whose 3 completed calls stand', async () => {
    const id = await createRun('plan');
    const { customers, step } = fiveOrders('resume');
    refusing.add(customers[1]!).add(customers[3]!);
    await postPlan(id, [
      step,
      {
        name: 'after',
        depends_on: ['orders'],
        calls: [{ tool: lookUp.name, arguments: { query: 'x' } }],
      },
    ]);
    const failed = await waitForRun(id, (run) => run.status === 'failed');
    const kept = [0, 2, 4].map((index) => failed.steps[0]!.calls[index]!.id);

    refusing.clear();
    const retried = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/decide`,
      key: team.key,
      body: { step: 'orders', action: 'retry' },
    });
    expect(retried.status, retried.text).toBe(200);
    const done = await waitForRun(id, (run) => ['succeeded', 'failed'].includes(run.status));
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const calls = done.steps[0]!.calls;
    expect(calls.map((call) => call.status)).toEqual(Array(5).fill('succeeded'));
    // The completed calls are the same records; only customers 1 and 3 ran again.
    expect([0, 2, 4].map((index) => calls[index]!.id)).toEqual(kept);
    expect(calls[1]!.arguments).toMatchObject({ customer: customers[1] });
    expect(effects.filter((effect) => effect.startsWith('create:resume-'))).toHaveLength(5);
  });

  it('reports completed writes without a declared compensation as ones that cannot be undone', async () => {
    const id = await createRun('plan');
    refusing.add('report-2');
    await postPlan(id, [
      {
        name: 'mixed',
        calls: [
          { tool: createOrder.name, arguments: { customer: 'report-0' } },
          { tool: noteCustomer.name, arguments: { query: 'report-1' } },
          { tool: createOrder.name, arguments: { customer: 'report-2', delay_ms: 40 } },
          { tool: lookUp.name, arguments: { query: 'report-3' } },
        ],
      },
    ]);
    await waitForRun(id, (run) => run.status === 'failed');
    const compensated = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: { scope: 'run' },
    });
    expect(compensated.status, compensated.text).toBe(202);
    const report = (compensated.body as RunBody).compensations[0]!;
    expect(report.steps).toEqual(['undo:mixed.0:1']);
    // The readonly look-up changed nothing, so it is not listed.
    expect(report.cannot_be_undone).toEqual([
      expect.objectContaining({
        step: 'mixed',
        tool: noteCustomer.name,
        reason: expect.stringContaining('declares no compensation'),
      }),
    ]);
    await waitForRun(id, (run) => run.status === 'failed');
    expect(effects).toContain('cancel:report-0:compensated');
    refusing.clear();
  });

  it('compensates at once under the automatic policy, once per failed attempt', async () => {
    const id = await createRun('plan', 'automatic');
    refusing.add('auto-1');
    await postPlan(id, [
      {
        name: 'pair',
        calls: [
          { tool: createOrder.name, arguments: { customer: 'auto-0' } },
          { tool: createOrder.name, arguments: { customer: 'auto-1' } },
        ],
      },
    ]);
    const run = await waitForRun(
      id,
      (current) =>
        current.status === 'failed' &&
        current.steps.some(
          (entry) => entry.kind === 'compensation' && entry.status === 'succeeded',
        ),
    );
    expect(run.compensations).toEqual([
      expect.objectContaining({ requested_by: 'automatic', steps: ['undo:pair.0:1'] }),
    ]);
    expect(effects).toContain('cancel:auto-0:compensated');
    // Another look at the run asks for nothing more.
    await waitFor(300);
    expect((await getRun(id)).compensations).toHaveLength(1);
    refusing.clear();
  });

  it("compensates a turn by the name the run shows for it, whatever its Idempotency-Key's characters", async () => {
    const id = await createRun('react');
    // Visible ASCII beyond a plan step name's letters: the turn's step is `turn:<key>`.
    const key = 'order/7=ab+c';
    const posted = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/turns`,
      key: team.key,
      headers: { 'idempotency-key': key },
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          {
            id: 'call_turn_key',
            name: createOrder.name,
            arguments: JSON.stringify({ customer: 'turn-key-0' }),
          },
        ]),
        wait_ms: 10_000,
      },
    });
    expect(posted.status, posted.text).toBe(200);
    expect((await getRun(id)).steps.map((step) => step.name)).toEqual([`turn:${key}`]);

    const compensated = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: { step: `turn:${key}` },
    });
    expect(compensated.status, compensated.text).toBe(202);
    expect((compensated.body as RunBody).compensations.at(-1)).toMatchObject({
      steps: [`undo:turn:${key}.0:1`],
    });
    const after = await waitForRun(id, (run) => run.status === 'running');
    expect(after.steps.find((step) => step.kind === 'compensation')?.status).toBe('succeeded');
    expect(effects).toContain('cancel:turn-key-0:compensated');
  });

  it('refuses to compensate a run with nothing stopped, and a run that ended', async () => {
    const id = await createRun('plan');
    await postPlan(id, [
      { name: 'one', calls: [{ tool: lookUp.name, arguments: { query: 'q' } }] },
    ]);
    await waitForRun(id, (run) => run.status === 'succeeded');
    const refused = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: {},
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    const unknown = await api.request({
      method: 'POST',
      url: `/v1/runs/${id}/compensate`,
      key: team.key,
      body: { scope: 'everything' },
    });
    expect(unknown.status, unknown.text).toBe(400);
  });
});

describe('optimistic concurrency within runs', () => {
  async function docTools(): Promise<{ read: string; write: string }> {
    const names: string[] = [];
    for (const method of ['GET', 'PUT'] as const) {
      const tool = await createTool(api, team);
      const ir = tool.ir
        .parameters({
          type: 'object',
          properties: { id: { type: 'string' }, text: { type: 'string' } },
          required: ['id'],
        })
        .with({
          behavior:
            method === 'GET'
              ? { readonly: true, destructive: false, idempotent: true }
              : { readonly: false, destructive: false, idempotent: false },
          constraints: { timeout_ms: 5_000, max_retries: 2 },
          concurrency: {
            resource: { type: 'doc', id: '/arguments/id' },
            version: { header: 'ETag' },
            ...(method === 'PUT' ? { expected: { header: 'If-Match' } } : {}),
          },
          protocol_meta: {
            toolgate: { executor: { kind: 'http', method, url: `${docsUrl}/doc` } },
          },
        });
      await publish(api, team, { ...tool, ir }, '1.0.0', ir);
      names.push(tool.name);
    }
    return { read: names[0]!, write: names[1]! };
  }

  async function turn(runId: string, name: string, args: Record<string, unknown>) {
    const response = await api.request({
      method: 'POST',
      url: `/v1/runs/${runId}/turns`,
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: `call_${docRequests.length}`, name, arguments: JSON.stringify(args) },
        ]),
        wait_ms: 10_000,
      },
    });
    expect(response.status, response.text).toBe(200);
    return response.body.tool_results[0] as {
      ok: boolean;
      data?: unknown;
      error?: { code: string; retryable: boolean; details?: Record<string, unknown> };
    };
  }

  it('sends each write the version its run last saw: of two runs writing one document, the second gets conflict', async () => {
    const { read, write } = await docTools();
    const first = await createRun('react');
    const second = await createRun('react');
    expect((await turn(first, read, { id: 'doc-1' })).ok).toBe(true);
    expect((await turn(second, read, { id: 'doc-1' })).ok).toBe(true);
    const seen = `"v${docVersion}"`;

    const won = await turn(first, write, { id: 'doc-1', text: 'first' });
    expect(won.ok).toBe(true);
    expect(docRequests.at(-1)).toEqual({ method: 'PUT', ifMatch: seen });

    const puts = docRequests.filter((request) => request.method === 'PUT').length;
    const lost = await turn(second, write, { id: 'doc-1', text: 'second' });
    expect(lost.ok).toBe(false);
    expect(lost.error).toMatchObject({
      code: 'conflict',
      retryable: false,
      details: expect.objectContaining({
        resource: 'doc:doc-1',
        expected_version: seen,
        current_version: `"v${docVersion}"`,
      }),
    });
    // Not retried, although the tool allows two retries.
    expect(docRequests.filter((request) => request.method === 'PUT').length).toBe(puts + 1);

    // Read again, and the write carries the new version.
    expect((await turn(second, read, { id: 'doc-1' })).ok).toBe(true);
    const current = `"v${docVersion}"`;
    expect((await turn(second, write, { id: 'doc-1', text: 'second' })).ok).toBe(true);
    expect(docRequests.at(-1)).toEqual({ method: 'PUT', ifMatch: current });

    // A write outside any run expects nothing: it carries no If-Match.
    const plain = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: openAIChatMessage([
          { id: 'call_plain', name: write, arguments: '{"id":"doc-1","text":"plain"}' },
        ]),
        wait_ms: 10_000,
      },
    });
    expect(plain.status, plain.text).toBe(200);
    expect(docRequests.at(-1)).toEqual({ method: 'PUT', ifMatch: undefined });
  });
});
