import { z } from 'zod';
import { defineRoute } from '../route/route';
import {
  ImportOpenApiSchema,
  McpServerIdSchema,
  McpServerListSchema,
  McpServerSchema,
  McpServerSyncSchema,
  OpenApiImportSchema,
  RegisterMcpServerSchema,
} from './imports.schemas';

const tags = ['imports'] as const;

const WEATHER_API = {
  openapi: '3.1.0',
  info: { title: 'Weather API', version: '2.3.0' },
  servers: [{ url: 'https://api.weather.example.com/v2' }],
  paths: {
    '/weather': {
      get: {
        operationId: 'getWeather',
        summary: 'Current weather for a city.',
        parameters: [{ name: 'city', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The current weather.' } },
      },
    },
  },
};

const WEATHER_API_YAML = `openapi: 3.0.3
info:
  title: Weather API
  version: 2.3.0
paths:
  /weather:
    get:
      operationId: getWeather
      parameters:
        - name: city
          in: query
          required: true
          schema:
            type: string
      responses:
        '200':
          description: The current weather.
`;

const serverParams = z.strictObject({ serverId: McpServerIdSchema });

export const importsRoutes = {
  importOpenApi: defineRoute({
    operationId: 'importOpenApi',
    method: 'post',
    path: '/v1/imports/openapi',
    summary: 'Import an OpenAPI 3.0/3.1 document: one tool per operation, http executor.',
    description:
      'Each operation becomes a tool named by its operationId (with `name_prefix`): a new tool at 1.0.0, the next version of an existing one under the breaking-change rules, or nothing when it is unchanged. Operations the http executor cannot call are listed in `skipped` with the reason. Everything commits in one transaction; `dry_run` writes nothing. Security schemes become `{secret}` references, never values.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    body: ImportOpenApiSchema,
    bodyExamples: {
      object: { document: WEATHER_API, tags: ['weather'], name_prefix: 'weather_', publish: true },
      yamlDryRun: {
        document: WEATHER_API_YAML,
        base_url: 'https://api.weather.example.com/v2',
        dry_run: true,
      },
    },
    responses: {
      200: {
        description:
          'What the import did (or, with `dry_run`, would do) to each tool, and the operations it skipped.',
        schema: OpenApiImportSchema,
      },
    },
    // invalid_tool_definition: the document does not parse, validate or dereference.
    problems: ['invalid_tool_definition', 'egress_denied', 'not_found', 'conflict'],
  }),
  registerMcpServer: defineRoute({
    operationId: 'registerMcpServer',
    method: 'post',
    path: '/v1/imports/mcp-servers',
    summary: 'Register an upstream MCP server (Streamable HTTP) and import its tools.',
    description:
      'Lists every tool of the server (all pages) and imports each as a tool with an `mcp` executor. Schemas of older JSON Schema drafts (04, 06, 07, 2019-09) are rewritten as 2020-12, each rewrite a warning on the tool; tools that require task-augmented execution (`execution.taskSupport: "required"`) are skipped with the reason. `defaults` fill the behavior hints the upstream leaves out, so un-annotated tools need not all wait for approval. A server that cannot be reached or listed is a 502 (`upstream_unavailable`) and nothing is written.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    body: RegisterMcpServerSchema,
    bodyExamples: {
      withAuth: {
        name: 'github',
        url: 'https://mcp.github.example.com/mcp',
        auth: { header: 'Authorization', secret_ref: 'GITHUB_TOKEN', prefix: 'Bearer ' },
        name_prefix: 'gh_',
        publish: true,
      },
      open: { name: 'docs-search', url: 'https://docs.example.com/mcp' },
      readOnlyDefaults: {
        name: 'wiki',
        url: 'https://wiki.example.com/mcp',
        defaults: { read_only: true, open_world: false },
      },
    },
    responses: {
      201: {
        description: 'The server and what the first sync imported.',
        schema: McpServerSyncSchema,
      },
    },
    problems: ['conflict', 'not_found', 'upstream_unavailable', 'egress_denied'],
  }),
  listMcpServers: defineRoute({
    operationId: 'listMcpServers',
    method: 'get',
    path: '/v1/imports/mcp-servers',
    summary: 'The registered upstream MCP servers.',
    description:
      "A team key sees its team's servers; the installation admin key and console users see every team's.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    responses: { 200: { description: 'Every server, by name.', schema: McpServerListSchema } },
    problems: [],
  }),
  getMcpServer: defineRoute({
    operationId: 'getMcpServer',
    method: 'get',
    path: '/v1/imports/mcp-servers/{serverId}',
    summary: 'One upstream MCP server and the tools mirrored from it.',
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    params: serverParams,
    responses: { 200: { description: 'The server.', schema: McpServerSchema } },
    problems: ['not_found'],
  }),
  syncMcpServer: defineRoute({
    operationId: 'syncMcpServer',
    method: 'post',
    path: '/v1/imports/mcp-servers/{serverId}/sync',
    summary:
      'Re-list the upstream tools: import new ones, version changed ones, deprecate removed ones.',
    description:
      'Removed tools stay served, deprecated, for 30 days before their sunset. An unreachable server is a 502 and nothing changes.',
    tags,
    security: 'api_key',
    scopes: ['tools:write'],
    params: serverParams,
    responses: {
      200: { description: 'What the sync changed, tool by tool.', schema: McpServerSyncSchema },
    },
    problems: ['not_found', 'upstream_unavailable', 'egress_denied', 'conflict'],
  }),
};
