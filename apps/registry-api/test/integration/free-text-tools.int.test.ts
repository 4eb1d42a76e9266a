import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sdkTypeErrors } from '@toolgate/adapters/testing';
import { BuiltinExecutor } from '@toolgate/engine';
import { textInputParameters } from '@toolgate/toolir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinTool } from '../factories/gateway.factory';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// Free-text tools end to end: exported as custom tools to OpenAI and as one-string functions
// elsewhere, called with text, the input checked against the version's grammar before it runs.
const SQL_REGEX = 'SELECT [a-z_]+ FROM [a-z_]+';
const LARK = 'start: NUMBER ("+" NUMBER)*\n%import common.NUMBER';

let api: TestApp;
let baseUrl: string;
let team: TestTeam;
const seen: string[] = [];

beforeAll(async () => {
  const builtins = new BuiltinExecutor().registerBuiltin('echo_text', (args) => {
    seen.push(String(args['input']));
    return { received: args['input'] };
  });
  api = await startTestApp({}, { builtins });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  team = await createTeam(api);
  await createBuiltinTool(api, team, {
    handler: 'echo_text',
    name: 'run_select',
    parameters: textInputParameters(),
    input_format: { type: 'text', grammar: { syntax: 'regex', definition: SQL_REGEX } },
  });
  await createBuiltinTool(api, team, {
    handler: 'echo_text',
    name: 'add_numbers',
    parameters: textInputParameters(),
    input_format: { type: 'text', grammar: { syntax: 'lark', definition: LARK } },
  });
});
afterAll(async () => {
  await api?.close();
});

async function exportOf(format: string): Promise<{ tools: unknown[]; entries: unknown[] }> {
  const response = await api.request({ url: `/v1/exports?format=${format}`, key: team.key });
  expect(response.status, response.text).toBe(200);
  return { tools: response.body.tools as unknown[], entries: response.body.downgrades.entries };
}

async function postCalls(provider: string, payload: unknown) {
  const response = await api.request({
    method: 'POST',
    url: '/v1/calls',
    key: team.key,
    body: { provider, payload },
  });
  expect(response.status, response.text).toBe(200);
  return response.body as {
    results: unknown;
    tool_results: Array<{ ok: boolean; error?: { code: string; message: string } }>;
    calls: Array<{ id: string }>;
  };
}

describe('free-text tools', () => {
  it('exports custom tools to OpenAI and one-string functions with a report entry elsewhere', async () => {
    const responses = await exportOf('openai-responses');
    expect(responses.tools).toEqual(
      expect.arrayContaining([
        {
          type: 'custom',
          name: 'run_select',
          description: expect.any(String),
          format: { type: 'grammar', syntax: 'regex', definition: SQL_REGEX },
        },
      ]),
    );
    for (const tool of responses.tools) expect(sdkTypeErrors('openai-responses', tool)).toEqual([]);
    const chat = await exportOf('openai-chat');
    for (const tool of chat.tools) {
      expect(tool).toMatchObject({ type: 'custom' });
      expect(sdkTypeErrors('openai-chat', tool)).toEqual([]);
    }
    const anthropic = await exportOf('anthropic');
    expect(anthropic.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'run_select',
          input_schema: expect.objectContaining({
            properties: {
              input: expect.objectContaining({ type: 'string', pattern: `^(?:${SQL_REGEX})$` }),
            },
          }),
        }),
      ]),
    );
    expect(anthropic.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tool: 'run_select',
          keyword: 'input_format',
          action: 'rewritten',
        }),
        expect.objectContaining({
          tool: 'add_numbers',
          keyword: 'grammar',
          action: 'moved_to_description',
        }),
      ]),
    );
  });

  it('runs a Responses custom_tool_call whose text matches the regex, answering with custom_tool_call_output', async () => {
    const body = await postCalls('openai-responses', {
      output: [
        {
          type: 'custom_tool_call',
          id: 'ctc_1',
          call_id: 'call_ok',
          name: 'run_select',
          input: 'SELECT name FROM users',
        },
      ],
    });
    expect(body.tool_results[0]).toMatchObject({
      ok: true,
      data: { received: 'SELECT name FROM users' },
    });
    expect(body.results).toEqual([
      {
        type: 'custom_tool_call_output',
        call_id: 'call_ok',
        output: '{"received":"SELECT name FROM users"}',
      },
    ]);
    const record = await api.request({ url: `/v1/calls/${body.calls[0]?.id}`, key: team.key });
    expect(record.body).toMatchObject({
      arguments: { input: 'SELECT name FROM users' },
      input_check: 'regex',
    });
  });

  it('refuses text the regex does not match with invalid_arguments the model can read, without running the tool', async () => {
    const before = seen.length;
    const body = await postCalls('openai-chat', {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_bad',
          type: 'custom',
          custom: { name: 'run_select', input: 'DROP TABLE users' },
        },
      ],
    });
    expect(body.tool_results[0]).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_arguments',
        message: expect.stringContaining(`must match the whole regular expression ${SQL_REGEX}`),
      },
    });
    expect(seen.length).toBe(before);
  });

  it('runs a Lark-constrained call unchecked and records that it was not checked', async () => {
    const body = await postCalls('anthropic', {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'add_numbers', input: { input: '1 + 2' } },
      ],
    });
    expect(body.tool_results[0]).toMatchObject({ ok: true });
    const record = await api.request({ url: `/v1/calls/${body.calls[0]?.id}`, key: team.key });
    expect(record.body).toMatchObject({ input_check: 'not_checked' });
  });

  it('lists and calls a free-text tool over MCP with the official client', async () => {
    const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${team.key}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'run_select');
      expect(tool?.inputSchema).toMatchObject({
        type: 'object',
        properties: { input: { type: 'string', pattern: `^(?:${SQL_REGEX})$` } },
        required: ['input'],
      });
      const ok = await client.callTool({
        name: 'run_select',
        arguments: { input: 'SELECT a FROM b' },
      });
      expect(ok.isError).not.toBe(true);
      const bad = await client.callTool({ name: 'run_select', arguments: { input: 'SELECT a' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('invalid_arguments');
    } finally {
      await client.close();
    }
  });

  it('asks for a major version when the grammar changes', async () => {
    const tools = await api.request({ url: '/v1/tools?limit=100', key: team.key });
    const tool = (tools.body.items as Array<{ id: string; name: string }>).find(
      (candidate) => candidate.name === 'run_select',
    );
    const current = await api.request({
      url: `/v1/tools/${tool?.id}/versions/1.0.0`,
      key: team.key,
    });
    const ir = current.body.ir as Record<string, unknown>;
    const response = await api.request({
      method: 'POST',
      url: `/v1/tools/${tool?.id}/versions`,
      key: team.key,
      body: {
        ir: {
          ...ir,
          version: '1.1.0',
          input_format: {
            type: 'text',
            grammar: { syntax: 'regex', definition: `${SQL_REGEX}( LIMIT [0-9]+)?` },
          },
        },
      },
    });
    expect(response.status, response.text).toBe(409);
    expect(response.body).toMatchObject({
      code: 'breaking_change',
      breaking_changes: [
        expect.objectContaining({ kind: 'grammar_changed', path: '/input_format/grammar' }),
      ],
    });
  });
});
