import { z } from 'zod';
import { JsonObjectSchema, ObjectRootSchema } from '../shared/wire-boundary';

/** Anthropic's `input_schema`: an object schema at the root, anything else inside. */
export interface AnthropicInputSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/** A prompt-cache breakpoint on a tool (at most 4 per request). */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A Messages API client tool: `{name, description, input_schema}` plus `cache_control` and `strict`. */
export interface AnthropicTool {
  /** `^[a-zA-Z0-9_-]{1,128}$`. */
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
  cache_control?: AnthropicCacheControl;
  strict?: boolean;
  /** Only the name is known to the model until the tool search returns a `tool_reference` to it. */
  defer_loading?: boolean;
}

/** Anthropic's BM25 tool search tool, run by Anthropic over the request's deferred tools. */
export interface AnthropicToolSearchTool {
  type: 'tool_search_tool_bm25_20251119';
  name: 'tool_search_tool_bm25';
}

/** What a Messages request's `tools` holds here: client tools and the tool search tool. */
export type AnthropicRequestTool = AnthropicTool | AnthropicToolSearchTool;

/** A `tool_use` content block: `input` is an object. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  /** `^[a-zA-Z0-9_-]+$`. */
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** The assistant message that carries tool calls. */
export interface AnthropicAssistantMessage {
  role: 'assistant';
  content: AnthropicToolUseBlock[];
}

/** Content a tool result can carry. */
export type AnthropicToolResultContent =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: AnthropicImageMediaType; data: string };
    };

/** Image types the Messages API accepts in base64 sources. */
export type AnthropicImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** A `tool_result` block answering `tool_use_id`; `is_error` marks a failure. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolResultContent[];
  is_error: boolean;
}

/** The user message carrying every result of one assistant turn, before any text. */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

/** Request-level fields: `tool_choice.disable_parallel_tool_use` when parallel calls are off. */
export interface AnthropicRequestOptions {
  tool_choice?: { type: 'auto'; disable_parallel_tool_use: boolean };
}

/** Content block types of the Messages API (responses and params); anything else is rejected as unknown. */
export const ANTHROPIC_BLOCK_TYPES = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
  'image',
  'document',
  'search_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'tool_reference',
]);

/** A tool definition as read from the wire. */
export const AnthropicToolSchema = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  input_schema: ObjectRootSchema,
  cache_control: z.looseObject({ type: z.literal('ephemeral') }).nullish(),
  strict: z.boolean().nullish(),
  type: z.literal('custom').nullish(),
});

/** A `server_tool_use` block as read from the wire. */
export const AnthropicServerToolUseBlockSchema = z.looseObject({
  type: z.literal('server_tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown().optional(),
});

const ToolReferenceSchema = z.looseObject({
  type: z.literal('tool_reference'),
  tool_name: z.string().min(1),
});

/** A `tool_search_tool_result` block: the tools a server search found, or its error. */
export const AnthropicToolSearchResultBlockSchema = z.looseObject({
  type: z.literal('tool_search_tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([
    z.looseObject({
      type: z.literal('tool_search_tool_search_result'),
      tool_references: z.array(ToolReferenceSchema),
    }),
    z.looseObject({
      type: z.literal('tool_search_tool_result_error'),
      error_code: z.string(),
      error_message: z.string().nullish(),
    }),
  ]),
});

/** Any content block: only its type is checked here. */
export const AnthropicBlockSchema = z.looseObject({
  type: z.string().refine((type) => ANTHROPIC_BLOCK_TYPES.has(type), 'unknown content block type'),
});

/** A `tool_use` block as read from the wire. */
export const AnthropicToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: JsonObjectSchema,
});

/** A message (request or response) as far as its content goes. */
export const AnthropicMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']).optional(),
  content: z.union([z.string(), z.array(z.unknown())]),
});

/** A `tool_result` block as read from the wire. */
export const AnthropicToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z
    .union([
      z.string(),
      z.array(
        z.looseObject({
          type: z.string(),
          text: z.string().optional(),
          tool_name: z.string().optional(),
          source: z
            .looseObject({
              type: z.string(),
              media_type: z.string().optional(),
              data: z.string().optional(),
            })
            .optional(),
        }),
      ),
    ])
    .optional(),
  is_error: z.boolean().optional(),
});
