import { z } from 'zod';
import { JsonObjectSchema } from '../shared/wire-boundary';

/** Gemini's schema types (the `Type` enum of `@google/genai`, whose values are these strings). */
export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/** Gemini's OpenAPI-3.0 `Schema` subset; int64 fields are strings in the proto JSON mapping. */
export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  /** Always strings; numeric enums carry `format: 'enum'` (provider-rules §2.1). */
  enum?: string[];
  items?: GeminiSchema;
  minItems?: string;
  maxItems?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  minProperties?: string;
  maxProperties?: string;
  minimum?: number;
  maximum?: number;
  minLength?: string;
  maxLength?: string;
  pattern?: string;
  example?: unknown;
  anyOf?: GeminiSchema[];
}

/** A function declaration: `parameters` (OpenAPI subset) or `parametersJsonSchema`, never both. */
export interface GeminiFunctionDeclaration {
  name: string;
  /** Required by older protos: sent as `''` rather than omitted. */
  description: string;
  parameters?: GeminiSchema;
  parametersJsonSchema?: Record<string, unknown>;
}

/** The request's tool entry holding the declarations. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A `functionCall` part; older models send no `id`. */
export interface GeminiFunctionCallPart {
  functionCall: { id?: string; name: string; args: Record<string, unknown> };
}

/** The model turn that carries function calls. */
export interface GeminiModelContent {
  role: 'model';
  parts: GeminiFunctionCallPart[];
}

/** A `functionResponse` part: `response.output` on success, `response.error` on failure. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: Record<string, unknown> };
}

/** The user turn that carries the function responses. */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

/** Gemini has no request-level switch for parallel calls. */
export type GeminiRequestOptions = Record<string, never>;

/** Part fields of the Gemini API; a part with none of them is rejected as unknown. */
export const GEMINI_PART_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
  'thought',
  'thoughtSignature',
  'videoMetadata',
  'toolCall',
  'toolResponse',
  'partMetadata',
  'mediaResolution',
] as const;

/** A declaration as read from the wire. */
export const GeminiFunctionDeclarationSchema = z.object({
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: JsonObjectSchema.nullish(),
  parametersJsonSchema: JsonObjectSchema.nullish(),
});

/** Any part: an object with at least one known field. */
export const GeminiPartSchema = z
  .record(z.string(), z.unknown())
  .refine(
    (part) => GEMINI_PART_FIELDS.some((field) => part[field] !== undefined),
    'unknown part type',
  );

/** A `functionCall` as read from the wire. */
export const GeminiFunctionCallSchema = z.object({
  id: z.string().min(1).nullish(),
  name: z.string().min(1),
  args: JsonObjectSchema.nullish(),
});

/** A `functionResponse` as read from the wire. */
export const GeminiFunctionResponseSchema = z.object({
  id: z.string().min(1).nullish(),
  name: z.string().min(1),
  response: JsonObjectSchema.nullish(),
});

/** A Content (`{role, parts}`). */
export const GeminiContentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(z.unknown()),
});

/** A GenerateContentResponse, as far as calls go (the first candidate is the answer). */
export const GeminiResponseSchema = z.object({
  candidates: z.array(z.object({ content: GeminiContentSchema.nullish() })),
});
