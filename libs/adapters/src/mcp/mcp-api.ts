import { ContentBlockSchema, type ContentBlock } from '@toolgate/toolir';
import { z } from 'zod';
import { JsonObjectSchema, ObjectRootSchema } from '../shared/wire-boundary';

/** MCP tool annotations (all hints; defaults: readOnly false, destructive true, idempotent false, openWorld true). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** An MCP `Tool` (spec 2025-11-25): `inputSchema` root MUST be `type:'object'`. */
export interface McpTool {
  /** SHOULD be 1–128 characters of `[A-Za-z0-9_.-]`. */
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  outputSchema?: { type: 'object'; [keyword: string]: unknown };
  annotations: McpToolAnnotations;
  _meta?: Record<string, unknown>;
  icons?: unknown[];
}

/** A `tools/call` JSON-RPC request. */
export interface McpCallToolRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: 'tools/call';
  params: { name: string; arguments: Record<string, unknown> };
}

/** An MCP content block (text, image, audio, resource_link, embedded resource): the IR's content model. */
export type McpContentBlock = ContentBlock;

/** A `CallToolResult`: `isError` marks a tool failure the model should see. */
export interface McpCallToolResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The JSON-RPC response carrying a `CallToolResult`. */
export interface McpCallToolResponse {
  jsonrpc: '2.0';
  id: string | number;
  result: McpCallToolResult;
}

/** MCP has no request-level tool options. */
export type McpRequestOptions = Record<string, never>;

/** A `Tool` as read from the wire. */
export const McpToolSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: ObjectRootSchema,
  outputSchema: ObjectRootSchema.optional(),
  annotations: z
    .looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
  _meta: JsonObjectSchema.optional(),
  icons: z.array(z.unknown()).optional(),
  execution: JsonObjectSchema.optional(),
});

/** JSON-RPC request ids: a string or an integer. */
export const McpRequestIdSchema = z.union([z.string().min(1), z.number().int()]);

/** `tools/call` params as read from the wire. */
export const McpCallToolParamsSchema = z.looseObject({
  name: z.string().min(1),
  arguments: JsonObjectSchema.optional(),
});

/** A `tools/call` request as read from the wire. */
export const McpCallToolRequestSchema = z.looseObject({
  jsonrpc: z.literal('2.0').optional(),
  id: McpRequestIdSchema.optional(),
  method: z.literal('tools/call'),
  params: McpCallToolParamsSchema,
});

/** A content block as read from the wire (extra fields such as `_meta` are tolerated and not kept). */
export const McpContentBlockSchema = ContentBlockSchema;

/** A `CallToolResult` as read from the wire. */
export const McpCallToolResultSchema = z.looseObject({
  content: z.array(McpContentBlockSchema),
  structuredContent: JsonObjectSchema.optional(),
  isError: z.boolean().optional(),
});

/** A JSON-RPC success response. */
export const McpResultResponseSchema = z.looseObject({
  jsonrpc: z.literal('2.0').optional(),
  id: McpRequestIdSchema,
  result: z.unknown(),
});

/** A JSON-RPC error response (a protocol-level failure, not a tool error). */
export const McpErrorResponseSchema = z.looseObject({
  jsonrpc: z.literal('2.0').optional(),
  id: McpRequestIdSchema.nullish(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }),
});
