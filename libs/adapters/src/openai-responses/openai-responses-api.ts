import { z } from 'zod';
import { JsonObjectSchema } from '../shared/wire-boundary';

/** A Responses API function tool: `{type:'function', name, description, parameters, strict}`. */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  /** `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Always sent: when omitted, Responses silently tries strict first (provider-rules §2.2 (7)). */
  strict: boolean;
  /** Only the name is shown to the model until a `tool_search` loads the definition. */
  defer_loading?: boolean;
}

/** How a custom tool's free text is constrained: not at all, or by a regex or Lark grammar. */
export type OpenAIResponsesCustomToolFormat =
  { type: 'text' } | { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string };

/** A Responses API custom tool: the model answers with free text (`{type:'custom', name, description, format}`). */
export interface OpenAIResponsesCustomTool {
  type: 'custom';
  /** `^[a-zA-Z0-9_-]+$`, at most 64 characters, as for functions. */
  name: string;
  description: string;
  format: OpenAIResponsesCustomToolFormat;
  /** Only the name is shown to the model until a `tool_search` loads the definition. */
  defer_loading?: boolean;
}

/** One tool definition of ours on the Responses wire: a function, or a custom tool for free text. */
export type OpenAIResponsesDefinition = OpenAIResponsesFunctionTool | OpenAIResponsesCustomTool;

/**
 * The `tool_search` tool that loads deferred tools: run by OpenAI over the request's deferred
 * tools (`execution` omitted or `server`), or by the app (`client`, with the description and
 * parameters the model calls it with; the app answers with a `tool_search_output`).
 */
export interface OpenAIResponsesToolSearchTool {
  type: 'tool_search';
  execution?: 'server' | 'client';
  description?: string;
  parameters?: Record<string, unknown>;
}

/** What a Responses request's `tools` holds here: function and custom tools and the tool search tool. */
export type OpenAIResponsesTool = OpenAIResponsesDefinition | OpenAIResponsesToolSearchTool;

/** A `tool_search_output` input item: the tools a client-executed search loads for the model. */
export interface OpenAIResponsesToolSearchOutput {
  type: 'tool_search_output';
  /** The `call_id` of the `tool_search_call` it answers. */
  call_id: string;
  execution: 'client';
  status: 'completed';
  tools: OpenAIResponsesTool[];
}

/** A `function_call` output item; `arguments` is JSON text, `call_id` 1–64 characters. */
export interface OpenAIResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
}

/** A `custom_tool_call` output item: the free text a custom tool was called with. */
export interface OpenAIResponsesCustomToolCall {
  type: 'custom_tool_call';
  call_id: string;
  name: string;
  input: string;
}

/** The items that replay calls: `function_call` for JSON arguments, `custom_tool_call` for free text. */
export type OpenAIResponsesCallItem = OpenAIResponsesFunctionCall | OpenAIResponsesCustomToolCall;

/** Rich output of a function call: text and images. */
export type OpenAIResponsesOutputPart =
  { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' };

/** A `function_call_output` input item answering `call_id`. */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
}

/** A `custom_tool_call_output` input item answering a custom tool's `call_id`. */
export interface OpenAIResponsesCustomToolCallOutput {
  type: 'custom_tool_call_output';
  call_id: string;
  output: string | OpenAIResponsesOutputPart[];
}

/** The items that answer calls, each of its call's kind. */
export type OpenAIResponsesCallOutput =
  OpenAIResponsesFunctionCallOutput | OpenAIResponsesCustomToolCallOutput;

/** Request-level fields for the Responses API. */
export interface OpenAIResponsesRequestOptions {
  parallel_tool_calls?: boolean;
}

/** Output item types the Responses API documents; anything else is rejected as unknown. */
export const OPENAI_RESPONSES_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'custom_tool_call',
  'custom_tool_call_output',
  'compaction',
  'item_reference',
  'tool_search_call',
  'tool_search_output',
]);

/** A tool definition as read from the wire. */
export const OpenAIResponsesFunctionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: JsonObjectSchema.nullish(),
  strict: z.boolean().nullish(),
});

/** A custom tool's input format as read from the wire (absent: unconstrained text). */
export const OpenAIResponsesCustomToolFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({
    type: z.literal('grammar'),
    syntax: z.enum(['lark', 'regex']),
    definition: z.string().min(1),
  }),
]);

/** A custom tool definition as read from the wire. */
export const OpenAIResponsesCustomToolSchema = z.object({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().nullish(),
  format: OpenAIResponsesCustomToolFormatSchema.nullish(),
});

/** A `tool_search_call` item as read from the wire (`call_id` is null for server searches). */
export const OpenAIResponsesToolSearchCallSchema = z.looseObject({
  type: z.literal('tool_search_call'),
  call_id: z.string().min(1).nullish(),
  execution: z.enum(['server', 'client']).nullish(),
  arguments: z.unknown().optional(),
});

/** A `tool_search_output` item as read from the wire: only the tools' types and names matter. */
export const OpenAIResponsesToolSearchOutputSchema = z.looseObject({
  type: z.literal('tool_search_output'),
  call_id: z.string().min(1).nullish(),
  execution: z.enum(['server', 'client']).nullish(),
  tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })),
});

/** Any output item: only its type is checked here. */
export const OpenAIResponsesItemSchema = z.looseObject({
  type: z.string().refine((type) => OPENAI_RESPONSES_ITEM_TYPES.has(type), 'unknown item type'),
});

/** A `function_call` item as read from the wire. */
export const OpenAIResponsesFunctionCallSchema = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  id: z.string().optional(),
});

/** A `custom_tool_call` item as read from the wire. */
export const OpenAIResponsesCustomToolCallSchema = z.object({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  input: z.string(),
  id: z.string().optional(),
});

/** A whole Response, as far as tool calls go. */
export const OpenAIResponsesResponseSchema = z.object({ output: z.array(z.unknown()) });

/** A `function_call_output` or `custom_tool_call_output` item as read from the wire. */
export const OpenAIResponsesFunctionCallOutputSchema = z.object({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string().min(1),
  output: z.union([
    z.string(),
    z.array(
      z.discriminatedUnion('type', [
        z.object({ type: z.literal('input_text'), text: z.string() }),
        z.object({
          type: z.literal('input_image'),
          image_url: z.string().nullish(),
          file_id: z.string().nullish(),
        }),
        z.object({
          type: z.literal('input_file'),
          file_data: z.string().nullish(),
          filename: z.string().nullish(),
          file_id: z.string().nullish(),
          file_url: z.string().nullish(),
        }),
      ]),
    ),
  ]),
});
