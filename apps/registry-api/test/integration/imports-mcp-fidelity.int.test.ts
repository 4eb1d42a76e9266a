import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 17: an import keeps what the upstream said (older-draft schemas, task support, missing
// annotations, its own error text).

const SECRETS_KEY = `test-1:${randomBytes(32).toString('base64')}`;
const UPSTREAM_TOKEN = `up-${randomBytes(12).toString('hex')}`;
const FAKE_BEARER = 'Bearer sk-live-0123456789abcdefXYZ';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const UPSTREAM_TOOLS: Tool[] = [
  {
    name: 'forecast',
    description: 'The forecast for a place.',
    inputSchema: {
      $schema: DRAFT_07,
      type: 'object',
      properties: { at: { $ref: '#/definitions/point' } },
      required: ['at'],
      definitions: {
        point: {
          type: 'array',
          items: [{ type: 'number' }, { type: 'number' }],
          additionalItems: false,
        },
      },
    },
    outputSchema: {
      $schema: DRAFT_07,
      type: 'object',
      properties: {
        celsius: { type: 'number', minimum: -100, exclusiveMinimum: true },
        place: { $ref: '#/definitions/place' },
      },
      definitions: { place: { type: 'string' } },
      dependencies: { celsius: ['place'] },
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'render_video',
    description: 'Takes an hour.',
    inputSchema: { type: 'object' },
    execution: { taskSupport: 'required' },
  },
  {
    name: 'summarize',
    description: 'May run as a task.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
    execution: { taskSupport: 'optional' },
  },
  { name: 'note', description: 'Writes a note (no annotations).', inputSchema: { type: 'object' } },
  {
    name: 'wipe',
    description: 'Deletes everything.',
    inputSchema: { type: 'object' },
    annotations: { destructiveHint: true },
  },
  { name: 'post_entry', description: 'Fails upstream.', inputSchema: { type: 'object' } },
];

/** A low-level upstream (so its listing is exactly the JSON above and its errors are JSON-RPC errors). */
function buildUpstream(authorization: string | undefined): Server {
  const server = new Server(
    { name: 'fidelity', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: UPSTREAM_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name === 'post_entry') {
      throw new McpError(
        ErrorCode.InternalError,
        `ledger refused ${String(authorization)}; retried with ${FAKE_BEARER}: account 42 is closed, open a new one`,
      );
    }
    return {
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { celsius: 21, place: 'Paris' },
    };
  });
  return server;
}

let api: TestApp;
let team: TestTeam;
let upstream: HttpServer;
let upstreamUrl: string;

beforeAll(async () => {
  api = await startTestApp({ TOOLGATE_SECRETS_KEY: SECRETS_KEY });
  team = await createTeam(api);
  upstream = createServer((request, response) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = buildUpstream(request.headers.authorization);
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  const secret = await api.request({
    method: 'POST',
    url: '/v1/secrets',
    key: team.key,
    body: { name: 'FIDELITY_TOKEN', value: UPSTREAM_TOKEN },
  });
  expect(secret.status, secret.text).toBe(201);
}, 60_000);

afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  await api?.close();
});

interface ImportedToolDto {
  name: string;
  tool_id: string;
  warnings: string[];
  needs_approval: boolean;
}

async function register(body: Record<string, unknown>) {
  const response = await api.request({
    method: 'POST',
    url: '/v1/imports/mcp-servers',
    key: team.key,
    body: {
      url: upstreamUrl,
      publish: true,
      auth: { header: 'Authorization', secret_ref: 'FIDELITY_TOKEN', prefix: 'Bearer ' },
      ...body,
    },
  });
  expect(response.status, response.text).toBe(201);
  return response;
}

function byName(tools: ImportedToolDto[]): Map<string, ImportedToolDto> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

async function irOf(toolId: string): Promise<Record<string, unknown>> {
  const version = await api.request({ url: `/v1/tools/${toolId}/versions/1.0.0`, key: team.key });
  expect(version.status, version.text).toBe(200);
  return version.body.ir as Record<string, unknown>;
}

