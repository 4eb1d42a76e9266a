import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BuiltinExecutor } from '@toolgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, publish, type TestTeam, type TestTool } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
let current: TestTool;
let soon: { tool: TestTool; sunset: Date; deprecatedAt: Date };
let later: { tool: TestTool; sunset: Date; deprecatedAt: Date };

/** Publishes 2.0.0 beside the stable 1.0.0 and deprecates 1.0.0 for it, sunsetting in `days`. */
async function deprecatedTool(
  days: number,
): Promise<{ tool: TestTool; sunset: Date; deprecatedAt: Date }> {
  const tool = await createBuiltinTool(api, team, { handler: 'echo' });
  await publish(api, team, tool, '2.0.0', tool.ir);
  const sunset = new Date(Date.now() + days * 86_400_000);
  sunset.setUTCMilliseconds(0);
  const response = await api.request({
    method: 'POST',
    url: `/v1/tools/${tool.id}/versions/1.0.0/deprecate`,
    key: team.key,
    body: { sunset_at: sunset.toISOString(), successor: '2.0.0' },
  });
  expect(response.status, response.text).toBe(200);
  return { tool, sunset, deprecatedAt: new Date(response.body.deprecated_at as string) };
}

function successorLink(tool: TestTool): string {
  return `</v1/tools/${tool.id}/versions/2.0.0>; rel="successor-version"`;
}

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('echo', (args) => ({ echoed: args }));
  api = await startTestApp({}, { builtins });
  // The SDK client speaks HTTP, so this file listens on a real port instead of using inject().
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  current = await createBuiltinTool(api, team, { handler: 'echo' });
  later = await deprecatedTool(30);
  soon = await deprecatedTool(7);
});
afterAll(async () => {
  await api?.close();
});

describe('calls served by a deprecated version', () => {
  it('carry no lifecycle headers or notices when every version is current', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [{ id: 'call_current', name: current.name, arguments: { query: 'x' } }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['deprecation']).toBeUndefined();
    expect(response.headers['sunset']).toBeUndefined();
    expect(response.headers['link']).toBeUndefined();
    expect(response.body.calls).toEqual([
      { id: expect.any(String), status: 'succeeded', tool: current.name, version: '1.0.0' },
    ]);
  });

  it('send Deprecation and Sunset of the earliest sunset, a successor Link per tool and a notice per call', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'openai-chat',
        payload: {
          role: 'assistant',
          content: null,
          tool_calls: [later, soon]
            .map(({ tool }, index) => ({
              id: `call_dep_${index}`,
              type: 'function',
              function: { name: tool.name, arguments: '{"query":"q"}' },
            }))
            .concat([
              {
                id: 'call_dep_current',
                type: 'function',
                function: { name: current.name, arguments: '{"query":"q"}' },
              },
            ]),
        },
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers['deprecation']).toBe(
      `@${Math.floor(soon.deprecatedAt.getTime() / 1000)}`,
    );
    expect(response.headers['sunset']).toBe(soon.sunset.toUTCString());
    const links = String(response.headers['link']).split(', ');
    expect(links.sort()).toEqual([successorLink(later.tool), successorLink(soon.tool)].sort());
    expect(response.body.calls).toEqual([
      {
        id: expect.any(String),
        status: 'succeeded',
        tool: later.tool.name,
        version: '1.0.0',
        deprecation: {
          deprecated_at: later.deprecatedAt.toISOString(),
          sunset_at: later.sunset.toISOString(),
          successor: '2.0.0',
        },
      },
      {
        id: expect.any(String),
        status: 'succeeded',
        tool: soon.tool.name,
        version: '1.0.0',
        deprecation: {
          deprecated_at: soon.deprecatedAt.toISOString(),
          sunset_at: soon.sunset.toISOString(),
          successor: '2.0.0',
        },
      },
      { id: expect.any(String), status: 'succeeded', tool: current.name, version: '1.0.0' },
    ]);
  });

  it('send the same on /v1/calls/ir and on a replay of the same calls', async () => {
    const send = () =>
      api.request({
        method: 'POST',
        url: '/v1/calls/ir',
        key: team.key,
        headers: { 'idempotency-key': 'dep-replay-1' },
        body: [{ id: 'call_dep_ir', name: later.tool.name, arguments: { query: 'r' } }],
      });
    for (const response of [await send(), await send()]) {
      expect(response.status, response.text).toBe(200);
      expect(response.headers['deprecation']).toBe(
        `@${Math.floor(later.deprecatedAt.getTime() / 1000)}`,
      );
      expect(response.headers['sunset']).toBe(later.sunset.toUTCString());
      expect(response.headers['link']).toBe(successorLink(later.tool));
      expect(response.body.calls[0].deprecation).toMatchObject({ successor: '2.0.0' });
    }
  });

  it('mark MCP tools/call results and tools/list entries with _meta["toolgate/deprecation"]', async () => {
    const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${team.key}` } },
      }),
    );
    try {
      const expected = {
        deprecated_at: soon.deprecatedAt.toISOString(),
        sunset_at: soon.sunset.toISOString(),
        successor: '2.0.0',
      };
      const result = await client.callTool({ name: soon.tool.name, arguments: { query: 'm' } });
      expect(result.isError).toBe(false);
      expect(result._meta?.['toolgate/deprecation']).toEqual(expected);
      const plain = await client.callTool({ name: current.name, arguments: { query: 'm' } });
      expect(plain.isError).toBe(false);
      expect(plain._meta?.['toolgate/deprecation']).toBeUndefined();

      const { tools } = await client.listTools();
      const listed = tools.find((tool) => tool.name === soon.tool.name);
      expect(listed?._meta?.['toolgate/deprecation']).toEqual(expected);
      const currentListed = tools.find((tool) => tool.name === current.name);
      expect(currentListed?._meta?.['toolgate/deprecation']).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
