import { z } from 'zod';
import { JsonObjectSchema } from '../shared/wire-boundary';

/** A Chat Completions function tool: `{type:'function', function:{name, description, parameters, strict}}`. */
export interface OpenAIChatFunctionTool {
  type: 'function';
  function: {
    /** `^[a-zA-Z0-9_-]+$`, at most 64 characters. */
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    /** Always sent, so Chat and Responses behave the same (provider-rules §2.2 (7)). */
    strict: boolean;
  };
}

/** How a Chat custom tool's free text is constrained: not at all, or by a regex or Lark grammar. */
export type OpenAIChatCustomToolFormat =
  { type: 'text' } | { type: 'grammar'; grammar: { syntax: 'lark' | 'regex'; definition: string } };

/** A Chat Completions custom tool: the model answers with free text (`{type:'custom', custom:{...}}`). */
export interface OpenAIChatCustomTool {
  type: 'custom';
  custom: {
    /** `^[a-zA-Z0-9_-]+$`, at most 64 characters, as for functions. */
    name: string;
    description: string;
    format: OpenAIChatCustomToolFormat;
  };
}

/** One tool definition of ours on the Chat wire: a function, or a custom tool for free text. */
export type OpenAIChatTool = OpenAIChatFunctionTool | OpenAIChatCustomTool;

/** A tool call in an assistant message; `arguments` is JSON text. */
export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A call of a custom tool in an assistant message: `input` is the model's free text. */
export interface OpenAIChatCustomToolCall {
  id: string;
  type: 'custom';
  custom: { name: string; input: string };
}

/** The assistant message that carries tool calls. */
export interface OpenAIChatAssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls: Array<OpenAIChatToolCall | OpenAIChatCustomToolCall>;
}

/** One call's result: a `role:'tool'` message answering `tool_call_id`. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string | Array<{ type: 'text'; text: string }>;
}

/** Request-level fields for Chat Completions. */
export interface OpenAIChatRequestOptions {
  parallel_tool_calls?: boolean;
}

/** A tool definition as read from the wire. */
export const OpenAIChatFunctionToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: JsonObjectSchema.nullish(),
    strict: z.boolean().nullish(),
  }),
});

/** A custom tool definition as read from the wire (an absent `format` is unconstrained text). */
export const OpenAIChatCustomToolSchema = z.object({
  type: z.literal('custom'),
  custom: z.object({
    name: z.string().min(1),
    description: z.string().nullish(),
    format: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('text') }),
        z.object({
          type: z.literal('grammar'),
          grammar: z.object({
            syntax: z.enum(['lark', 'regex']),
            definition: z.string().min(1),
          }),
        }),
      ])
      .nullish(),
  }),
});

/** A custom tool call as read from the wire. */
export const OpenAIChatCustomToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('custom'),
  custom: z.object({ name: z.string().min(1), input: z.string() }),
});

/** A tool call as read from the wire (`type` tolerated when missing, as compatible servers omit it). */
export const OpenAIChatToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

/** An assistant message as read from the wire. */
export const OpenAIChatAssistantMessageSchema = z.object({
  role: z.literal('assistant').optional(),
  content: z.union([z.string(), z.array(z.unknown())]).nullish(),
  tool_calls: z.array(z.unknown()).nullish(),
});

/** A whole ChatCompletion response, as far as tool calls go. */
export const OpenAIChatCompletionSchema = z.object({
  choices: z.array(z.object({ message: OpenAIChatAssistantMessageSchema })),
});

/** A `role:'tool'` message as read from the wire. */
export const OpenAIChatToolMessageSchema = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }))]),
});
