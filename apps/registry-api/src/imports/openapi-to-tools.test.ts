import { parseToolIR } from '@toolgate/toolir';
import { describe, expect, it } from 'vitest';
import { ToolException } from '../problem/tool.exception';
import { loadOpenApiDocument } from './openapi-document';
import { openApiSchemaToJsonSchema } from './openapi-schema';
import { behaviorOfMethod, openApiToTools } from './openapi-to-tools';
import { sanitizeToolName, uniqueName } from './tool-names';

function documentWith(
  paths: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Test', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/{stage}', variables: { stage: { default: 'v1' } } }],
    paths,
    ...extra,
  };
}

const ok = { responses: { '200': { description: 'ok' } } };

describe('openApiSchemaToJsonSchema', () => {
  it('turns 3.0 nullable, boolean exclusive bounds and example into JSON Schema 2020-12', () => {
    expect(
      openApiSchemaToJsonSchema(
        {
          type: 'integer',
          nullable: true,
          minimum: 0,
          exclusiveMinimum: true,
          example: 3,
          xml: { name: 'n' },
          'x-internal': 1,
        },
        '3.0',
      ),
    ).toEqual({ type: ['integer', 'null'], exclusiveMinimum: 0, examples: [3] });
  });

  it("writes older drafts' keywords as 2020-12 spells them", () => {
    expect(
      openApiSchemaToJsonSchema(
        {
          $schema: 'http://json-schema.org/draft-07/schema#',
          $recursiveAnchor: true,
          id: 'urn:point',
          type: 'object',
          properties: {
            pair: {
              type: 'array',
              items: [{ type: 'number' }, { type: 'number' }],
              additionalItems: false,
            },
          },
          dependencies: { street: ['city'], card: { required: ['cvc'] } },
        },
        '3.1',
      ),
    ).toEqual({
      type: 'object',
      properties: {
        pair: {
          type: 'array',
          prefixItems: [{ type: 'number' }, { type: 'number' }],
          items: false,
        },
      },
      dependentRequired: { street: ['city'] },
      dependentSchemas: { card: { required: ['cvc'] } },
    });
    // What the import stores is a valid ToolIR (the raw 2019-09 keywords failed its schema check).
    const recursiveAnchored = openApiSchemaToJsonSchema(
      { type: 'object', $recursiveAnchor: true, properties: { q: { type: 'string' } } },
      '3.1',
    ) as Record<string, unknown>;
    expect(() =>
      parseToolIR({
        schema_version: '1.0',
        id: '6f1d0b5c-3f2e-4c8a-9a57-3e2d7c1b9f40',
        name: 'anchored',
        version: '1.0.0',
        description: 'x',
        parameters: recursiveAnchored,
        behavior: { readonly: true, destructive: false, idempotent: true },
        constraints: { timeout_ms: 5000 },
      }),
    ).not.toThrow();
    // A property named "id" is data, not the draft-04 keyword.
    expect(
      openApiSchemaToJsonSchema({ type: 'object', properties: { id: { type: 'string' } } }, '3.1'),
    ).toEqual({ type: 'object', properties: { id: { type: 'string' } } });
    expect(() =>
      openApiSchemaToJsonSchema({ type: 'array', items: { $recursiveRef: '#' } }, '3.1'),
    ).toThrow(/recursive/);
  });

  it('writes a recursive schema as $defs and $refs when given somewhere to put them', () => {
    const node: Record<string, unknown> = {
      title: 'Node',
      type: 'object',
      properties: { name: { type: 'string' } },
    };
    (node['properties'] as Record<string, unknown>)['children'] = { type: 'array', items: node };
    const defs: Record<string, unknown> = {};
    const body = openApiSchemaToJsonSchema({ type: 'object', properties: { root: node } }, '3.1', {
      defs,
    });
    expect(body).toEqual({ type: 'object', properties: { root: { $ref: '#/$defs/Node' } } });
    expect(defs).toEqual({
      Node: {
        title: 'Node',
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/Node' } },
        },
      },
    });
    // 2019-09: $recursiveRef names the innermost $recursiveAnchor.
    const anchoredDefs: Record<string, unknown> = {};
    const item = openApiSchemaToJsonSchema(
      {
        type: 'object',
        properties: {
          content: {
            $recursiveAnchor: true,
            type: 'object',
            properties: { parts: { type: 'array', items: { $recursiveRef: '#' } } },
          },
        },
      },
      '3.1',
      { defs: anchoredDefs },
    );
    expect(item).toEqual({
      type: 'object',
      properties: { content: { $ref: '#/$defs/recursive' } },
    });
    expect(anchoredDefs['recursive']).toEqual({
      type: 'object',
      properties: { parts: { type: 'array', items: { $ref: '#/$defs/recursive' } } },
    });
  });

  it('refuses a recursive schema', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node['properties'] as Record<string, unknown>)['child'] = node;
    expect(() => openApiSchemaToJsonSchema(node, '3.0')).toThrow(/recursive/);
    expect(() => openApiSchemaToJsonSchema({ $ref: '#/components/schemas/Node' }, '3.1')).toThrow(
      /recursive/,
    );
  });
});

