import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PROVIDERS } from '@toolgate/adapters';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { createTeam, type TestTeam } from '../factories/registry.factory';
import { startTestApp, type TestApp } from '../support/test-app';

const PETSTORE = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../src/imports/__fixtures__/petstore-openapi-3.0.json'),
    'utf8',
  ),
) as Record<string, unknown>;

// The official MCP schemas, kept in the repository (conformance/mcp/README.md).
const MCP_SCHEMA = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../../../../conformance/mcp/schema-2025-11-25.json'),
    'utf8',
  ),
) as object;
// ajv-formats ships CommonJS with a default export; under ESM interop it may sit one level down.
const addFormats =
  (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule;
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  validateSchema: false,
  ownProperties: true,
});
addFormats(ajv);
ajv.addSchema(MCP_SCHEMA, 'mcp-2025-11-25.json');
const validateMcpTool = ajv.getSchema('mcp-2025-11-25.json#/$defs/Tool')!;

/** The parts of a stored ToolIR the test reads. */
interface StoredIR {
  parameters: {
    required?: string[];
    properties: Record<string, { properties?: Record<string, unknown> }>;
  };
  behavior: Record<string, unknown>;
  protocol_meta: { toolgate: { executor: Record<string, unknown> } };
}

let api: TestApp;
let team: TestTeam;
let petstore: Server;
let petstoreUrl: string;
const received: Array<{
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}> = [];

/** A received multipart body, read back the way a server framework would. */
function formOf(request: (typeof received)[number] | undefined): Promise<FormData> {
  return new Response(request?.body, {
    headers: { 'content-type': String(request?.headers['content-type']) },
  }).formData();
}

/** Plays the Petstore API for the operations the test calls. */
function playPetstore(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    answerPetstore(request, response);
  });
}

function answerPetstore(request: IncomingMessage, response: ServerResponse): void {
  if (request.method === 'GET' && request.url?.startsWith('/api/v3/pet/findByTags?')) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify([{ id: 10, name: 'doggie', photoUrls: [], status: 'available' }]));
    return;
  }
  if (request.method === 'PUT' && request.url?.startsWith('/api/v3/user/')) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ updated: true }));
    return;
  }
  if (request.method === 'POST' && request.url === '/api/v3/readings') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ recorded: true }));
    return;
  }
  // A file a model may name by URL instead of sending its bytes.
  if (request.method === 'GET' && request.url === '/files/annex.pdf') {
    response.writeHead(200, { 'content-type': 'application/pdf' });
    response.end('%PDF-1.7 annex');
    return;
  }
  if (request.method === 'POST' && request.url === '/api/v3/documents') {
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ stored: true }));
    return;
  }
  if (request.method === 'POST' && request.url === '/api/v3/charges') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ charged: true }));
    return;
  }
  if (request.method === 'POST' && request.url === '/api/v3/user/createWithList') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ created: true }));
    return;
  }
  const order = /^\/api\/v3\/store\/order\/(\d+)$/.exec(request.url ?? '');
  if (request.method === 'GET' && order) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: Number(order[1]),
        petId: 198772,
        quantity: 7,
        status: 'approved',
        complete: true,
      }),
    );
    return;
  }
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ code: 404, message: 'not found' }));
}

async function snapshot(): Promise<unknown> {
  const rows = await api.sql(`
    SELECT
      (SELECT count(*) FROM tools)::int AS tools,
      (SELECT count(*) FROM tool_versions)::int AS tool_versions,
      (SELECT count(*) FROM releases)::int AS releases,
      (SELECT count(*) FROM mcp_servers)::int AS mcp_servers,
      (SELECT md5(coalesce(string_agg(v::text, '|' ORDER BY v.id), '')) FROM tool_versions v) AS versions_digest,
      (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r.tool_id), '')) FROM releases r) AS releases_digest,
      (SELECT hash FROM audit_chain_head) AS audit_head`);
  return rows[0];
}

