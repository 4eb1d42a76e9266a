import { afterEach, describe, expect, it } from 'vitest';
import { callOf, createHarness, ToolBuilder } from '../__fixtures__/engine-harness';
import { startTestServer, type TestServer } from '../__fixtures__/http-test-server';
import { executeCall } from '../pipeline/execute-call';
import type { ToolConstraints } from '@toolgate/toolir';
import { createHttpExecutor } from './http-executor';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** An upstream answering `body` with `headers`, and a tool of it with these constraints. */
async function toolOf(
  answer: { status?: number; headers?: Record<string, string>; body: unknown },
  constraints: Partial<ToolConstraints>,
) {
  const server = await startTestServer((_request, response) => {
    response.statusCode = answer.status ?? 200;
    for (const [name, value] of Object.entries(answer.headers ?? {}))
      response.setHeader(name, value);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer.body));
  });
  servers.push(server);
  const tool = ToolBuilder.from({ name: 'priced' })
    .constraints(constraints)
    .parameters({ type: 'object', properties: {}, additionalProperties: false })
    .executor({ kind: 'http', method: 'GET', url: `${server.url}/quote` })
    .build();
  return createHarness({ tools: [tool], executors: { http: createHttpExecutor() } }).context;
}

describe('the tool cost of an http call', () => {
  it('is the amount the upstream reports in the declared header', async () => {
    const context = await toolOf(
      { headers: { 'x-cost-usd': ' 0.0125 ' }, body: { quote: 1 } },
      { cost_estimate_usd: 0.5, cost_report: { in: 'header', name: 'X-Cost-USD' } },
    );
    const { execution } = await executeCall(callOf('priced', {}), context);
    expect(execution.tool_cost).toEqual({ usd: 0.0125, source: 'reported' });
  });

  it('is the number at the declared pointer of the JSON result', async () => {
    const context = await toolOf(
      { body: { quote: 1, billing: { cost_usd: 0.003 } } },
      { cost_report: { in: 'result', pointer: '/billing/cost_usd' } },
    );
    const { execution } = await executeCall(callOf('priced', {}), context);
    expect(execution.tool_cost).toEqual({ usd: 0.003, source: 'reported' });
  });

  it('falls back to the estimate when the report is missing or not a non-negative number', async () => {
    for (const headers of [{}, { 'x-cost-usd': 'free' }, { 'x-cost-usd': '-1' }]) {
      const context = await toolOf(
        { headers, body: {} },
        { cost_estimate_usd: 0.5, cost_report: { in: 'header', name: 'x-cost-usd' } },
      );
      const { execution } = await executeCall(callOf('priced', {}), context);
      expect(execution.tool_cost).toEqual({ usd: 0.5, source: 'estimate' });
    }
  });

  it('is the estimate for a failed attempt, and none without estimate or report', async () => {
    const failing = await toolOf({ status: 500, body: {} }, { cost_estimate_usd: 0.25 });
    const failed = await executeCall(callOf('priced', {}), failing);
    expect(failed.status).toBe('failed');
    expect(failed.execution.tool_cost).toEqual({ usd: 0.25, source: 'estimate' });
    const unpriced = await toolOf({ body: {} }, {});
    const { execution } = await executeCall(callOf('priced', {}), unpriced);
    expect(execution.tool_cost).toBeUndefined();
  });

  it('is none for a call no executor ran (invalid arguments)', async () => {
    const context = await toolOf({ body: {} }, { cost_estimate_usd: 0.5 });
    const { execution, result } = await executeCall(callOf('priced', { nope: 1 }), context);
    expect(result.ok).toBe(false);
    expect(execution.tool_cost).toBeUndefined();
  });
});
