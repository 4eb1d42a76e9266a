import { z } from 'zod';
import { defineRoute } from '../route/route';
import { SEARCH_TOOL_NAME } from '../tools/search-tool';
import {
  MCP_PROTOCOL_VERSION_EXAMPLE,
  McpEventStreamSchema,
  McpPostBodySchema,
  McpPostHeadersSchema,
  McpPostQuerySchema,
  McpSessionHeadersSchema,
} from './mcp.schemas';

const tags = ['mcp'] as const;

const SESSION_ID_HEADER = {
  'mcp-session-id': {
    description:
      'The session the answer belongs to; on the answer to `initialize`, the new session. Absent on stateless answers.',
    schema: z.uuid().optional(),
  },
} as const;

const TRANSPORT_ERRORS =
  'Refusals before the MCP transport takes over (credentials, scopes, an unknown session, a bad header) are problem documents like everywhere else; after that, errors are JSON-RPC errors (HTTP 400 for a malformed message or an unsupported `mcp-protocol-version`, 406 when `Accept` lacks `text/event-stream` (or, on POST, `application/json`), 415 for a body that is not JSON, 500 for a failure inside the server).';

export const mcpRoutes = {
  postMcpMessage: defineRoute({
    operationId: 'postMcpMessage',
    method: 'post',
    path: '/mcp',
    summary: 'Send JSON-RPC messages to the registry as an MCP server (Streamable HTTP).',
    description: [
      'The MCP endpoint, outside `/v1` as MCP clients expect one URL. An `initialize` request opens a session (its id in the `mcp-session-id` response header, to send on every later request); any other POST without a session id is answered statelessly by a server built for that one request.',
      `Scopes are checked per JSON-RPC message before any of it runs (403 \`forbidden\` with \`required_scopes\` and a Bearer \`insufficient_scope\` challenge): \`tools/list\` needs \`tools:read\`, \`tools/call\` needs \`calls:execute\` (and \`tools:read\` too for \`${SEARCH_TOOL_NAME}\`, which reads the catalog); \`initialize\`, \`ping\`, notifications and responses need only valid credentials.`,
      'Credentials: `Authorization: Bearer` with an API key, or, when the deployment configures `TOOLGATE_OAUTH_ISSUER`, an OAuth 2.1 access token for this resource (RFC 9728 metadata at `/.well-known/oauth-protected-resource/mcp`; a 401 names it in `WWW-Authenticate`). `Host` and `Origin` must name this server (403 otherwise).',
      TRANSPORT_ERRORS,
    ].join('\n\n'),
    tags,
    security: 'bearer',
    // Scopes are per JSON-RPC method (see the description), not per route.
    scopes: [],
    query: McpPostQuerySchema,
    headers: McpPostHeadersSchema,
    body: McpPostBodySchema,
    bodyExamples: {
      initialize: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: MCP_PROTOCOL_VERSION_EXAMPLE,
          capabilities: {},
          clientInfo: { name: 'my-agent', version: '1.0.0' },
        },
      },
      callTool: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_weather', arguments: { city: 'Oslo' } },
      },
    },
    responses: {
      200: {
        description:
          'The body held at least one request: the answers come as server-sent events (this server always streams; it never answers a request with `application/json`).',
        mediaType: 'text/event-stream',
        schema: McpEventStreamSchema,
        headers: SESSION_ID_HEADER,
      },
      202: { description: 'The body held only notifications or responses: accepted, no body.' },
    },
    problems: ['not_found'],
    streaming: true,
  }),
  openMcpStream: defineRoute({
    operationId: 'openMcpStream',
    method: 'get',
    path: '/mcp',
    summary:
      "Open a session's stream of server-initiated messages (`notifications/tools/list_changed`).",
    description: [
      'Only for a session (`mcp-session-id`); without one the answer is 405. One stream per session: a second is refused with a JSON-RPC error (409). A session whose client holds no stream is not told of changes and re-lists.',
      'Any key may open the stream of a session it opened itself; no scope is checked beyond that.',
      TRANSPORT_ERRORS,
    ].join('\n\n'),
    tags,
    security: 'bearer',
    scopes: [],
    headers: McpSessionHeadersSchema,
    responses: {
      200: {
        description: 'The stream, open until the client or the session ends it.',
        mediaType: 'text/event-stream',
        schema: McpEventStreamSchema,
      },
    },
    // not_found: no such session for this key (it ended or expired): initialize a new one.
    problems: ['not_found', 'method_not_allowed'],
    streaming: true,
  }),
  endMcpSession: defineRoute({
    operationId: 'endMcpSession',
    method: 'delete',
    path: '/mcp',
    summary: 'End an MCP session.',
    description: [
      'Only for a session (`mcp-session-id`); without one the answer is 405. Its id answers 404 afterwards.',
      'Any key may end a session it opened itself; no scope is checked beyond that.',
      TRANSPORT_ERRORS,
    ].join('\n\n'),
    tags,
    security: 'bearer',
    scopes: [],
    headers: McpSessionHeadersSchema,
    responses: { 200: { description: 'The session ended; no body.' } },
    problems: ['not_found', 'method_not_allowed'],
    streaming: true,
  }),
};