describe('openApiToTools', () => {
  it('fills server variables and builds the URL template, arguments and behavior', () => {
    const result = openApiToTools(
      documentWith({
        '/items/{item-id}': {
          parameters: [{ name: 'item-id', in: 'path', required: true, schema: { type: 'string' } }],
          get: { operationId: 'get item!', summary: 'Get an item', ...ok },
          delete: { ...ok },
        },
      }),
    );
    expect(result.skipped).toEqual([]);
    const [get, remove] = result.tools;
    expect(get?.name).toBe('get_item');
    expect(get?.description).toBe('Get an item');
    expect(get?.parameters).toEqual({
      type: 'object',
      properties: { item_id: { type: 'string' } },
      required: ['item_id'],
      additionalProperties: false,
    });
    expect(get?.protocolMeta).toMatchObject({
      toolgate: {
        executor: {
          method: 'GET',
          url: 'https://api.example.com/v1/items/{item-id}',
          parameters: { item_id: { in: 'path', name: 'item-id' } },
          body: 'none',
          query: 'none',
        },
      },
    });
    expect(remove?.name).toBe('delete_items_item-id');
    expect(remove?.behavior).toMatchObject({ destructive: true, idempotent: true });
  });

  it('skips what the http executor cannot send, with the reason', () => {
    const result = openApiToTools(
      documentWith({
        '/a': {
          get: {
            operationId: 'hostHeader',
            parameters: [
              { name: 'Host', in: 'header', required: true, schema: { type: 'string' } },
            ],
            ...ok,
          },
          put: {
            operationId: 'formOnly',
            requestBody: {
              content: { 'application/x-www-form-urlencoded': { schema: { type: 'array' } } },
            },
            ...ok,
          },

          patch: {
            operationId: 'queryKey',
            security: [{ queryKey: [] }],
            ...ok,
          },
          options: { operationId: 'options', ...ok },
        },
        '/upload': {
          post: {
            operationId: 'xmlOnly',
            requestBody: { content: { 'application/xml': { schema: { type: 'object' } } } },
            ...ok,
          },
        },
        '/m/{id}': {
          get: {
            operationId: 'headerForm',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'X-Ids', in: 'header', style: 'form', schema: { type: 'array' } },
            ],
            ...ok,
          },
          post: {
            operationId: 'contentHeader',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
              {
                name: 'X-Filter',
                in: 'header',
                content: { 'application/json': { schema: { type: 'object' } } },
              },
            ],
            ...ok,
          },
        },
        '/u/{undeclared}': { get: { operationId: 'undeclared', ...ok } },
      }),
      {},
    );
    expect(result.tools).toEqual([]);
    expect(
      Object.fromEntries(result.skipped.map((skip) => [skip.operation_id, skip.reason])),
    ).toEqual({
      hostHeader: expect.stringMatching(/required header parameter "Host".*sets that header/),
      formOnly: expect.stringMatching(/form-urlencoded request body must be an object/),
      xmlOnly: expect.stringMatching(/no JSON, form-urlencoded or multipart\/form-data media type/),
      queryKey: expect.stringMatching(/security scheme "queryKey"/),
      options: expect.stringMatching(/OPTIONS/),
      headerForm: expect.stringMatching(/style "form"/),
      contentHeader: expect.stringMatching(/header parameter "X-Filter".*media type/),
      undeclared: expect.stringMatching(/\{undeclared\} has no path parameter/),
    });
  });

  it('maps query (with style), header and cookie parameters beside a JSON body', () => {
    const [tool, ...others] = openApiToTools(
      documentWith({
        '/orders/{id}': {
          post: {
            operationId: 'updateOrder',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
              {
                name: 'tags',
                in: 'query',
                style: 'pipeDelimited',
                explode: false,
                schema: { type: 'array', items: { type: 'string' } },
              },
              {
                name: 'filter',
                in: 'query',
                style: 'deepObject',
                explode: true,
                schema: { type: 'object' },
              },
              { name: 'id', in: 'query', schema: { type: 'string' } },
              { name: 'X-Request-Id', in: 'header', required: true, schema: { type: 'string' } },
              { name: 'Accept', in: 'header', schema: { type: 'string' } },
              { name: 'session', in: 'cookie', schema: { type: 'string' } },
            ],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { note: { type: 'string' } },
                    required: ['note'],
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    ).tools;
    expect(others).toEqual([]);
    expect(Object.keys(tool?.parameters['properties'] as object)).toEqual([
      'id',
      'tags',
      'filter',
      'query_id',
      'X_Request_Id',
      'session',
      'note',
    ]);
    expect(tool?.parameters['required']).toEqual(['id', 'X_Request_Id', 'note']);
    expect(tool?.parameters['additionalProperties']).toBeUndefined();
    expect(tool?.warnings).toEqual([expect.stringMatching(/header parameter "Accept" is ignored/)]);
    expect((tool?.protocolMeta['toolgate'] as { executor: unknown }).executor).toEqual({
      kind: 'http',
      method: 'POST',
      url: 'https://api.example.com/v1/orders/{id}',
      headers: {},
      parameters: {
        id: { in: 'path' },
        tags: { in: 'query', style: 'pipeDelimited', explode: false },
        filter: { in: 'query', style: 'deepObject', explode: true },
        query_id: { in: 'query', name: 'id' },
        X_Request_Id: { in: 'header', name: 'X-Request-Id' },
        session: { in: 'cookie' },
      },
      body: 'remaining_arguments',
      query: 'none',
      max_response_bytes: 1048576,
    });
  });

  it('wraps a non-object body, or one whose property is named like a parameter, in one "body" argument', () => {
    const user = {
      type: 'object',
      properties: { username: { type: 'string' }, email: { type: 'string' } },
    };
    const tools = openApiToTools(
      documentWith({
        '/users/{username}': {
          parameters: [
            { name: 'username', in: 'path', required: true, schema: { type: 'string' } },
          ],
          put: {
            operationId: 'updateUser',
            requestBody: { content: { 'application/json': { schema: user } } },
            ...ok,
          },
        },
        '/users': {
          post: {
            operationId: 'createUsers',
            parameters: [{ name: 'body', in: 'query', schema: { type: 'boolean' } }],
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { type: 'array', items: user } } },
            },
            ...ok,
          },
        },
      }),
    ).tools;
    const [updateUser, createUsers] = tools;
    expect(updateUser?.parameters).toEqual({
      type: 'object',
      properties: { username: { type: 'string' }, body: user },
      required: ['username'],
      additionalProperties: false,
    });
    expect(updateUser?.warnings).toEqual([
      expect.stringMatching(/"body" argument: its properties "username"/),
    ]);
    expect(updateUser?.protocolMeta).toMatchObject({
      toolgate: {
        executor: { parameters: { username: { in: 'path' } }, body: { argument: 'body' } },
      },
    });
    expect(createUsers?.parameters).toEqual({
      type: 'object',
      properties: { body: { type: 'boolean' }, request_body: { type: 'array', items: user } },
      required: ['request_body'],
      additionalProperties: false,
    });
    expect(createUsers?.protocolMeta).toMatchObject({
      toolgate: {
        executor: { parameters: { body: { in: 'query' } }, body: { argument: 'request_body' } },
      },
    });
  });

  it('sends a media-type query parameter as JSON text through the unmapped query arguments', () => {
    const [tool] = openApiToTools(
      documentWith({
        '/s': {
          get: {
            operationId: 'search',
            parameters: [
              {
                name: 'where',
                in: 'query',
                content: { 'application/json': { schema: { type: 'object' } } },
              },
            ],
            ...ok,
          },
        },
      }),
    ).tools;
    expect((tool?.protocolMeta['toolgate'] as { executor: unknown }).executor).toMatchObject({
      body: 'none',
      query: 'remaining_arguments',
    });
    expect((tool?.protocolMeta['toolgate'] as { executor: object }).executor).not.toHaveProperty(
      'parameters',
    );
  });

  it('maps security schemes to secret references in headers and the query string', () => {
    const document = documentWith(
      {
        '/b': { get: { operationId: 'bearer', ...ok } },
        '/c': { get: { operationId: 'basic', security: [{ queryKey: [] }, { basic: [] }], ...ok } },
        '/d': { get: { operationId: 'open', security: [], ...ok } },
      },
      {
        security: [{ bearer: [] }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            basic: { type: 'http', scheme: 'basic' },
            queryKey: { type: 'apiKey', in: 'query', name: 'key' },
          },
        },
      },
    );
    const executors = Object.fromEntries(
      openApiToTools(document, { secretPrefix: 'example/' }).tools.map((tool) => {
        const { headers, query_params } = (
          tool.protocolMeta['toolgate'] as {
            executor: { headers: unknown; query_params?: unknown };
          }
        ).executor;
        return [tool.name, { headers, query_params }];
      }),
    );
    expect(executors).toEqual({
      bearer: {
        headers: { Authorization: { secret: 'example/bearer', prefix: 'Bearer ' } },
        query_params: undefined,
      },
      // The first alternative the executor can send: the API key in the query string.
      basic: { headers: {}, query_params: { key: { secret: 'example/queryKey' } } },
      open: { headers: {}, query_params: undefined },
    });
  });

  it('merges a JSON body with the path parameters, its required list only when the body is required', () => {
    const body = (required: boolean) => ({
      required,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
    });
    const [required, optional] = openApiToTools(
      documentWith({
        '/r/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          put: { operationId: 'required', requestBody: body(true), ...ok },
          post: { operationId: 'optional', requestBody: body(false), ...ok },
        },
      }),
    ).tools;
    expect(required?.parameters['required']).toEqual(['id', 'name']);
    expect(optional?.parameters['required']).toEqual(['id']);
    expect(required?.protocolMeta).toMatchObject({
      toolgate: { executor: { body: 'remaining_arguments', query: 'none' } },
    });
  });

  it('sends a multipart body, its binary fields as files', () => {
    const [upload] = openApiToTools(
      documentWith({
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
                      file: { type: 'string', format: 'binary', description: 'The PDF.' },
                      pages: { type: 'array', items: { type: 'string', format: 'binary' } },
                      checksum: { type: 'string', format: 'byte' },
                    },
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    ).tools;
    expect(upload?.protocolMeta).toMatchObject({
      toolgate: { executor: { body_encoding: 'multipart', files: ['file', 'pages'] } },
    });
    const properties = upload?.parameters['properties'] as Record<string, Record<string, unknown>>;
    // Its bytes as base64, or a URL the gateway fetches them from.
    const file = { anyOf: [{ required: ['base64'] }, { required: ['url'] }] };
    expect(properties['file']).toMatchObject({ ...file, description: 'The PDF.' });
    expect(properties['pages']).toMatchObject({ type: 'array', items: file });
    // base64 text (format: byte) is a string argument, not a file.
    expect(properties['checksum']).toEqual({ type: 'string', format: 'byte' });
  });

  it('keeps label and matrix path styles for the executor', () => {
    const [tool] = openApiToTools(
      documentWith({
        '/colors/{palette}{shade}': {
          get: {
            operationId: 'getColors',
            parameters: [
              {
                name: 'palette',
                in: 'path',
                required: true,
                style: 'label',
                schema: { type: 'string' },
              },
              {
                name: 'shade',
                in: 'path',
                required: true,
                style: 'matrix',
                explode: true,
                schema: { type: 'array', items: { type: 'string' } },
              },
            ],
            ...ok,
          },
        },
      }),
    ).tools;
    expect(tool?.protocolMeta).toMatchObject({
      toolgate: {
        executor: {
          parameters: {
            palette: { in: 'path', style: 'label' },
            shade: { in: 'path', style: 'matrix', explode: true },
          },
        },
      },
    });
  });

  it('sends a form-urlencoded body when the operation has no JSON one', () => {
    const [form] = openApiToTools(
      documentWith({
        '/charges': {
          post: {
            operationId: 'createCharge',
            requestBody: {
              required: true,
              content: {
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    properties: { amount: { type: 'integer' }, currency: { type: 'string' } },
                    required: ['amount'],
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    ).tools;
    expect(form?.parameters).toMatchObject({
      properties: { amount: { type: 'integer' }, currency: { type: 'string' } },
      required: ['amount'],
    });
    expect(form?.protocolMeta).toMatchObject({
      toolgate: { executor: { body: 'remaining_arguments', body_encoding: 'form' } },
    });
  });

  it('offers no read-only body property to the model, at any depth, and says which it left out', () => {
    const [created] = openApiToTools(
      documentWith({
        '/users': {
          post: {
            operationId: 'createUser',
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: {
                      id: { type: 'string', readOnly: true },
                      name: { type: 'string' },
                      address: {
                        type: 'object',
                        properties: {
                          city: { type: 'string' },
                          geocoded_at: { type: 'string', readOnly: true },
                        },
                        required: ['city', 'geocoded_at'],
                      },
                    },
                    required: ['id', 'name'],
                  },
                },
              },
            },
            ...ok,
          },
        },
      }),
    ).tools;
    expect(created?.parameters).toMatchObject({
      properties: {
        name: { type: 'string' },
        address: { properties: { city: { type: 'string' } }, required: ['city'] },
      },
      required: ['name'],
    });
    expect(Object.keys(created?.parameters['properties'] as object)).toEqual(['name', 'address']);
    expect(created?.warnings).toContainEqual(
      expect.stringContaining('/properties/id, /properties/address/properties/geocoded_at'),
    );
  });

  it('skips every operation when the server URL is relative and no base URL is given', () => {
    const result = openApiToTools({
      ...documentWith({ '/x': { get: ok } }),
      servers: [{ url: '/v3' }],
    });
    expect(result.baseUrl).toBeNull();
    expect(result.skipped[0]?.reason).toMatch(/base_url/);
  });
});

describe('loadOpenApiDocument', () => {
  it('reads an OpenAPI 3.1 YAML text and dereferences it', async () => {
    const document = await loadOpenApiDocument(
      [
        'openapi: 3.1.0',
        'info: {title: T, version: "1"}',
        'paths:',
        '  /p:',
        '    get:',
        '      operationId: p',
        '      parameters: [{$ref: "#/components/parameters/q"}]',
        '      responses: {"200": {description: ok}}',
        'components:',
        '  parameters:',
        '    q: {name: q, in: query, schema: {type: [string, "null"]}}',
      ].join('\n'),
    );
    const [tool] = openApiToTools(document, { baseUrl: 'https://x.example' }).tools;
    expect(tool?.parameters['properties']).toEqual({ q: { type: ['string', 'null'] } });
  });

  it('lists the parser errors of an invalid document as a 422 problem', async () => {
    const error = await loadOpenApiDocument({ openapi: '3.0.0', info: {}, paths: {} }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ToolException);
    expect((error as ToolException).issues[0]?.message).toMatch(/title/);
  });

  it('never reads a string as a file path', async () => {
    await expect(loadOpenApiDocument('/etc/passwd')).rejects.toBeInstanceOf(ToolException);
  });
});

describe('names and behavior', () => {
  it('sanitizes names for every provider and deduplicates them', () => {
    expect(sanitizeToolName('get /pets/{id}')).toBe('get_pets_id');
    expect(sanitizeToolName('€€€')).toBe('tool');
    expect(sanitizeToolName('x'.repeat(100))).toHaveLength(64);
    expect(uniqueName('a', new Set(['a', 'a_2']))).toBe('a_3');
    expect(uniqueName('y'.repeat(64), new Set(['y'.repeat(64)]))).toBe(`${'y'.repeat(62)}_2`);
  });

  it('derives behavior from the HTTP method', () => {
    expect(behaviorOfMethod('head')).toMatchObject({ readonly: true, idempotent: true });
    expect(behaviorOfMethod('post')).toMatchObject({
      readonly: false,
      idempotent: false,
      destructive: false,
    });
    expect(behaviorOfMethod('patch')).toMatchObject({ idempotent: false });
  });
});