function importPetstore(body: Record<string, unknown>) {
  return api.request({
    method: 'POST',
    url: '/v1/imports/openapi',
    key: team.key,
    body: { document: PETSTORE, base_url: `${petstoreUrl}/api/v3`, ...body },
  });
}

beforeAll(async () => {
  api = await startTestApp();
  team = await createTeam(api);
  petstore = createServer(playPetstore);
  await new Promise<void>((resolve) => petstore.listen(0, '127.0.0.1', resolve));
  petstoreUrl = `http://127.0.0.1:${(petstore.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (petstore ? petstore.close(() => resolve()) : resolve()));
  await api?.close();
});

describe('POST /v1/imports/openapi with the Swagger Petstore 3.0 document', () => {
  it('creates one published tool per representable operation and says why the others were skipped', async () => {
    const response = await importPetstore({ publish: true, tags: ['petstore'] });
    expect(response.status, response.text).toBe(200);
    const names = response.body.tools.map((tool: { name: string }) => tool.name).sort();
    expect(names).toEqual(
      [
        'addPet',
        'createUser',
        'createUsersWithListInput',
        'deleteOrder',
        'deletePet',
        'deleteUser',
        'findPetsByStatus',
        'findPetsByTags',
        'getInventory',
        'getOrderById',
        'getPetById',
        'getUserByName',
        'loginUser',
        'logoutUser',
        'placeOrder',
        'updatePet',
        'updatePetWithForm',
        'updateUser',
      ].sort(),
    );
    expect(
      response.body.skipped.map((skip: { operation_id: string }) => skip.operation_id).sort(),
    ).toEqual(['uploadFile']);
    // The http executor sends JSON only; an octet-stream upload stays out.
    expect(response.body.skipped[0].reason).toMatch(/application\/octet-stream/);
    for (const tool of response.body.tools) {
      expect(tool).toMatchObject({ action: 'created', version: '1.0.0', status: 'published' });
      for (const provider of PROVIDERS)
        expect(tool.exports[provider], `${tool.name} ${provider}`).toMatchObject({ valid: true });
    }
  });

  it('says which secrets each imported tool needs, and that the team has not set them', async () => {
    const response = await importPetstore({ name_prefix: 'needs_', dry_run: true });
    expect(response.status, response.text).toBe(200);
    const secrets = Object.fromEntries(
      response.body.tools.map((tool: { name: string; secrets: unknown }) => [
        tool.name,
        tool.secrets,
      ]),
    );
    expect(secrets['needs_getPetById']).toEqual([{ name: 'api_key', set: false }]);
    expect(secrets['needs_addPet']).toEqual([{ name: 'petstore_auth', set: false }]);
    expect(secrets['needs_logoutUser']).toEqual([]);
  });

  it('maps parameters, body, behavior and security (as secret references, never values) into the ToolIR', async () => {
    const tools = await api.request({ url: '/v1/tools?tag=petstore&limit=100', key: team.key });
    const byName = new Map<string, { id: string }>(
      tools.body.items.map((tool: { name: string; id: string }) => [tool.name, tool]),
    );
    const version = async (name: string) => {
      const found = await api.request({
        url: `/v1/tools/${byName.get(name)!.id}/versions/1.0.0`,
        key: team.key,
      });
      expect(found.status, found.text).toBe(200);
      return found.body.ir as StoredIR;
    };
    const getPet = await version('getPetById');
    expect(getPet.parameters).toMatchObject({
      type: 'object',
      properties: { petId: { type: 'integer', format: 'int64' } },
      required: ['petId'],
    });
    expect(getPet.behavior).toMatchObject({ readonly: true, idempotent: true, destructive: false });
    expect(getPet.protocol_meta.toolgate.executor).toEqual({
      kind: 'http',
      method: 'GET',
      url: `${petstoreUrl}/api/v3/pet/{petId}`,
      headers: { api_key: { secret: 'api_key' } },
      parameters: { petId: { in: 'path' } },
      body: 'none',
      query: 'none',
      max_response_bytes: 1048576,
    });
    const findByTags = await version('findPetsByTags');
    expect(findByTags.protocol_meta.toolgate.executor).toMatchObject({
      parameters: { tags: { in: 'query', explode: true } },
    });
    const deletePet = await version('deletePet');
    expect(deletePet.parameters.properties).toHaveProperty('api_key');
    expect(deletePet.protocol_meta.toolgate.executor).toMatchObject({
      headers: { Authorization: { secret: 'petstore_auth', prefix: 'Bearer ' } },
      parameters: { api_key: { in: 'header' }, petId: { in: 'path' } },
    });
    // The body's `username` would clash with the path parameter: the body is one argument.
    const updateUser = await version('updateUser');
    expect(updateUser.parameters.required).toEqual(['username']);
    expect(Object.keys(updateUser.parameters.properties).sort()).toEqual(['body', 'username']);
    expect(updateUser.protocol_meta.toolgate.executor).toMatchObject({
      parameters: { username: { in: 'path' } },
      body: { argument: 'body' },
    });
    const createWithList = await version('createUsersWithListInput');
    expect(createWithList.parameters.properties['body']).toMatchObject({ type: 'array' });
    const addPet = await version('addPet');
    expect(addPet.parameters.required).toEqual(['name', 'photoUrls']);
    expect(addPet.parameters.properties['category']?.properties?.['name']).toMatchObject({
      type: 'string',
    });
    expect(addPet.protocol_meta.toolgate.executor).toMatchObject({
      method: 'POST',
      body: 'remaining_arguments',
      headers: { Authorization: { secret: 'petstore_auth', prefix: 'Bearer ' } },
    });
    expect(deletePet.behavior).toMatchObject({
      destructive: true,
      idempotent: true,
      readonly: false,
    });
    const updatePet = await version('updatePet');
    expect(updatePet.behavior).toMatchObject({
      destructive: false,
      idempotent: true,
      readonly: false,
    });
  });

  it("indexes an imported tool's parameter names for search, as a publish through the API does", async () => {
    const found = await api.request({
      url: '/v1/tools/search?q=photoUrls&limit=10',
      key: team.key,
    });
    expect(found.status, found.text).toBe(200);
    const names = found.body.items.map((tool: { name: string }) => tool.name);
    // addPet and updatePet take a Pet body, the only schema with photoUrls.
    expect(names).toEqual(expect.arrayContaining(['addPet', 'updatePet']));
  });

  it('exports validly in every provider format through GET /v1/exports (MCP checked against the 2025-11-25 schema)', async () => {
    for (const format of PROVIDERS) {
      const response = await api.request({
        url: `/v1/exports?format=${format}&tags=petstore`,
        key: team.key,
      });
      expect(response.status, `${format}: ${response.text}`).toBe(200);
      const tools = response.body.tools as Array<{ functionDeclarations?: unknown[] }>;
      // Gemini groups every function into one `functionDeclarations` entry.
      const count =
        format === 'gemini' ? (tools[0]?.functionDeclarations?.length ?? 0) : tools.length;
      expect(count, format).toBe(18);
      if (format === 'mcp') {
        for (const tool of tools) {
          const ok = validateMcpTool(tool);
          expect(validateMcpTool.errors ?? [], JSON.stringify(tool).slice(0, 200)).toEqual([]);
          expect(ok).toBe(true);
        }
      }
    }
  });

  it('calls an imported tool through the gateway against the local Petstore', async () => {
    received.length = 0;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [{ id: `call-${randomUUID()}`, name: 'getOrderById', arguments: { orderId: 7 } }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      ok: true,
      name: 'getOrderById',
      data: { id: 7, status: 'approved' },
    });
    expect(received).toEqual([
      expect.objectContaining({ method: 'GET', url: '/api/v3/store/order/7' }),
    ]);
  });

  it('sends a path argument beside a whole-object body and an array body through the gateway', async () => {
    received.length = 0;
    const user = { id: 1, username: 'alice2', email: 'alice@example.com' };
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: `call-${randomUUID()}`,
          name: 'updateUser',
          arguments: { username: 'alice smith', body: user },
        },
        {
          id: `call-${randomUUID()}`,
          name: 'createUsersWithListInput',
          arguments: { body: [user] },
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results).toMatchObject([
      { ok: true, data: { updated: true } },
      { ok: true, data: { created: true } },
    ]);
    // JSON bodies compared as values: the gateway may order the keys canonically.
    expect(
      received.map(({ method, url, body }) => ({ method, url, body: JSON.parse(body) as unknown })),
    ).toEqual(
      expect.arrayContaining([
        { method: 'PUT', url: '/api/v3/user/alice%20smith', body: user },
        { method: 'POST', url: '/api/v3/user/createWithList', body: [user] },
      ]),
    );
  });

  it('sends a query array (form, exploded) and a header argument through the gateway', async () => {
    // findPetsByTags with a request-id header and no security, so no secret store is needed.
    const traced = structuredClone(PETSTORE) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const findByTags = traced.paths['/pet/findByTags']!['get']!;
    findByTags['parameters'] = [
      ...(findByTags['parameters'] as unknown[]),
      { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } },
    ];
    findByTags['security'] = [];
    const imported = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: {
        document: { ...traced, paths: { '/pet/findByTags': traced.paths['/pet/findByTags'] } },
        base_url: `${petstoreUrl}/api/v3`,
        name_prefix: 'traced_',
        tags: ['petstore-traced'],
        publish: true,
      },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'traced_findPetsByTags',
    ]);
    received.length = 0;
    const call = (argumentsOfCall: Record<string, unknown>) =>
      api.request({
        method: 'POST',
        url: '/v1/calls/ir',
        key: team.key,
        body: [
          { id: `call-${randomUUID()}`, name: 'traced_findPetsByTags', arguments: argumentsOfCall },
        ],
      });
    const response = await call({ tags: ['tag1', 'tag 2&3'], X_Request_Id: 'req-42' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({
      ok: true,
      data: [{ id: 10, name: 'doggie' }],
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      method: 'GET',
      url: '/api/v3/pet/findByTags?tags=tag1&tags=tag%202%263',
      headers: { 'x-request-id': 'req-42' },
    });
    // A header value that would start a second header line never leaves the gateway.
    const injected = await call({ tags: ['tag1'], X_Request_Id: 'req\r\nX-Admin: yes' });
    expect(injected.status, injected.text).toBe(200);
    expect(injected.body.results[0]).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', retryable: false },
    });
    expect(received).toHaveLength(1);
  });

  it('sends a form-urlencoded body through the gateway for an operation that takes no JSON', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Charges', version: '1.0.0' },
      servers: [{ url: `${petstoreUrl}/api/v3` }],
      paths: {
        '/charges': {
          post: {
            operationId: 'createCharge',
            requestBody: {
              required: true,
              content: {
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    properties: {
                      amount: { type: 'integer' },
                      expand: { type: 'array', items: { type: 'string' } },
                      metadata: { type: 'object', properties: { order: { type: 'string' } } },
                    },
                    required: ['amount'],
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const imported = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document, name_prefix: 'form_', publish: true },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.skipped).toEqual([]);
    received.length = 0;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: `call-${randomUUID()}`,
          name: 'form_createCharge',
          arguments: { amount: 2000, expand: ['customer', 'invoice'], metadata: { order: 'A 17' } },
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true, data: { charged: true } });
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(received[0]?.body).toBe(
      'amount=2000&expand=customer&expand=invoice&metadata%5Border%5D=A+17',
    );
  });

  it('exports a property key Anthropic refuses renamed, and the call sends it under its own name', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Readings', version: '1.0.0' },
      servers: [{ url: `${petstoreUrl}/api/v3` }],
      paths: {
        '/readings': {
          post: {
            operationId: 'recordReading',
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { 'value (celsius)': { type: 'number' } },
                    required: ['value (celsius)'],
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const imported = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document, name_prefix: 'keys_', tags: ['renamed-keys'], publish: true },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.tools[0].exports.anthropic.valid).toBe(true);
    const exported = await api.request({
      url: '/v1/exports?format=anthropic&tags=renamed-keys',
      key: team.key,
    });
    const [definition] = exported.body.tools as Array<{
      name: string;
      input_schema: { properties: Record<string, unknown> };
    }>;
    const [wireKey] = Object.keys(definition!.input_schema.properties);
    expect(wireKey).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
    received.length = 0;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls',
      key: team.key,
      body: {
        provider: 'anthropic',
        payload: {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_r1',
              name: definition!.name,
              input: { [wireKey!]: 21.5 },
            },
          ],
        },
        snapshot: exported.body.snapshot,
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.tool_results[0]).toMatchObject({ ok: true, data: { recorded: true } });
    expect(JSON.parse(received[0]?.body ?? '{}')).toEqual({ 'value (celsius)': 21.5 });
  });

  it('sends a multipart body with a file through the gateway, as base64 or fetched from a URL', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'Documents', version: '1.0.0' },
      servers: [{ url: `${petstoreUrl}/api/v3` }],
      paths: {
        '/documents': {
          post: {
            operationId: 'uploadDocument',
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    properties: {
                      title: { type: 'string' },
                      file: { type: 'string', format: 'binary' },
                    },
                    required: ['file'],
                  },
                },
              },
            },
            responses: { '201': { description: 'stored' } },
          },
        },
      },
    };
    const imported = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document, name_prefix: 'multipart_', publish: true },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.skipped).toEqual([]);
    received.length = 0;
    const response = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: `call-${randomUUID()}`,
          name: 'multipart_uploadDocument',
          arguments: {
            title: 'Q3 report',
            file: {
              base64: Buffer.from('%PDF-1.7 tiny').toString('base64'),
              filename: 'q3.pdf',
              content_type: 'application/pdf',
            },
          },
        },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.results[0]).toMatchObject({ ok: true, data: { stored: true } });
    expect(received).toHaveLength(1);
    const form = await formOf(received[0]);
    expect(form.get('title')).toBe('Q3 report');
    const file = form.get('file') as File;
    expect([file.name, file.type, await file.text()]).toEqual([
      'q3.pdf',
      'application/pdf',
      '%PDF-1.7 tiny',
    ]);

    // By URL: the gateway fetches the file (under the egress rules) and sends its bytes.
    received.length = 0;
    const byUrl = await api.request({
      method: 'POST',
      url: '/v1/calls/ir',
      key: team.key,
      body: [
        {
          id: `call-${randomUUID()}`,
          name: 'multipart_uploadDocument',
          arguments: { title: 'Annex', file: { url: `${petstoreUrl}/files/annex.pdf` } },
        },
        {
          id: `call-${randomUUID()}`,
          name: 'multipart_uploadDocument',
          arguments: { title: 'Gone', file: { url: `${petstoreUrl}/files/missing.pdf?token=abc` } },
        },
      ],
    });
    expect(byUrl.status, byUrl.text).toBe(200);
    expect(byUrl.body.results[0]).toMatchObject({ ok: true, data: { stored: true } });
    expect(byUrl.body.results[1]).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: expect.stringContaining('HTTP 404') },
    });
    expect(JSON.stringify(byUrl.body.results[1])).not.toContain('token=abc');
    const upload = received.find((request) => request.url === '/api/v3/documents');
    const annex = (await formOf(upload)).get('file') as File;
    expect([annex.name, annex.type, await annex.text()]).toEqual([
      'annex.pdf',
      'application/pdf',
      '%PDF-1.7 annex',
    ]);
  });

  it("imports OpenAI's own 3.4 MB description on the default body limit: all 288 operations", async () => {
    const document = readFileSync(
      path.resolve(import.meta.dirname, '../../src/imports/__fixtures__/openai/openapi.json'),
      'utf8',
    );
    expect(document.length).toBeGreaterThan(3_000_000);
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      // As text, as a client posting the file would.
      body: { document, base_url: petstoreUrl, name_prefix: 'oai_', dry_run: true },
    });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.body.tools).toHaveLength(288);
    expect(response.body.skipped).toEqual([]);
    // Every tool, the recursive ones included, exports to every format.
    for (const tool of response.body.tools as Array<{
      name: string;
      exports: Record<string, { valid: boolean }>;
    }>)
      for (const [format, validity] of Object.entries(tool.exports))
        expect(validity.valid, `${tool.name} ${format}`).toBe(true);
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it("imports ReadMe's public Star Trek API (120 operations, 40 with form bodies) with none skipped", async () => {
    const document = JSON.parse(
      readFileSync(
        path.resolve(
          import.meta.dirname,
          '../../src/imports/__fixtures__/oas-examples/star-trek.json',
        ),
        'utf8',
      ),
    ) as Record<string, unknown>;
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document, base_url: petstoreUrl, name_prefix: 'trek_', dry_run: true },
    });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.body.tools).toHaveLength(120);
    expect(response.body.skipped).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('writes nothing when the same document is imported again', async () => {
    const before = await snapshot();
    const response = await importPetstore({ publish: true, tags: ['petstore'] });
    expect(response.status, response.text).toBe(200);
    for (const tool of response.body.tools)
      expect(tool).toMatchObject({ action: 'unchanged', version: '1.0.0' });
    expect(await snapshot()).toEqual(before);
  });

  it('versions changed operations under the breaking-change rules', async () => {
    const changed = structuredClone(PETSTORE) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    // Breaking: a new required argument.
    const byStatus = changed.paths['/pet/findByStatus']!['get']!;
    byStatus['parameters'] = [
      ...(byStatus['parameters'] as unknown[]),
      { name: 'limit', in: 'query', required: true, schema: { type: 'integer' } },
    ];
    // Compatible: a new optional argument.
    const login = changed.paths['/user/login']!['get']!;
    login['parameters'] = [
      ...(login['parameters'] as unknown[]),
      { name: 'otp', in: 'query', schema: { type: 'string' } },
    ];
    // Neither: only the description.
    changed.paths['/store/order/{orderId}']!['get']!['summary'] = 'Find a purchase order by its ID';
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: {
        document: changed,
        base_url: `${petstoreUrl}/api/v3`,
        publish: true,
        tags: ['petstore'],
      },
    });
    expect(response.status, response.text).toBe(200);
    const byName = new Map<string, Record<string, unknown>>(
      response.body.tools.map((tool: { name: string }) => [tool.name, tool]),
    );
    expect(byName.get('findPetsByStatus')).toMatchObject({
      action: 'new_version',
      version: '2.0.0',
      bump: 'major',
      previous_version: '1.0.0',
    });
    expect(byName.get('loginUser')).toMatchObject({
      action: 'new_version',
      version: '1.1.0',
      bump: 'minor',
    });
    expect(byName.get('getOrderById')).toMatchObject({
      action: 'new_version',
      version: '1.0.1',
      bump: 'patch',
    });
    expect(byName.get('getPetById')).toMatchObject({ action: 'unchanged', version: '1.0.0' });
    const tool = await api.request({
      url: `/v1/tools/${String(byName.get('findPetsByStatus')!['tool_id'])}`,
      key: team.key,
    });
    expect(tool.body.release).toMatchObject({ stable_version: '2.0.0' });
    const audit = await api.request({
      url: '/v1/audit?action=import.openapi&limit=5',
      key: team.key,
    });
    expect(audit.status, audit.text).toBe(200);
    expect(audit.body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('imports a YAML text as a dry run without writing, as drafts by default', async () => {
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: {
        document: toYaml(PETSTORE),
        base_url: 'https://petstore3.example.com/api/v3',
        name_prefix: 'dry_',
        dry_run: true,
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.dry_run).toBe(true);
    expect(response.body.tools).toHaveLength(18);
    expect(response.body.tools[0]).toMatchObject({ action: 'created', status: 'draft' });
    expect(response.body.tools[0].name).toMatch(/^dry_/);
    expect(await snapshot()).toEqual(before);
  });

  it('imports drafts by default and publishes them, unchanged, when imported again with publish', async () => {
    const drafted = await importPetstore({ name_prefix: 'staged_' });
    expect(drafted.status, drafted.text).toBe(200);
    expect(drafted.body.tools[0]).toMatchObject({ action: 'created', status: 'draft' });
    const published = await importPetstore({ name_prefix: 'staged_', publish: true });
    expect(published.status, published.text).toBe(200);
    for (const tool of published.body.tools) {
      expect(tool).toMatchObject({
        action: 'published_draft',
        version: '1.0.0',
        status: 'published',
      });
    }
    const tool = await api.request({
      url: `/v1/tools/${published.body.tools[0].tool_id}`,
      key: team.key,
    });
    expect(tool.body.release).toMatchObject({ stable_version: '1.0.0' });
  });

  it('skips every operation, with the reason, when the server URL is relative and no base_url is given', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: { document: PETSTORE, dry_run: true },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.tools).toEqual([]);
    expect(response.body.skipped[0].reason).toMatch(/base_url/);
  });
});

describe('POST /v1/imports/openapi refuses bad input and writes nothing', () => {
  const withoutTitle = () => {
    const document = structuredClone(PETSTORE) as { info: Record<string, unknown> };
    delete document.info['title'];
    return document;
  };
  const missingRef = () => {
    const document = structuredClone(PETSTORE) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    document.paths['/pet']!['post']!['requestBody'] = { $ref: '#/components/requestBodies/Nope' };
    return document;
  };
  const cases: Array<[string, () => Record<string, unknown>, number, RegExp]> = [
    ['a document the OpenAPI schema rejects', () => ({ document: withoutTitle() }), 422, /title/],
    ['a dangling $ref', () => ({ document: missingRef() }), 422, /Nope|pointer|resolve/i],
    [
      'a Swagger 2.0 document',
      () => ({ document: { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} } }),
      422,
      /openapi/,
    ],
    ['text that is neither JSON nor YAML', () => ({ document: 'openapi: [3.0\n  : :' }), 422, /.+/],
    ['a YAML scalar', () => ({ document: 'just words' }), 422, /object/],
    [
      'an ftp base_url',
      () => ({ document: PETSTORE, base_url: 'ftp://example.com' }),
      400,
      /base_url/,
    ],
    ['an unknown option', () => ({ document: PETSTORE, publsh: true }), 400, /publsh/],
    ['a bad tag', () => ({ document: PETSTORE, tags: ['Not A Tag'] }), 400, /tags/],
  ];

  it.each(cases)('%s', async (_name, body, status, pattern) => {
    const before = await snapshot();
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      key: team.key,
      body: body(),
    });
    expect(response.status, response.text).toBe(status);
    expect(response.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(response.body.errors)).toMatch(pattern);
    expect(await snapshot()).toEqual(before);
  });

  it('asks the installation admin key to name the team', async () => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/imports/openapi',
      body: { document: PETSTORE },
    });
    expect(response.status, response.text).toBe(400);
    expect(response.body.errors[0].path).toBe('/body/team_id');
  });
});