describe('an MCP import keeps what the upstream said', () => {
  it('imports draft-07 schemas as 2020-12 with a warning per rewrite, and refuses task-only tools', async () => {
    const response = await register({ name: 'fidelity' });
    const added = byName(response.body.added);
    expect([...added.keys()].sort()).toEqual([
      'forecast',
      'note',
      'post_entry',
      'summarize',
      'wipe',
    ]);
    expect(response.body.skipped).toEqual([
      {
        upstream_name: 'render_video',
        reason: expect.stringContaining('task-augmented execution'),
      },
    ]);
    expect(response.body.skipped[0].reason).toContain('not support');

    const forecast = added.get('forecast');
    expect(forecast?.warnings).toEqual(
      expect.arrayContaining([
        `inputSchema / $schema: ${DRAFT_07} is read as draft 2020-12`,
        'inputSchema / definitions: became "$defs"',
        'inputSchema /definitions/point items: the tuple form became "prefixItems"',
        'inputSchema /definitions/point additionalItems: became "items" (after "prefixItems")',
        'inputSchema /properties/at $ref: #/definitions/point became #/$defs/point',
        `outputSchema / $schema: ${DRAFT_07} is read as draft 2020-12`,
        'outputSchema / dependencies: became "dependentRequired" / "dependentSchemas"',
        'outputSchema /properties/celsius exclusiveMinimum: true became the bound -100',
      ]),
    );
    const ir = await irOf(forecast?.tool_id ?? '');
    expect(ir['parameters']).toEqual({
      type: 'object',
      properties: { at: { $ref: '#/$defs/point' } },
      required: ['at'],
      $defs: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          items: false,
        },
      },
    });
    expect(ir['outputSchema']).toEqual({
      type: 'object',
      properties: {
        celsius: { type: 'number', exclusiveMinimum: -100 },
        place: { $ref: '#/$defs/place' },
      },
      $defs: { place: { type: 'string' } },
      dependentRequired: { celsius: ['place'] },
    });

    const summarize = await irOf(added.get('summarize')?.tool_id ?? '');
    expect(summarize['protocol_meta']).toMatchObject({ execution: { taskSupport: 'optional' } });

    // MCP's defaults: the three tools without a destructive hint, and `wipe`, wait for approval.
    expect(added.get('note')?.needs_approval).toBe(true);
    expect(added.get('wipe')?.needs_approval).toBe(true);
    expect(added.get('forecast')?.needs_approval).toBe(false);
    expect(response.body.tools_needing_approval).toBe(3);
  });

  it("applies the operator's defaults only where the upstream gave no hint, and keeps them for syncs", async () => {
    const response = await register({
      name: 'fidelity-defaults',
      name_prefix: 'd_',
      defaults: { destructive: false, idempotent: true, open_world: false },
    });
    const added = byName(response.body.added);
    expect(added.get('d_note')?.needs_approval).toBe(false);
    expect(added.get('d_wipe')?.needs_approval).toBe(true);
    expect(response.body.tools_needing_approval).toBe(1);
    const note = await irOf(added.get('d_note')?.tool_id ?? '');
    expect(note['behavior']).toMatchObject({
      readonly: false,
      destructive: false,
      idempotent: true,
      open_world: false,
    });
    const wipe = await irOf(added.get('d_wipe')?.tool_id ?? '');
    expect(wipe['behavior']).toMatchObject({ destructive: true, idempotent: true });

    const sync = await api.request({
      method: 'POST',
      url: `/v1/imports/mcp-servers/${response.body.server.id}/sync`,
      key: team.key,
    });
    expect(sync.status, sync.text).toBe(200);
    expect(sync.body).toMatchObject({
      added: [],
      changed: [],
      removed: [],
      tools_needing_approval: 1,
    });
    expect(sync.body.unchanged).toHaveLength(5);
  });

  it("returns the upstream's own error text to the model, scrubbed of credentials", async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [{ id: `call-${randomUUID()}`, name: 'd_post_entry', arguments: {} }],
    });
    expect(response.status, response.text).toBe(200);
    const result = response.body.results[0];
    // The classification stays what it was; only the message now carries the upstream's words.
    expect(result).toMatchObject({ ok: false, error: { code: 'internal', retryable: false } });
    expect(result.error.message).toContain('account 42 is closed, open a new one');
    expect(result.error.message).toContain('Bearer [redacted]');
    expect(response.text).not.toContain(UPSTREAM_TOKEN);
    expect(response.text).not.toContain('sk-live-0123456789abcdefXYZ');
    expect(result.error.message.length).toBeLessThan(700);
  });
});
