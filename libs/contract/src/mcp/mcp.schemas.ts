import { z } from 'zod';
import { SEARCH_TOOL_NAME } from '../tools/search-tool';

/** The MCP protocol revision this server negotiates by default (the newest its SDK speaks). */
export const MCP_PROTOCOL_VERSION_EXAMPLE = '2025-11-25';

const JsonRpcIdSchema = z.union([z.string(), z.number().int()]);

/**
 * One JSON-RPC 2.0 message: a request (`id` and `method`), a notification (`method` only) or a
 * response (`id` with `result` or `error`). Loose on purpose: the MCP SDK's transport and server
 * check each method's params, and answer a malformed message with a JSON-RPC error of their own.
 */
export const JsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcIdSchema.optional().meta({ description: 'Present on requests and responses.' }),
    method: z.string().optional().meta({
      description:
        'Present on requests and notifications: `initialize`, `tools/list`, `tools/call`, `notifications/initialized`, ...',
    }),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z
      .looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() })
      .optional(),
  })
  .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 request, notification or response.' });
export type JsonRpcMessage = z.infer<typeof JsonRpcMessageSchema>;

/** What a client POSTs to the MCP endpoint: one message, or a batch of them. */
export const McpPostBodySchema = z.union([
  JsonRpcMessageSchema,
  z.array(JsonRpcMessageSchema).min(1),
]);
export type McpPostBody = z.input<typeof McpPostBodySchema>;

/** How much of the catalog `tools/list` shows a client (fixed per session by its `initialize`). */
export const McpPostQuerySchema = z.looseObject({
  tools: z
    .enum(['all', 'search'], { error: 'must be all or search' })
    .default('all')
    .meta({
      description: `\`all\` (default): \`tools/list\` pages through the whole catalog. \`search\`: for catalogs too large to show a model, \`tools/list\` holds the tool \`${SEARCH_TOOL_NAME}\` and, in a session, the tools its searches found (a \`notifications/tools/list_changed\` follows each search that found new ones); the model asks for tools by what they do and gets their definitions, under the same visibility as \`tools/list\`. Any tool of the catalog can be called by name in either mode.`,
    }),
});
export type McpPostQuery = z.output<typeof McpPostQuerySchema>;

const SessionIdHeaderSchema = z.uuid().meta({
  description: 'The session `initialize` opened (from its `mcp-session-id` response header).',
});

const ProtocolVersionHeaderSchema = z
  .string()
  .optional()
  .meta({
    description: `The protocol revision negotiated by \`initialize\`, sent on every later request (e.g. \`${MCP_PROTOCOL_VERSION_EXAMPLE}\`); a revision the server does not speak is a 400.`,
  });

export const McpPostHeadersSchema = z.looseObject({
  'mcp-session-id': SessionIdHeaderSchema.optional().meta({
    description:
      'The session `initialize` opened. Absent on `initialize` itself, and on stateless requests (answered by a server built for the one request).',
  }),
  'mcp-protocol-version': ProtocolVersionHeaderSchema,
  'x-toolgate-conversation-id': z.string().min(1).max(256).optional().meta({
    description:
      "The client's conversation (1-256 characters), recorded on its calls; with it, a `notifications/cancelled` sent in a later stateless POST reaches the call it names.",
  }),
});

export const McpSessionHeadersSchema = z.looseObject({
  'mcp-session-id': SessionIdHeaderSchema,
  'mcp-protocol-version': ProtocolVersionHeaderSchema,
});

/**
 * A `text/event-stream` body: each event's `data:` is one JSON-RPC message. Its input admits void
 * because the handler returns nothing: the MCP transport writes the events on the raw response.
 */
export const McpEventStreamSchema: z.ZodType<string, string | void> = z.string().meta({
  description:
    'Server-sent events; the `data:` of each event is one JSON-RPC message (a JsonRpcMessage): the responses to the requests, and any notifications (progress, list changes) sent before them.',
});
